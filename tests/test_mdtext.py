"""Escaping commit text and sanitising analyser text (commitdigest.render.mdtext)."""

from __future__ import annotations

import mdcheck
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from commitdigest.render.mdtext import (
    code_span,
    escape_text,
    sanitize_block,
    sanitize_inline,
)
from commitdigest.text import clean_line, shorten_title

# Every title of the seed report's table (daily-2026-01-13.md), copied verbatim.
SEED_TITLES = """\
[BugFix] [KVConnector] Fix KV events for LMCache connector (#32169)
[Refactor] [7/N] to simplify the vLLM lora serving architecture (#32251)
[Refactor] Remove `MultiModalProfiler` (#32254)
[6/N][Attention] Move utils to more appropriate locations (#32215)
[Refactor] [6/N] to simplify the vLLM openai chat_completion serving architecture (#32240)
[Quantization] fix: overflow with static per-tensor scaling (#29867)
[Docs] Nixl Usage recommend `fail` kv_load_failure_policy (#32198)
[Bugfix] Replace `PoolingParams.normalize` with `use_activation` (#32243)
[Refactor] Remove `get_encoder_dummy_data` (#32241)
[Model] Use mm_position to compute mrope positions for Qwen2-VL/2.5-VL (#32126)
[ROCm][CI] Fix engine core client tests for ROCm spawn multiprocessing (#32061)
[Doc] Update installation from source command (#32239)
[BugFix]Fix eagle draft_model_config and add tests (#31753)
[ROCm][CI] Fix HuggingFace flash_attention_2 accuracy issue in Isaac vision encoder (#32233)
[ROCm][Bugfix] Fix Mamba batched decode producing incorrect output (#32099)
[Perf] Optimize requests abort (#32211)
Fix various typos found in `docs` (#32212)
[Frontend] Add `reasoning_effort` to `OpenAIServing._preprocess_chat()` (#31956)
[Misc] improve warning/assert messages (#32226)
[BugFix] Fix engine crash caused by chat tools + response_format (#32127)
[Misc] Allow enabling NCCL for DP sync when async scheduling (#32197)
[Model] Handle `trust_remote_code` for transformers backend (#32194)
[responsesAPI] add unit test for optional function tool call id (#32036)
[ROCm][CI] Handle pytest status code 5 when a shard isn't allocated any tests  (#32040)
[Kernel][MoE] fix computation order of MoE weight multiplication and improve flow (#31962)
[Model Runner V2] Add support for M-RoPE (#32143)
[Model Runner V2] Minor refactor for logit_bias (#32209)
[BUGFIX] Add missed remaping of the names of fp8 kv-scale (#32199)
[NIXL][Bugfix] Failure logging overhaul + early metadata free on failure (#32031)
[Model Runner V2] Support logit_bias, allowed_token_ids, min_tokens (#32163)
[Misc][BE] Type coverage for vllm/compilation [3/3] (#31748)
[Misc] Change log level for batch queue log (#32192)
[BugFix] scheduler: Fix ordering preserving of skipped requests (#32173)
[Misc] Set default torch num threads for input processing (#31879)
[Refactor] EPLB rebalance algo to NumPy (#30697)
[BugFix] fix FusedMoE.make_expert_params_mapping in EXAONE-MoE (#32196)
[3/N][Attention] Move AttentionMetadata-related code from utils.py to backend.py (#32054)
[Benchmark] Share data between SLA runs (#32184)
[Misc][PD] Fix `get_attn_backend` usage in transfer connectors (#31988)
[Bugfix] Fix stale SSM state for new Mamba requests scheduled as decode (#32118)
[Model] Standardize pooling heads (#32148)
[FIX] Add NO_MUL activation support for modular kernel path (#31528)
[MODEL] New model support for kakaocorp/kanana-1.5-v-3b-instruct (#29384)
Add K-EXAONE-236B-A23B (#31621)
doc: Update model references in supported_models.md (#32188)""".splitlines()

# Time and author of each of those rows, verbatim.
SEED_WHO = """\
2026-01-13 23:50:34 | Martin Hickey
2026-01-13 23:37:34 | Chauncey
2026-01-13 23:10:20 | Cyrus Leung
2026-01-13 21:38:52 | Matthew Bonanni
2026-01-13 21:01:39 | Chauncey
2026-01-13 20:56:01 | Mickaël Seznec
2026-01-13 20:51:57 | Nicolò Lucchesi
2026-01-13 18:45:42 | Cyrus Leung
2026-01-13 17:21:23 | Cyrus Leung
2026-01-13 17:04:29 | YunzhuLu
2026-01-13 15:14:30 | Andreas Karatzas
2026-01-13 15:10:27 | Roy Wang
2026-01-13 15:09:36 | Xingyu Liu
2026-01-13 14:33:59 | Andreas Karatzas
2026-01-13 13:46:53 | Andreas Karatzas
2026-01-13 12:11:37 | Wentao Ye
2026-01-13 11:41:47 | Andrew Bennett
2026-01-13 11:21:49 | Sanghoon Yoon
2026-01-13 11:11:23 | cjackal
2026-01-13 10:33:14 | Nick Hill
2026-01-13 10:03:08 | Nick Hill
2026-01-13 09:30:12 | Cyrus Leung
2026-01-13 08:14:54 | Andrew Xia
2026-01-13 06:35:49 | Divakar Verma
2026-01-13 06:17:30 | xuebwang-amd
2026-01-13 05:37:43 | Woosuk Kwon
2026-01-13 05:08:30 | Woosuk Kwon
2026-01-13 04:42:06 | Vadim Gimpelson
2026-01-13 04:38:49 | Nicolò Lucchesi
2026-01-13 03:31:10 | Woosuk Kwon
2026-01-13 03:24:38 | Lucas Kabela
2026-01-13 02:59:31 | Nicolò Lucchesi
2026-01-13 02:39:38 | Or Ozeri
2026-01-13 02:28:16 | Roger Wang
2026-01-13 02:13:23 | Ilya Markov
2026-01-13 02:00:45 | Kyungmin Lee
2026-01-13 01:13:56 | Matthew Bonanni
2026-01-13 01:12:22 | Cyrus Leung
2026-01-13 01:10:05 | Nicolò Lucchesi
2026-01-13 01:02:38 | Asaf Joseph Gardin
2026-01-13 01:01:49 | Cyrus Leung
2026-01-13 00:55:49 | danielafrimi
2026-01-13 00:39:02 | Jaehyun An
2026-01-13 00:30:50 | Kyungmin Lee
2026-01-13 00:15:28 | Andy Zhang"""

# The seed's table of contents cuts long titles like this (a few, verbatim).
SEED_TOC = {
    "[Refactor] [6/N] to simplify the vLLM openai chat_completion serving architecture (#32240)": (
        "[Refactor] [6/N] to simplify the vLLM openai chat_complet..."
    ),
    "[Docs] Nixl Usage recommend `fail` kv_load_failure_policy (#32198)": (
        "[Docs] Nixl Usage recommend `fail` kv_load_failure_policy..."
    ),
    "[Misc][BE] Type coverage for vllm/compilation [3/3] (#31748)": (
        "[Misc][BE] Type coverage for vllm/compilation [3/3] (#31748)"
    ),
    "[ROCm][CI] Handle pytest status code 5 when a shard isn't allocated any tests  (#32040)": (
        "[ROCm][CI] Handle pytest status code 5 when a shard isn't..."
    ),
    "doc: Update model references in supported_models.md (#32188)": (
        "doc: Update model references in supported_models.md (#32188)"
    ),
}

HOSTILE = [
    "| a | b |",
    "# heading",
    "### closing hashes ###",
    "Fix C# #",
    "<script>alert(1)</script>",
    "[x](javascript:alert(1))",
    "![img](http://e.com/x.png)",
    "[ref]: http://evil.example",
    "unbalanced `backtick",
    "```fence",
    "``double`` and `single` and ```triple",
    "` padded code `",
    "---",
    "===",
    "> quote",
    "- item",
    "1. item",
    "*em* **strong** _under_ __dunder__ snake_case_name",
    "a\\b\\",
    "&amp; &#35; &copy; & AT&T",
    "cr\rlf\r\nnul\x00bell\x07esc\x1b[31m tab\tdel\x7f nel\x85 ls\u2028",
    "~~strike~~",
    "<http://auto.link>",
    "`a|b` | c",
    "[unclosed [brackets] ( and ] stray",
    "]( starts with close",
    "\\`not code\\`",
    "ref `]: /evil` def",
]

_PARTS = [
    *"#*_`~[]()<>|!-=+:.\\&;{}^$%@'\"/ ab1中🔴",
    "\t",
    "\n",
    "\r",
    "\x00",
    "\x0b",
    "\x1b",
    "\x7f",
    "\x85",
    "\u2028",
    "\u00a0",
    "\u3000",
    "\u200d",
    "\u0301",
    "&amp;",
    "&#x23;",
    "javascript:",
    "http://x.y",
    "[x](y)",
    "](",
    "]:",
    "`]:",
    "![",
]
md_chars = st.lists(st.sampled_from(_PARTS), max_size=40).map("".join)
any_text = md_chars | st.text(max_size=40)

_LINES = [
    "# h",
    "## h ##",
    "```",
    "```py",
    "~~~",
    "````",
    "---",
    "***",
    "___",
    "===",
    "-",
    "- item",
    "* item",
    "+ item",
    "1. item",
    "2) item",
    "- # nested heading",
    "- > quote",
    "- ```",
    "- ---",
    "> quote",
    "| a | b |",
    "|---|---|",
    ":--",
    "a \\| b",
    "<div>",
    "<!-- c -->",
    "[x]: /url",
    "    indented code",
    "\tindented",
    "text",
    "`code`",
    "`",
    "**",
    "",
    "   ",
    "\\",
    "Setext",
    "line \\",
]
md_lines = st.lists(st.sampled_from(_LINES) | md_chars, max_size=12).map("\n".join)
free_text = md_lines | any_text

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _cell(text: str) -> str:
    doc = mdcheck.parse(f"| h |\n|---|\n| {escape_text(text, 'table')} |\n")
    assert len(doc.tables) == 1
    assert len(doc.tables[0].rows) == 1 and len(doc.tables[0].rows[0]) == 1
    return doc.tables[0].rows[0][0]


def _heading(text: str) -> str:
    doc = mdcheck.parse(f"### {escape_text(text, 'heading')}\n")
    assert [h.level for h in doc.headings] == [3]
    return doc.headings[0].text


def _link_text(text: str) -> str:
    doc = mdcheck.parse(f"- [{escape_text(text, 'link')}](#target)\n")
    assert [link.href for link in doc.links] == ["#target"]
    return doc.links[0].text


# ---- commit titles: the seed stays byte-identical -------------------------------------


def test_seed_has_45_titles() -> None:
    assert len(SEED_TITLES) == 45


@pytest.mark.parametrize("title", SEED_TITLES)
def test_seed_titles_are_left_exactly_as_they_are(title: str) -> None:
    assert escape_text(title, "table") == title
    assert escape_text(title, "heading") == title
    assert _cell(title) == title
    assert _heading(title) == title


@pytest.mark.parametrize("title", SEED_TITLES)
def test_seed_titles_render_back_in_link_text(title: str) -> None:
    short = shorten_title(title)
    assert _link_text(short) == short


@pytest.mark.parametrize(("title", "expected"), SEED_TOC.items())
def test_toc_titles_are_cut_like_the_seed(title: str, expected: str) -> None:
    assert shorten_title(title) == expected


def test_cut_inside_a_code_span_escapes_the_lone_backtick() -> None:
    short = shorten_title(
        "[Frontend] Add `reasoning_effort` to `OpenAIServing._preprocess_chat()` (#31956)"
    )
    assert short == "[Frontend] Add `reasoning_effort` to `OpenAIServing._prep..."
    escaped = escape_text(short, "link")
    assert "`reasoning_effort`" in escaped and "\\`OpenAIServing" in escaped
    assert _link_text(short) == short


# ---- commit titles: hostile text renders back to itself -------------------------------


@pytest.mark.parametrize("title", HOSTILE)
def test_hostile_titles_render_as_their_own_text(title: str) -> None:
    expected = clean_line(title)
    assert _cell(expected) == expected
    assert _heading(expected) == expected
    assert _link_text(expected) == expected


def test_specific_escapes() -> None:
    assert escape_text("a | b") == "a \\| b"
    assert escape_text("`a|b`", "table") == "`a\\|b`"
    assert escape_text("`a|b`", "heading") == "`a|b`"
    assert escape_text("<b>") == "\\<b>"
    assert escape_text("[x](y)") == "[x\\](y)"
    assert escape_text("snake_case _x_") == "snake_case \\_x\\_"
    assert escape_text("fix #") == "fix \\#"
    assert escape_text("a [b", "link") == "a \\[b"
    assert escape_text("a [b", "table") == "a [b"


@SETTINGS
@given(any_text)
def test_escaped_text_renders_back_to_itself(text: str) -> None:
    expected = clean_line(text)
    assert _cell(expected) == expected
    assert _heading(expected) == expected
    assert _link_text(expected) == expected


@SETTINGS
@given(any_text)
def test_shortened_text_renders_back_in_a_link(text: str) -> None:
    short = shorten_title(text * 3)
    assert len(short) <= 60
    assert _link_text(short) == short


# ---- analyser text: never changes the document's structure ----------------------------


def _embedded(text: str) -> mdcheck.MdDoc:
    """``text`` sanitised as a block and as a list item, inside template-like lines."""
    block, item = sanitize_block(text), sanitize_inline(text)
    return mdcheck.parse(f"**A**：\n\n{block}\n\n**B**\n\n- {item}\n\n---\n")


def _assert_structure_kept(doc: mdcheck.MdDoc) -> None:
    assert doc.headings == []
    assert doc.tables == []
    assert doc.html == []
    assert doc.anchors == []
    assert doc.links == []
    assert doc.blocks["hr"] == 1  # only the template's
    assert doc.blocks["blockquote"] == 0
    assert doc.blocks["code_block"] == 0
    assert doc.blocks["html_block"] == 0
    last = doc.tokens[-1]
    assert last.type == "hr" and last.level == 0
    paragraphs = [t for t in doc.tokens if t.type == "inline" and t.content == "**B**"]
    assert len(paragraphs) == 1 and paragraphs[0].level == 1  # top-level paragraph


@SETTINGS
@given(free_text)
def test_sanitized_block_keeps_the_structure(text: str) -> None:
    _assert_structure_kept(_embedded(text))


@SETTINGS
@given(free_text)
def test_sanitized_inline_is_one_line_and_safe_in_cells(text: str) -> None:
    line = sanitize_inline(text, table=True)
    assert "\n" not in line and "\r" not in line
    doc = mdcheck.parse(f"| h | i |\n|---|---|\n| {line} | x |\n")
    assert len(doc.tables) == 1
    assert doc.tables[0].rows[0][1] == "x"
    assert doc.headings == [] and doc.html == []


@pytest.mark.parametrize(
    "text",
    [
        "# Heading\n## Sub\nSetext\n===\nthen\n---",
        "```python\n# a comment, not a heading\nprint(1)",
        "- ok\n- # nested heading\n- > quote\n- ```",
        "<script>alert(1)</script>\n<div>\nblock</div>",
        "[x](javascript:alert(1)) and [ref]\n[ref]: http://evil",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "a \\| b\n:--",
        "    indented\n\n\tcode",
        "> quoted\n>> more",
        "text\r\nwith\rcarriage\x00returns\x1b[0m",
    ],
)
def test_hostile_free_text(text: str) -> None:
    _assert_structure_kept(_embedded(text))


def test_block_keeps_lists_paragraphs_and_closes_fences() -> None:
    text = "Intro **bold** `code`.\n\n1. first\n   - nested\n\n```py\nx = 1"
    assert (
        sanitize_block(text) == "Intro **bold** `code`.\n\n1. first\n- nested\n\n```py\nx = 1\n```"
    )
    doc = mdcheck.parse(sanitize_block(text))
    assert doc.blocks["fence"] == 1 and doc.blocks["ordered_list"] == 1


def test_inline_keeps_emphasis_and_code() -> None:
    assert sanitize_inline("**bold** and `x|y`") == "**bold** and `x|y`"
    assert sanitize_inline("**bold** and `x|y`", table=True) == "**bold** and `x\\|y`"
    assert sanitize_inline("# not\na heading") == "\\# not a heading"
    assert sanitize_inline("keep [Bugfix] and [x] (y)") == "keep [Bugfix] and [x] (y)"
    assert sanitize_inline("[x](y) [a][b] [c]: d") == "\\[x\\](y) [a\\][b] [c\\]: d"
    assert sanitize_inline("[ ] not a task box") == "\\[ ] not a task box"
    # a trailing backslash is doubled so it can never escape what the template puts next
    assert sanitize_inline("ends with \\") == "ends with \\\\"


# ---- small helpers ----------------------------------------------------------------------


def test_code_span() -> None:
    assert code_span("fefce49") == "`fefce49`"
    assert code_span("a`b") == "``a`b``"
    assert code_span("`a") == "`` `a ``"
    doc = mdcheck.parse(code_span("x``y`z") + "\n")
    inline = next(t for t in doc.tokens if t.type == "inline")
    assert [(c.type, c.content) for c in inline.children or []] == [("code_inline", "x``y`z")]
