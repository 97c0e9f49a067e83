"""Parse a Markdown report the way a renderer would, and expose its structure for tests.

Uses markdown-it-py's CommonMark preset plus GFM tables. :func:`parse` returns a
:class:`MdDoc` with the document's headings, links, explicit ``<a id="…"></a>`` anchors,
tables, other raw HTML and top-level block counts.

Inline content is turned back into text by :func:`plain`: text as rendered, code spans
re-wrapped in their backticks, and every other inline construct (emphasis, link, image,
HTML …) shown as ``⟨type⟩`` — so a title that rendered back to exactly itself formed no
Markdown of its own.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

_MD = MarkdownIt("commonmark").enable("table")
_ANCHOR = re.compile(r'<a id="([^"<>]*)"></a>')
_ANCHOR_OPEN = re.compile(r'<a id="([^"<>]*)">')


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int  # 0-based source line


@dataclass(frozen=True)
class Link:
    text: str
    href: str
    line: int


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list[str]]
    line: int


@dataclass
class MdDoc:
    tokens: list[Token]
    headings: list[Heading] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    html: list[str] = field(default_factory=list)  # raw HTML that is not an anchor
    blocks: Counter[str] = field(default_factory=Counter)  # "hr", "blockquote", "fence" …

    def internal_links(self) -> list[Link]:
        return [link for link in self.links if link.href.startswith("#")]

    def unresolved_links(self) -> list[Link]:
        """Internal links whose target is no anchor of the document."""
        known = set(self.anchors)
        return [link for link in self.internal_links() if link.href[1:] not in known]

    def duplicate_anchors(self) -> list[str]:
        return sorted(a for a, n in Counter(self.anchors).items() if n > 1)

    def heading_outline(self) -> list[tuple[int, str]]:
        return [(h.level, h.text) for h in self.headings]


def plain(token: Token) -> str:
    """The text of an inline token; any construct but text/code/breaks shows as ⟨type⟩."""
    out: list[str] = []
    for child in token.children or []:
        if child.type == "text":
            out.append(child.content)
        elif child.type == "code_inline":
            out.append(child.markup + child.content + child.markup)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
        else:
            out.append(f"⟨{child.type}⟩")
    return "".join(out)


def parse(text: str) -> MdDoc:
    tokens = _MD.parse(text)
    doc = MdDoc(tokens=tokens)
    row: list[str] | None = None
    table: Table | None = None
    in_head = False
    for i, tok in enumerate(tokens):
        line = tok.map[0] if tok.map else -1
        if tok.type.endswith("_open") and tok.level == 0:
            doc.blocks[tok.type.removesuffix("_open")] += 1
        elif tok.type in ("hr", "fence", "code_block", "html_block") and tok.level == 0:
            doc.blocks[tok.type] += 1
        if tok.type == "heading_open":
            doc.headings.append(Heading(int(tok.tag[1]), plain(tokens[i + 1]), line))
        elif tok.type == "table_open":
            table = Table(header=[], rows=[], line=line)
            doc.tables.append(table)
        elif tok.type == "thead_open":
            in_head = True
        elif tok.type == "thead_close":
            in_head = False
        elif tok.type == "tr_open":
            row = []
        elif tok.type == "tr_close" and table is not None and row is not None:
            if in_head:
                table.header.extend(row)
            else:
                table.rows.append(row)
            row = None
        elif tok.type == "inline" and row is not None:
            row.append(plain(tok))
        if tok.type == "html_block":
            _html(doc, tok.content)
        if tok.type == "inline":
            _inline(doc, tok, line)
    return doc


def _html(doc: MdDoc, content: str) -> None:
    rest = _ANCHOR.sub("", content)
    doc.anchors.extend(_ANCHOR.findall(content))
    if rest.strip():
        doc.html.append(rest.strip())


def _inline(doc: MdDoc, tok: Token, line: int) -> None:
    children = tok.children or []
    skip = False
    for j, child in enumerate(children):
        if skip:
            skip = False
            continue
        if child.type == "html_inline":
            opened = _ANCHOR_OPEN.fullmatch(child.content)
            closed = j + 1 < len(children) and children[j + 1].content == "</a>"
            if opened and closed:
                doc.anchors.append(opened.group(1))
                skip = True
            else:
                doc.html.append(child.content)
        elif child.type == "link_open":
            depth, k, parts = 1, j + 1, []
            while k < len(children) and depth:
                c = children[k]
                depth += {"link_open": 1, "link_close": -1}.get(c.type, 0)
                if depth:
                    parts.append(c)
                k += 1
            holder = Token("inline", "", 0, children=parts)
            doc.links.append(Link(plain(holder), str(child.attrs.get("href", "")), line))
