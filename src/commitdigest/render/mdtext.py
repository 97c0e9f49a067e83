"""Text that goes into the Markdown report: escaping and sanitising (the plain-text helpers
that every output shares — clean a line, shorten a title, safe URLs, slugs — are
:mod:`commitdigest.text`'s).

Two kinds of text reach the report, and neither may change the document's structure:

* **commit text** (titles, author names, repository names) is *plain text*:
  :func:`escape_text` makes it render back to exactly itself (after :func:`clean_line`),
  escaping only what would otherwise be Markdown, so ordinary titles stay byte-identical
  (``[Refactor] Remove `MultiModalProfiler` (#32254)`` is left as it is: balanced code
  spans are kept, and ``[x]`` without a following ``(`` is no link).
* **analyser text** (summaries, lists, insights, risks, notes) is *restricted Markdown*:
  :func:`sanitize_inline` keeps inline formatting (emphasis, code spans) on one line;
  :func:`sanitize_block` also keeps paragraphs, one level of lists and fenced code
  (closing an unclosed fence). Neither lets through headings, raw HTML, links or
  reference definitions, tables, block quotes, setext underlines or thematic breaks
  (``[x]`` stays as it is: only a ``]`` before ``(``, ``[`` or ``:`` is escaped).

The parser these rules are written against is CommonMark + GFM tables (markdown-it-py's
``commonmark`` preset with ``table``), which is what GitHub and most renderers follow.
"""

from __future__ import annotations

import re
from typing import Literal

from commitdigest.text import clean_line, clean_lines

Context = Literal["table", "heading", "link"]

ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITY_LIKE = re.compile(r"&#?[A-Za-z0-9]+;")


# ---- code spans -------------------------------------------------------------------------


def _code_roundtrips(content: str) -> bool:
    """A code span shows its content unchanged unless the content starts *and* ends with
    a space (CommonMark then strips one from each end)."""
    return not (content.startswith(" ") and content.endswith(" ") and content.strip(" "))


def _tokens(
    text: str, *, honour_escapes: bool, strict: bool, refuse: str = ""
) -> list[tuple[str, str]]:
    """Split ``text`` into ("text", s) / ("esc", "\\x") / ("code", "`…`") pieces.

    Code spans follow CommonMark: a backtick run opens a span closed by the next run of
    exactly the same length. ``strict`` also refuses spans whose content would not
    render back unchanged, and spans holding a character of ``refuse``. Unpaired
    backticks stay in "text" pieces (to be escaped).
    """
    out: list[tuple[str, str]] = []
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if honour_escapes and c == "\\" and i + 1 < n and text[i + 1] in ASCII_PUNCT:
            if buf:
                out.append(("text", "".join(buf)))
                buf = []
            out.append(("esc", text[i : i + 2]))
            i += 2
            continue
        if c != "`":
            buf.append(c)
            i += 1
            continue
        j = i
        while j < n and text[j] == "`":
            j += 1
        run = j - i
        k, close = j, -1
        while k < n:
            if text[k] != "`":
                k += 1
                continue
            m = k
            while m < n and text[m] == "`":
                m += 1
            if m - k == run:
                close = k
                break
            k = m
        content = text[j:close]
        if close >= 0 and (
            not strict or (_code_roundtrips(content) and not any(c in content for c in refuse))
        ):
            if buf:
                out.append(("text", "".join(buf)))
                buf = []
            out.append(("code", text[i : close + run]))
            i = close + run
        else:
            buf.append(text[i:j])
            i = j
    if buf:
        out.append(("text", "".join(buf)))
    return out


def code_span(text: str, *, table: bool = False) -> str:
    """``text`` (one line) as an inline code span, whatever backticks it holds."""
    text = clean_line(text)
    if not text:
        return ""
    longest = max((len(m) for m in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    if table:
        text = text.replace("|", "\\|")
    return f"{fence}{pad}{text}{pad}{fence}"


# ---- plain text (commit titles, names) ---------------------------------------------------


def escape_text(text: str, context: Context = "table") -> str:
    """Escape plain ``text`` so that it renders back to ``clean_line(text)``.

    ``context`` is where it goes: a GFM table cell, an ATX heading, or the text of a link.
    Balanced code spans are kept as they are; elsewhere only what could start Markdown is
    escaped: ``\\ * ` < ~`` (and ``|`` in a table cell), ``_`` unless inside a word, ``]``
    before ``(``, ``&`` before an entity, a trailing ``#`` run; in link text also
    unbalanced brackets.
    """
    text = clean_line(text)
    pieces: list[str] = []  # output, one entry per source position or code span
    brackets: list[tuple[int, str]] = []  # (index into pieces, "[" or "]") left unescaped
    pos = 0
    trailing_hashes = len(text) - len(text.rstrip("#"))
    # In link text a "]" inside a code span would still end a link reference definition's
    # label ("- [`]: x`](#a)" defines "`"), so there such spans are escaped as text.
    refuse = "[]" if context == "link" else ""
    for kind, chunk in _tokens(text, honour_escapes=False, strict=True, refuse=refuse):
        if kind == "code":
            pieces.append(chunk.replace("|", "\\|") if context == "table" else chunk)
            pos += len(chunk)
            continue
        for c in chunk:
            prev = text[pos - 1] if pos > 0 else ""
            nxt = text[pos + 1] if pos + 1 < len(text) else ""
            if c in "\\*`<~" or (c == "|" and context == "table"):
                out = "\\" + c  # a "|" splits a table's cell; one line elsewhere is no table
            elif c == "#" and pos >= len(text) - trailing_hashes:
                out = "\\" + c
            elif c == "_":
                out = c if prev.isalnum() and nxt.isalnum() else "\\_"
            elif c == "]" and nxt == "(":
                out = "\\]"
            elif c == "&" and _ENTITY_LIKE.match(text, pos):
                out = "\\&"
            else:
                out = c
                if c in "[]":
                    brackets.append((len(pieces), c))
            pieces.append(out)
            pos += 1
    if context == "link":
        stack: list[int] = []
        unmatched: list[int] = []
        for index, c in brackets:
            if c == "[":
                stack.append(index)
            elif stack:
                stack.pop()
            else:
                unmatched.append(index)
        for index in [*unmatched, *stack]:
            pieces[index] = "\\" + pieces[index]
    return "".join(pieces)


# ---- restricted Markdown (analyser text) -------------------------------------------------

_LIST_MARKER = re.compile(r"([-+*]|[0-9]{1,9}[.)])(?:[ \t]+|$)")
_HEADING_START = re.compile(r"#{1,6}(?:[ \t]|$)")
_FENCE_OPEN = re.compile(r"(`{3,})[^`]*$|(~{3,}).*$")
_LINKING = ("(", "[", ":")  # after "]": an inline link, a reference, a definition
_INFO_JUNK = re.compile(r"[^A-Za-z0-9_+.#-]")


def _all_punct(line: str) -> bool:
    stripped = line.replace(" ", "")
    return bool(stripped) and all(c in ASCII_PUNCT for c in stripped)


def _escape_inline(line: str, *, table: bool) -> str:
    """Inline restricted Markdown on one line (no leading block syntax handled here)."""
    out: list[str] = []
    tokens = _tokens(line, honour_escapes=True, strict=False)
    for index, (kind, chunk) in enumerate(tokens):
        if kind == "esc":
            out.append(chunk)
        elif kind == "code":
            out.append(chunk.replace("|", "\\|") if table else chunk)
        else:
            escaped = "".join(
                "\\" + c if c in "`<|" or (c == "]" and chunk[i + 1 : i + 2] in _LINKING) else c
                for i, c in enumerate(chunk)
            )
            if index == len(tokens) - 1 and escaped.endswith("\\"):
                escaped += "\\"  # a lone trailing backslash must not escape what follows
            out.append(escaped)
    return "".join(out)


def _escape_line(line: str, *, table: bool, allow_list: bool) -> str:
    """One line at the start of a block: neutralise every block-level construct but, when
    ``allow_list``, one list marker."""
    line = line.lstrip(" ")
    if _all_punct(line):  # thematic breaks, setext underlines, table delimiter rows …
        return "".join("\\" + c if c in ASCII_PUNCT else c for c in line)
    prefix = ""
    marker = _LIST_MARKER.match(line)
    if marker and allow_list:
        prefix = marker.group(1) + " "
        line = line[marker.end() :].lstrip(" ")
        if _all_punct(line):
            return prefix + "".join("\\" + c if c in ASCII_PUNCT else c for c in line)
        marker = _LIST_MARKER.match(line)
    if marker:
        m = marker.group(1)
        lead = "\\" + m if not m[0].isdigit() else m[:-1] + "\\" + m[-1]
        return prefix + lead + _escape_inline(line[len(m) :], table=table)
    if _HEADING_START.match(line) or line.startswith((">", "[")) or _FENCE_OPEN.match(line):
        return prefix + "\\" + line[0] + _escape_inline(line[1:], table=table)
    return prefix + _escape_inline(line, table=table)


def sanitize_inline(text: str, *, table: bool = False) -> str:
    """Analyser text as one line of inline Markdown, safe in a paragraph, list item or
    (with ``table``) a table cell."""
    return _escape_line(re.sub(" {2,}", " ", clean_line(text)), table=table, allow_list=False)


def sanitize_block(text: str) -> str:
    """Analyser text as Markdown blocks that start and end at the left margin: paragraphs,
    single-level lists and fenced code blocks (an unclosed fence is closed)."""
    out: list[str] = []
    fence: tuple[str, int] | None = None
    for raw in clean_lines(text):
        if fence is not None:
            char, length = fence
            stripped = raw.lstrip(" ")
            run = len(stripped) - len(stripped.lstrip(char))
            if len(raw) - len(stripped) <= 3 and run >= length and not stripped[run:].strip():
                out.append(char * run)
                fence = None
            else:
                out.append(raw)
            continue
        line = raw.lstrip(" ")
        if not line:
            if out and out[-1]:
                out.append("")
            continue
        opener = _FENCE_OPEN.match(line)
        if opener:
            run_text = opener.group(1) or opener.group(2)
            fence = (run_text[0], len(run_text))
            words = line[len(run_text) :].split()
            out.append(run_text + (_INFO_JUNK.sub("", words[0]) if words else ""))
            continue
        out.append(_escape_line(line, table=False, allow_list=True))
    if fence is not None:
        out.append(fence[0] * fence[1])
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)
