"""The rule analyser writes Chinese as Chinese and English as English (issue 25), checked on
every commit of the labelled set (492 real commits of nine projects).

Chinese: the analyser's own sentences are Chinese; the commit's words appear only quoted,
in 「…」 or as `code`; no Latin word ends a Chinese sentence; no summary is empty or opens
with punctuation. English: no Chinese, and the summary is sentences.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.models import Analysis

ROOT = Path(__file__).resolve().parent.parent
RULES = RuleAnalyser()
# our own words that stay Latin in Chinese text: an acronym and Python's exception names
LATIN_WORDS = frozenset({"CI", "GitHub", "ImportError", "AttributeError", "ModuleNotFoundError"})
QUOTED = re.compile(r"`[^`]*`|「[^」]*」|“[^”]*”")
CJK = re.compile(r"[\u4e00-\u9fff]")


@cache
def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_importance", ROOT / "bench/importance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@cache
def _analyses(lang: str) -> list[tuple[str, Analysis]]:
    cases = _bench().load_cases()
    return [
        (c.commit.title, RULES.analyse(c.commit, lang=lang, radar=list(c.radar)))
        for c in cases.values()
    ]


def free_text(a: Analysis) -> list[str]:
    out = [a.summary, *a.impact, *a.recommendations, *a.notes]
    out += [i.text for i in a.insights]
    out += [t for r in a.risks for t in (r.risk, r.effect, r.mitigation)]
    return out


def glued_latin(text: str) -> list[str]:
    """Latin words of a Chinese text that are neither quoted nor our own."""
    bare = QUOTED.sub("", text)
    return [w for w in re.findall(r"[A-Za-z][\w.+/-]*", bare) if w not in LATIN_WORDS]


def test_the_checks_catch_what_the_issue_saw() -> None:
    seen = "Replace PA KV cache operators。- Replace …"
    assert glued_latin(seen) == ["Replace", "PA", "KV", "cache", "operators", "Replace"]
    assert glued_latin("提交说明写道：「Replace PA KV cache operators」。改动涉及 `a.py`。") == []


@pytest.mark.parametrize("lang", ["zh"])
def test_chinese_text_quotes_every_commit_word(lang: str) -> None:
    bad: list[tuple[str, str, object]] = []
    for title, a in _analyses(lang):
        for text in free_text(a):
            if words := glued_latin(text):
                bad.append((title, text, words))
            if re.search(r"[A-Za-z0-9_]。", QUOTED.sub("", text)):
                bad.append((title, text, "。 after a Latin word"))
    assert not bad, bad[:5]


def test_chinese_summaries_are_whole_sentences_with_a_subject() -> None:
    for title, a in _analyses("zh"):
        s = a.summary
        assert s and CJK.match(s), (title, s)
        assert s.startswith(("这是一次", "这次提交")), (title, s)
        assert s.endswith("。"), (title, s)
        assert "。。" not in s and "。，" not in s, (title, s)


def test_english_text_is_english_and_the_summary_is_sentences() -> None:
    for title, a in _analyses("en"):
        for text in free_text(a):
            assert not CJK.search(QUOTED.sub("", text)), (title, text)
        s = a.summary
        assert s.endswith((".", "!", "?", "…")), (title, s)
        first = s[0]
        assert not first.islower() or re.match(r"[a-z][\w.-]*[/:_(]", s), (title, s)
        assert not re.search(r"[.!?]\. It changes|\s\.\s", s), (title, s)  # our joins
