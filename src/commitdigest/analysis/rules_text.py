"""Sentence templates (zh/en) for the rule-based analyser.

An analysis holds text, not markup: text that comes from a commit (title, body) is embedded
as it is, one line, control characters removed (:func:`commitdigest.text.strip_controls`);
names of paths and identifiers as inline code spans (:func:`code_span`), the one piece of
Markdown an analysis may hold. Escaping for a format happens in its renderer (``render/``,
``deliver/``), once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from string import Formatter

from commitdigest.i18n import ANALYSIS_STRINGS, RULE_TEXT, pick
from commitdigest.text import has_cjk, strip_controls


def code_span(text: str) -> str:
    """``text`` as an inline code span; backticks are dropped so it cannot break out."""
    clean = strip_controls(text).replace("`", "").strip()
    return f"`{clean}`" if clean else ""


def fmt_int(n: int) -> str:
    return f"{n:,}"


def fmt_lines(additions: int | None, deletions: int | None) -> str:
    """``+120/−30`` (a real minus sign), or ``""`` when unknown."""
    if additions is None or deletions is None:
        return ""
    return f"+{fmt_int(additions)}/−{fmt_int(deletions)}"


def n_files(n: int, lang: str) -> str:
    """``3 个文件`` / ``1 file`` / ``3 files``."""
    table = pick(ANALYSIS_STRINGS, lang)
    return table["n_files_one" if n == 1 else "n_files"].format(n=fmt_int(n))


def join_list(items: list[str], lang: str) -> str:
    return pick(ANALYSIS_STRINGS, lang)["list_sep"].join(items)


def tr(lang: str, key: str, **kwargs: str) -> str:
    """The ``key`` template in ``lang`` (``zh`` unless ``en``), formatted with ``kwargs``.

    In Chinese a value that starts or ends with a Latin letter, a digit or a code span is set
    off by a space from the Chinese text around it (``改动涉及 CI 与构建配置``,
    ```x` 被删除``); the value itself is left as it is."""
    table = pick(RULE_TEXT, lang, "zh")
    if lang == "en":
        return plural(table[key], kwargs).format(**kwargs)
    return spaced_format(table[key], kwargs)


_COUNTED = re.compile(r"\{(\w+)\}([^{]*?)\(s\)")
_COUNTED_LINES = re.compile(r"\{(\w+)\} lines\b")


def plural(template: str, values: Mapping[str, str]) -> str:
    """An English template's ``(s)`` settled by the count before it (``{n} breaking
    change(s)``: ``1 breaking change``, ``16 breaking changes``; ``{lines} lines``: ``1
    line``). Only the template's words change, never a value (a commit's own words)."""

    def one(m: re.Match[str]) -> bool:
        return str(values.get(m.group(1), "")).strip() == "1"

    def settle(m: re.Match[str]) -> str:
        return "{" + m.group(1) + "}" + m.group(2) + ("" if one(m) else "s")

    if "(s)" not in template and " lines" not in template:
        return template  # (most templates: nothing to settle)
    template = _COUNTED.sub(settle, template)
    return _COUNTED_LINES.sub(lambda m: m.group(0)[:-1] if one(m) else m.group(0), template)


_LATIN_EDGE = re.compile(r"[A-Za-z0-9`]")


@lru_cache(maxsize=512)  # the templates of RULE_TEXT, each parsed once
def _fields(template: str) -> tuple[tuple[str, str | None], ...]:
    return tuple((literal, field) for literal, field, _, _ in Formatter().parse(template))


def spaced_format(template: str, values: dict[str, str]) -> str:
    """``template.format(**values)``, a space between Chinese template text and a value's
    Latin edge."""
    out: list[str] = []
    for literal, field in _fields(template):
        if literal:
            if out and _LATIN_EDGE.match(out[-1][-1:]) and has_cjk(literal[0]):
                literal = " " + literal
            out.append(literal)
        if field is None:
            continue
        value = str(values[field])
        if value and out and has_cjk(out[-1][-1:]) and _LATIN_EDGE.match(value[0]):
            value = " " + value
        out.append(value)
    return "".join(out)


def join_list_and(items: list[str], lang: str) -> str:
    """``a``, ``a and b``, ``a, b and c`` / ``a``, ``a和b``, ``a、b和c``."""
    if len(items) < 2:
        return "".join(items)
    table = pick(ANALYSIS_STRINGS, lang)
    last = items[-1]
    joiner = table["list_and"]
    if lang != "en" and last[:1].isascii() and last[:1].isalnum():
        joiner += " "  # "和 CI 与构建配置", as Chinese text spaces a Latin word
    return table["list_sep"].join(items[:-1]) + joiner + last


_OPENS_WORD = re.compile(r"^[a-z]+(?:[-'\u2019][a-z]+)*(?=[\s,;]|$)")


def as_sentence(text: str) -> str:
    """``text`` (a title) as an English sentence: a plain first word capitalised
    (``remove FlashComm v1`` -> ``Remove FlashComm v1.``; ``caddyhttp: …`` and
    ``get_x …`` stay), a full stop unless it ends with one."""
    text = text.strip()
    if _OPENS_WORD.match(text):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…", "。", "！", "？")) else text + "."


def join_sentences(sentences: list[str], lang: str) -> str:
    """Sentences as one text: spaced in English, run together in Chinese."""
    parts = [s for s in sentences if s]
    return (" " if lang == "en" else "").join(parts)


def code_list(items: list[str], lang: str, limit: int = 4) -> str:
    """Up to ``limit`` items as code spans, then "and N more"."""
    spans = [s for s in (code_span(i) for i in items[:limit]) if s]
    text = join_list(spans, lang)
    if len(items) > limit:
        sep = pick(ANALYSIS_STRINGS, lang)["more_sep"]
        text += sep + tr(lang, "more", n=str(len(items) - limit))
    return text


# ---- the body's first paragraph ------------------------------------------------------------

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_TRAILER_KEYS = frozenset(
    {"fixes", "closes", "resolves", "refs", "cc", "link", "bug", "issue", "fix", "see-also"}
)
_TRAILER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*):\s*\S")
_SKIP_LINE_RE = re.compile(
    r"#{1,6}(?!\d)"  # headings ("## Purpose"), not "#20418 moved …"
    r"|</?[A-Za-z][^>]*>\s*$"  # HTML tag lines (<details>, </summary>)
    r"|[-*+]\s+\[[ xX]\]"  # checklists
    r"|(?:-{3,}|\*{3,}|_{3,}|={3,})$"  # rules
    r"|\|"  # tables
    r"|\*\*[^*]+\*\*:?$"  # bold-only lines (template labels)
    # references only ("Fixes #11588", "Related RFC issue: Refs #11723", a lone URL)
    r"|(?i:(?:[\w ]{0,30}:\s*)?(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see|part of)"
    r"\s*:?\s*)?(?:[\w.-]+/[\w.-]+)?(?:#\d+|https?://\S+)"
    r"(?:\s*(?:,|and)?\s*(?:[\w.-]+/[\w.-]+)?(?:#\d+|https?://\S+))*\s*\.?$)"
)
_LEADING_BULLET = re.compile(r"^(?:[-*+]\s+|\d+[.)]\s+|\d+、)")
# a sentence ends after . ! ? and a space (not after "e.g." "i.e." "etc." "vs." "cf.") or
# after a Chinese stop
_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bcf\.)\s|(?<=[。！？])",
    re.IGNORECASE,
)


def strip_html_comments(text: str) -> str:
    """``text`` without HTML comments (a pull request template's hidden guidance)."""
    return _HTML_COMMENT.sub("\n", text)


def _is_trailer(line: str) -> bool:
    m = _TRAILER_RE.match(line)
    if m is None:
        return False
    return "-" in m.group(1) or m.group(1).lower() in _TRAILER_KEYS


def _is_skipped(line: str) -> bool:
    if _is_trailer(line) or _SKIP_LINE_RE.match(line):
        return True
    # an all-capitals line of some length is template shouting ("PLEASE FILL IN ..."):
    # nothing changes when it is upper-cased (no lower-case letter), and 20 letters or more
    return len(line) >= 20 and line == line.upper() and sum(map(str.isalpha, line)) >= 20


def first_paragraph(body: str) -> str:
    """The first real paragraph of a commit body, one line, not escaped.

    Skips trailers (``Signed-off-by:``), headings (``## Purpose``), HTML comments and tags,
    checklists, tables, rules, code blocks and all-capitals template text.
    """
    lines: list[str] = []
    in_fence = False
    for raw in [*strip_html_comments(body).splitlines(), ""]:  # "": the last one ends
        line = raw.strip()
        fence = line.startswith(("```", "~~~"))
        if fence or in_fence or not line or _is_skipped(line):
            in_fence ^= fence
            if lines:  # a paragraph ends: the first with some words is the one
                text = _LEADING_BULLET.sub("", strip_controls(" ".join(lines)))
                if sum(map(str.isalnum, text)) >= 3:
                    return text
                lines = []
            continue
        lines.append(line)
    return ""


def cut_text(text: str, limit: int = 300) -> str:
    """``text`` cut to about ``limit`` characters, at a sentence end where one is near."""
    if len(text) <= limit:
        return text
    head = text[: limit + 1]
    ends = [m.start() for m in _SENTENCE_END.finditer(head) if m.start() >= limit * 0.4]
    if ends:
        return head[: ends[-1]].rstrip()
    space = head.rfind(" ", int(limit * 0.6))
    return (head[:space] if space > 0 else text[:limit]).rstrip(" ,;:，；：") + "…"
