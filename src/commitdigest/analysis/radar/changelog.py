"""A changelog read as data: its version sections and their entries, in Markdown
(``## 0.28.0 (28th November, 2024)``, ``## [Unreleased]``, bold pseudo-headings such as
``**Backwards incompatible changes**:``) and reStructuredText (``Version 2.1.0`` over a line
of ``-``, entries ``-   Remove ``soft_unicode``…`` with continuation lines), and the
``changelog`` Sphinx extension's directives (SQLAlchemy, Alembic, Mako: a version is
``.. changelog::`` with ``:version: 2.1.0b3`` and ``:released: June 27, 2026``, an entry is
``.. change::`` with ``:tags: removed, orm`` over its paragraphs; litestar's own extension
names the version on the directive's line, ``.. changelog:: 3.0.0`` over ``:date:``, and an
entry ``.. change:: Title`` with ``:type:`` and a ``:breaking:`` flag). A towncrier news fragment
(``changelog/14434.deprecation.rst``, ``news/1234.removal.rst``, SQLAlchemy's
``unreleased_21/13350.rst``) is one entry of its type, or the directives it holds.

What an entry announces comes from the heading it sits under (breaking / removed /
deprecated, in English or Chinese) or, under any other heading, from its own words
("has now been removed", "no longer", "dropped support", "breaking", a leading "Remove")."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from commitdigest.analysis.classify import is_changelog
from commitdigest.analysis.radar.kept import ByText
from commitdigest.analysis.radar.pyapi import indent_of
from commitdigest.analysis.radar.reads import fragment_heading
from commitdigest.analysis.tags import WARNINGS_HANDLED
from commitdigest.facts import ApiChangeType

__all__ = [
    "Edit",
    "Entry",
    "Section",
    "announces",
    "both",
    "change_entry",
    "code_spans",
    "fragment_entries",
    "is_changelog",
    "normalise_version",
    "numbered_as_git",
    "plain_entry",
    "sections",
    "shown_text",
    "tags_heading",
    "without_past_deprecation",
]

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BOLD_HEADING = re.compile(r"^\s*(?:\*\*|__)([^*_].*?)(?:\*\*|__)\s*:?\s*$")
_RST_UNDERLINE = re.compile(r"^([=\-~^*+#\"'`:.])\1{2,}\s*$")
# what a Markdown heading or an rst underline opens with
_HEADING_STARTS = frozenset("#=-~^*+\"'`:.")
_BULLET = re.compile(r"^( *)[-*+]\s+(.*)$")
_DIRECTIVE = ".. changelog::"  # a version of the changelog extension; its next line names it
_VERSION_OPTION = re.compile(r"^\s+:version:\s*(\S.*?)\s*$")
_CHANGE = ".. change::"  # an entry of the changelog extension
_OPTION = re.compile(r"^\s*:([\w-]+):\s*(.*?)\s*$")
_VERSION = re.compile(
    r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)*(?:[-.]?(?:a|b|rc|alpha|beta|post|dev)\.?\d*)?)\b", re.I
)
_UNRELEASED = re.compile(r"unreleased|upcoming|未发布", re.I)

_SECTIONS = (  # heading words -> what its entries announce (None: a break, change from words)
    (re.compile(r"breaking|incompatib|破坏性|不兼容|重大变更", re.I), None),
    (
        re.compile(
            r"^\W*(?:removed|removals?|移除|删除|expired\s+deprecations?"
            r"|(?:features?|apis?)\s+removed\b.*|removal\s+of\s+prior\s+version\s+deprecations\b.*)"
            r"\W*$",
            re.I,
        ),
        ApiChangeType.REMOVED,
    ),  # (Django's "Features removed in 5.1", numpy's and scipy's "Expired deprecations",
    # pandas' "Removal of prior version deprecations/changes")
    (
        re.compile(
            r"^\W*(?:deprecated|deprecations?|弃用|废弃|(?:features?|apis?)\s+deprecated\b.*"
            r"|deprecated\s+features\b.*)\W*$",
            re.I,
        ),
        ApiChangeType.DEPRECATED,
    ),  # (Django's "Features deprecated in 5.1", scipy's "Deprecated features and future
    # changes")
)
_BOTH_HEADING = re.compile(r"^\W*deprecations?\s+(?:and|&)\s+removals?\W*$", re.I)
# under it, what is no removal: pip's "Document that Python versions are supported until
# …", "The --build-dir option has been restored as a no-op", "Revert building …"
_NOT_A_REMOVAL = re.compile(
    r"^\W*(?:document|restor|revert|suppress|fix|clarif|modernis|moderniz)"
    r"|\bhas\s+been\s+restored\b",
    re.I,
)
# a deprecation said to be over, what the entry does now being the break ("… now raises,
# after being deprecated since Trio 0.27.0"; not "was deprecated in favour of `y`", which
# announces one)
_DEPRECATED_BEFORE = re.compile(
    r"\b(?:after|having)\s+(?:being|been)\s+deprecated\b"
    r"|\b(?:previously|formerly|long)[\s-]+deprecated\b",
    re.I,
)


def without_past_deprecation(text: str) -> str:
    """``text`` without the words that say a deprecation is over (:data:`_DEPRECATED_BEFORE`):
    what it names is what changes now, not a deprecation."""
    return _DEPRECATED_BEFORE.sub(" ", text) if "eprecated" in text else text


_BREAK_WORDS = re.compile(
    r"^(?:remove[sd]?|drop(?:ped|s)?|delete[sd]?)\b"
    r"|\b(?:has|have|had)\s+(?:now\s+)?been\s+(?:removed|dropped|deleted)\b"
    r"|\b(?:is|are|was|were)\s+(?:now\s+)?(?:removed|dropped|deleted)\b"
    r"|\bno\s+longer\b"  # what a fix stops doing is the bug: "no longer crashes", click's
    # "no longer silently drop the 256-color index 0", "no longer gets replaced by
    # PermissionError", "no longer triggers a `BytesWarning`" (not "no longer renders raw
    # HTML by default", "no longer closes the transport": what it stops doing may be used);
    # read with code as " x ": "triggers a `BytesWarning`" reads "triggers a x"
    r"(?!\s+(?:crash|hang|fail|raise|error|leak|throw|block|panic|warn|emit|require|need"
    r"|corrupt|lose|loses|lost|overwrite|swallow"
    # what is no longer needed (or necessary, applicable, relevant, useful), and bugs that
    # hide input or print a traceback
    r"|(?:be\s+)?(?:needed|necessary|applicable|relevant|useful)\b|hides?\b|tracebacks?\b"
    # what is no longer required is a relaxation: Lightning 2.4.0's "NumPy is no longer a
    # required dependency", "`x` is no longer a mandatory argument", "no longer a hard
    # dependency" (not "no longer accepts", "no longer a dependency of `x`")
    r"|(?:an?\s+)?(?:mandatory|compulsory|hard[- ]?(?:dependenc|requirement|required))"
    r"|an?\s+required\b"
    # a feature made stable: Scrapy 2.18.0's "The Twisted-based HTTP/2 download handler is
    # no longer experimental" (not "no longer accepts the experimental `--h2` flag")
    r"|(?:(?:considered|marked)\s+(?:as\s+)?)?(?:experimental|provisional|beta|alpha|unstable)\b"
    r"|triggers?\s+(?:an?\s+)?(?:\S*warning|spurious|x\b)"
    r"|gets?\s+(?:replaced|lost|stuck|dropped|corrupted|truncated)"
    r"|(?:silently|incorrectly|wrongly|erroneously|accidentally|unnecessarily|unexpectedly"
    r"|spuriously|mistakenly|needlessly)\b"
    # a blemish it stops making: click's "no longer render a stray leading space", black's
    # "no longer have an extra blank line added" (not what users get or give: "no longer
    # ships extra dependencies", "accepts the redundant flag")
    r"|(?!(?:accept|ship|install|support|require|take|expose|export|provide|allow|offer"
    r"|bundle|include|pull|bring|depend)s?\b)\w+\s+(?:(?:an?|the|any)\s+)?(?:stray|spurious"
    r"|extra|duplicated?|redundant|unnecessary|unneeded|superfluous)\b"
    # an empty line a formatter or printer stops writing: black's "no longer inserts an
    # empty line after a docstring" (not "no longer skips blank lines": what it reads)
    r"|(?:insert|add|emit|print|output|leave|put|write|generate|render|produce)s?\s+"
    r"(?:(?:an?|the|any)\s+)?(?:extra\s+)?(?:empty|blank)\s+lines?\b))"
    r"|\bbreaking\b|\bbackwards?[- ]incompatib|\bincompatible\s+change"
    # what users must update their code to ("respect the changed API of `ContentDecoder`",
    # urllib3 2.6.0's caution); not "API changes", a release notes' word for its news
    r"|\bchanged\s+API\b|\bAPI\s+(?:has\s+|have\s+)?changed\b"
    r"|\b(?<!-)(?:drop(?:ped|s)?|removed?|end(?:ed|s)?)\s+support\b"  # not "end-to-end"
    r"|移除|删除|不再|不兼容|破坏性",
    re.I,
)
# headings whose entries users need not act on, whatever their words ("Docs: update links
# to no longer use the classes …", vite's "Code Refactoring: remove unnecessary async" and
# "Miscellaneous Chores", the build system, CI); not "Internal" (fastapi files dropping a
# package there) nor "Testing" (a library's test helpers are its API)
_QUIET_HEADING = re.compile(
    r"^\W*(?:(?:improved|updated?)\s+)?(?:docs?|documentation|translations?|ci"
    r"|continuous\s+integration|build\s+system|(?:code\s+)?refactor\w*"
    r"|(?:miscellaneous\s+)?chores?|code\s+style|contributor[-\s]facing"
    r"|miscellaneous\s+internal|internal\s+changes|vendored\s+libraries|performance"
    r"|(?:process|misc)(?=\W*$)"
    r"|issues\s+closed|pull\s+requests|authors|contributors|acknowledg\w*)\b",
    re.I,
)  # (towncrier's "Improved documentation" and "Miscellaneous internal changes", aiohttp's
# "Contributor-facing changes"; pip's "Vendored Libraries" and "Process", setuptools' and
# towncrier's "Misc" (housekeeping mostly: of 20 setuptools entries there that remove or
# deprecate, 3 are users'), black's "Performance"; the lists of a release's issues, pull
# requests and authors — scipy's "Pull requests for 1.18.0": their titles are no entries;
# xarray's "Internal Changes" ("Remove ``setup.py`` file"); not fastapi's plain "Internal")
# what an entry may open with before its words: a tag ("[CHANGE]", "[BUGFIX]"), the issues
# it closes (pytest's towncrier entries: "#8592: …", "#12, #13: …") and a one-word scope
# ("css:", "TSDB:", "Discovery/AWS:")
_ISSUE = r"(?:gh-|#)\d+"  # "#8592", "gh-12"
_SCOPE = re.compile(
    rf"^\s*(?:\[[A-Za-z ]{{1,20}}\]\s*)?(?:{_ISSUE}(?:\s*,\s*{_ISSUE})*:\s+)?"
    r"(?:[\w./-]+:\s+)?",
    re.I,
)
# tags and scopes of housekeeping ("[CI]", "[Misc]", "docs:", "refactor:", prometheus's
# "[ENHANCEMENT]"): what they remove or drop is no news for users
_QUIET_SCOPE = re.compile(
    rf"^(?:{_ISSUE}|#(?!\d)|[^\w#])*"  # past the issues it opens with ("#14: docs: …")
    r"(?:ci|docs?|tests?|testing|build|chores?|refactor\w*|misc|style|perf|lint"
    r"|enhancement|internal)\W",
    re.I,
)
_LEADS_DEPRECATE = re.compile(r"^(?:deprecat|soft-deprecat)", re.I)
# what ends support for a platform or a version breaks under any heading (tox's "drop
# Python 3.5 support" under "Bugfixes - 4.0.0a2")
_SUPPORT_DROPPED = re.compile(
    r"\b(?<!-)(?:drop(?:ped|s)?|removed?)\s+(?:\S+\s+){0,3}?support\b|\bsupport\s+for\s+"
    r"(?:\S+\s+){1,4}?(?:is|are|was|were|has\s+been)\s+(?:now\s+)?(?:dropped|removed)\b",
    re.I,
)
_RESTORES = re.compile(r"^\W*(?:restor|revert|re-?add|bring\s+back)", re.I)
# an entry that takes a deprecation back ("#13083: Un-deprecate `import_object`", "`x` is
# no longer deprecated"), after the issues it names
_UNDEPRECATES = re.compile(
    r"^[^A-Za-z]*(?:un-?deprecat|(?:[\w.`]+\s+(?:is|are)\s+)?no\s+longer\s+deprecated)", re.I
)
_MORE_CHANGE = re.compile(r"(?<!un-)(?<!un)\bdeprecat|\bremov|\bdrop", re.I)  # said after it
# the version a category heading repeats (tox's towncrier template: "Bug fixes - 4.57.2")
_OF_VERSION = re.compile(r"\s*(?:[-–—:]\s*v?\d+(?:\.\d+)+\S*|\(v?\d+(?:\.\d+)+\S*\))\s*$")
# a fix, by its heading ("Bug Fixes", vite's "### Bug Fixes") or its tag ("[BUGFIX]", as
# prometheus writes it): what it removes or no longer does is the bug, unless it says that
# it breaks
_FIX_HEADING = re.compile(
    r"^\W*(?:bug\s*fix(?:es)?|fix(?:es|ed)?|bugs?|bugs?\s+fixed|fixed\s+bugs?)\W*$", re.I
)  # (Sphinx's "Bugs fixed")
# what is new, a heading of its own inside a breaking section (fastapi 0.137.0's "Breaking
# Changes" holds "Features" and "Future Features Enabled": "Middleware per router" read as
# a break); Django's "Miscellaneous" inside "Backwards incompatible changes" is still one
_NEW_HEADING = re.compile(
    r"^\W*(?:(?:new|alpha|beta|experimental|future|upcoming|other|minor|major)\s+)*"
    r"(?:features?|enhancements?|improvements?|additions?|added|highlights?)"
    r"(?:\s+(?:enabled|planned|added))?\W*$",
    re.I,
)
_DEPRECATION_WORDS = re.compile(r"\bdeprecat|弃用|废弃", re.I)
# "Deprecated" as the subject's adjective, what they no longer do following: a change to
# things deprecated before, no deprecation (click 8.4.2's "Deprecated commands and
# options with empty or missing help text no longer render a stray leading space")
_DEPRECATED_SUBJECT = re.compile(
    r"^\W*deprecated(?=\s+(?!(?:the|an?|x|all|any|support|passing|using|calling)\b)"
    r"(?:(?!(?:since|because|which|that|as|when|where|while|in|for)\b)[\w-]+\s+){1,10}?"
    r"no\s+longer\b)",
    re.I,
)  # (not "Deprecated the ``declarative_mixin`` decorator since … the now removed plugin",
# nor "Deprecated aliases now raise an error")
# what the project stops using because others deprecated it, no deprecation of its own
# (Celery's "Update mongodb without deprecated `[srv]` extra requirement", "Updated the
# Getting Help section, replacing deprecated with new resources"); not advice to users
# (httpx 0.26: "use the `proxy` argument instead of the deprecated `proxies`")
_MOVES_AWAY = re.compile(
    r"\b(?:without|replac(?:e|es|ed|ing)|away\s+from|migrat(?:e|es|ed|ing)\s+(?:off|from)"
    r"|stop(?:s|ped)?\s+using|no\s+longer\s+us(?:e|es|ing))\s+"
    r"(?:(?:the|a|an|any|all|its|our)\s+)?deprecated\b",
    re.I,
)
_REFERENCE_ONLY = re.compile(r"^\W*(?:PR|pull request|issue)?\s*#\d+\W*$", re.I)  # "PR #1862."
# a dependency bump ("⬆ Bump griffe-warnings-deprecated from 1.1.0 to 1.1.1"): no news of the
# project's own, whatever the package is called (unless it says what it breaks)
_BUMP = re.compile(r"^\W*(?:bump|update|upgrade)\s+\S+\s+(?:requirement\s+)?from\s", re.I)
_FIX_LEAD = re.compile(
    r"^(?:\[\s*(?:bug\s*fix|fix)\s*\]|fix(?:e[sd])?\b|bugfix\b|correct(?:ed|s)?\b|resolve[sd]?\b)",
    re.I,
)
_BOLD_LEAD = re.compile(r"^\*\*(.+?)\*\*|^__(.+?)__")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# a reStructuredText link, named or anonymous: `#8592 <https://…/issues/8592>`_
_RST_LINK = re.compile(r"`([^`<]*?)\s*<[^<>`]+>`__?")
_EMPHASIS = re.compile(r"\*\*|__")
# a role: reST's :func:`x`, and MyST's {func}`x` (click's CHANGES.md writes {issue}`2355`)
_ROLE = re.compile(r"(?::([\w:.-]+):|(?<![`\w])\{([\w:.-]+)\})`([^`]+)`")  # (not `{version}`)
_REFERENCE_ROLES = frozenset(
    {"pr", "pull", "ghpull", "issue", "ghissue", "gh", "user", "ghuser", "commit", "ghsa",
     "cve", "bpo", "discussion"}
)  # fmt: skip


def _role(m: re.Match[str], tick: str) -> str:
    """A reST role as code (``:func:`soft_str``` -> code), or nothing for a reference
    (``:pr:`261```, ``:issue:`12```)."""
    role = m.group(1) or m.group(2)
    return "" if role.lower() in _REFERENCE_ROLES else f"{tick}{m.group(3)}{tick}"


_CODE = re.compile(r"``([^`]+)``|`([^`]+)`")


@dataclass(frozen=True)
class Entry:
    line: int
    text: str  # as written, continuation lines joined with a space
    heading: str = ""  # the category heading it sits under inside its version section
    nested: bool = False  # a bullet under another bullet
    # a nested one's: the words of the entry whose list it is in, when they open it with a
    # colon ("The following parameters have been removed from ``to_zarr``:")
    under: str = ""


@dataclass
class Section:
    """A version section; its entries are read when first asked for (a commit that adds
    one line at the top of a 10,000-line changelog reads the sections it changed)."""

    title: str
    line: int
    version: str | None  # "0.28.0"; None for Unreleased and non-version headings
    end: int = 0  # the index of the line after it
    lines: Sequence[str] = field(default=(), repr=False, compare=False)  # the changelog's
    cats: Mapping[int, str] = field(default_factory=dict, repr=False, compare=False)
    _entries: list[Entry] | None = field(default=None, repr=False, compare=False)

    @property
    def entries(self) -> list[Entry]:
        if self._entries is None:
            self._entries = _entries(self.lines, self.line, self.end, self.cats)
        return self._entries

    @property
    def body(self) -> Sequence[str]:
        """The section's lines under its heading, as written."""
        return self.lines[self.line : self.end]


@lru_cache(maxsize=4096)  # a changelog's headings, read again in each version of it
def normalise_version(text: str) -> str | None:
    """``v0.28.0`` / ``release-2.1`` / ``Version 2.1.0 (2022-02-17)`` -> ``0.28.0`` …"""
    m = _VERSION.search(text)
    return m.group(1).lower() if m else None


def _scan(lines: Sequence[str], lo: int, hi: int) -> list[tuple[int, int, int, str, str]]:
    """The headings lines ``lo``..``hi`` make, as (the line that makes it, its line, its
    Markdown level or 0, title, rst marker): a Markdown heading is its own line, an rst one
    is the line above its underline (its style the underline's character, doubled when the
    title is overlined too), a ``.. changelog::`` directive its own line. Each depends only
    on the line that makes it, the one below it and the two above it."""
    out: list[tuple[int, int, int, str, str]] = []
    for i in range(lo, hi):
        line = lines[i]
        if not line or line[0] not in _HEADING_STARTS:
            continue  # the cheap test first: most lines are entries and text
        if line[0] == "#":
            md = _MD_HEADING.match(line)
            if md:
                out.append((i, i, len(md.group(1)), md.group(2), ""))
                continue
        if line.startswith(_DIRECTIVE):  # (a heading it makes reads the line below, not
            argument = line[len(_DIRECTIVE) :].strip()  # the one above; litestar names the
            version = _VERSION_OPTION.match(lines[i + 1]) if i + 1 < len(lines) else None
            if argument and _VERSION.search(argument):  # version on the directive's line:
                out.append((i, i, 0, argument, _DIRECTIVE))  # ``.. changelog:: 3.0.0``)
            elif version and not argument:
                out.append((i, i, 0, version.group(1), _DIRECTIVE))
            continue
        if not line.startswith(line[0] * 3):
            continue  # a bullet ("- item"): an underline repeats its mark at least 3 times
        under = _RST_UNDERLINE.match(line)
        if under and i > 0 and lines[i - 1].strip() and not _BULLET.match(lines[i - 1]):
            title = lines[i - 1].strip()
            if len(line.strip()) + 1 >= len(title) and not _RST_UNDERLINE.match(lines[i - 1]):
                marker = under.group(1)
                if i > 1 and lines[i - 2].strip() == line.strip():
                    marker += marker  # over- and underlined: another style than underlined
                    # (scipy's "SciPy 1.18.0 Release Notes" over its "=" sections)
                out.append((i, i - 1, 0, title, marker))
    return out


def _levelled(found: list[tuple[int, int, int, str, str]]) -> list[tuple[int, int, str]]:
    """(line, level, title) of each heading: rst levels by first use of a marker."""
    rst_levels: dict[str, int] = {}
    return [
        (i, md or rst_levels.setdefault(marker, len(rst_levels) + 1), title)
        for _, i, md, title, marker in found
    ]


@dataclass(frozen=True)
class _Reading:
    """A changelog's lines and headings; ``local``: its lines break at ``\\n`` only, as git
    numbers them, so a commit's edit of it can be read alone (:func:`_edited`)."""

    lines: list[str]
    found: list[tuple[int, int, int, str, str]]  # as _scan gives them
    heads: list[tuple[int, int, str]]
    local: bool


def _line_count(text: str) -> int:
    """The lines git numbers in ``text`` (``\\n``-terminated, the last one maybe not)."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _read(text: str) -> _Reading:
    lines = text.splitlines()
    found = _scan(lines, 0, len(lines))
    local = "\r" not in text and len(lines) == _line_count(text)
    return _Reading(lines, found, _levelled(found), local)


def _edited(old: _Reading, before: str, after: str, edit: Edit) -> _Reading | None:
    """The reading of ``after``, made from that of ``before`` and the commit's ``edit`` (the
    lines it removes from ``before`` and adds to ``after``, as the diff numbers them): only
    the lines from its first to just past its last change are read again (a heading
    depends on its line and the one above), the others' headings are moved by the lines
    it adds or removes. None when that cannot be done exactly (then the whole text is
    read)."""
    removed, added = edit
    if not old.local or not (removed or added) or "\r" in after:
        return None
    n_old, n_new = len(old.lines), _line_count(after)
    inf = n_old + n_new + 1
    keep_head = min(min(removed, default=inf), min(added, default=inf)) - 1
    keep_tail = min(n_old - max(removed, default=-inf), n_new - max(added, default=-inf))
    keep_tail = min(keep_tail, n_old - keep_head, n_new - keep_head)
    if keep_head < 0 or keep_tail < 0:
        return None
    start = sum(map(len, old.lines[:keep_head])) + keep_head  # its lines end with \n
    tail = 0
    if keep_tail:  # the lines before the kept tail end with \n too
        tail = len(before) - sum(map(len, old.lines[: n_old - keep_tail])) - n_old + keep_tail
    if not after.startswith(before[:start]) or not after.endswith(before[len(before) - tail :]):
        return None  # the numbers are not this edit's
    middle = after[start : len(after) - tail].splitlines()
    lines = old.lines[:keep_head] + middle + old.lines[n_old - keep_tail :]
    if len(lines) != n_new:
        return None  # another line break (\\v, \\x85, U+2028 …) in the new lines
    shift = n_new - n_old
    lo = max(0, keep_head - 1)  # (a directive above the first change reads its line)
    found = [h for h in old.found if h[0] < lo]
    # (an underline reads the two lines above it: its title, and an overline)
    found += _scan(lines, lo, min(n_new, n_new - keep_tail + 2))
    found += [
        (p + shift, i + shift, md, title, marker)
        for p, i, md, title, marker in old.found
        if p > n_old - keep_tail + 1
    ]
    return _Reading(lines, found, _levelled(found), True)


Edit = tuple[frozenset[int], frozenset[int]]
"""A commit's edit of a file: the lines it removes (old numbers) and adds (new numbers)."""

_CACHED = 64  # changelog versions kept: a file touched by neighbouring commits is read once
_readings: ByText[tuple[_Reading, list[Section]]] = ByText(_CACHED)  # by text object


def numbered_as_git(text: str) -> bool:
    """Whether a changelog that :func:`sections` read — this very text object, as the radar
    hands it on (False for an equal copy not read) — breaks its lines only where git does
    (no ``\f``, ``\v``, ``\r``, U+2028 …): then a diff's line numbers are its lines'."""
    found = _readings.get(text)
    return found is not None and found[0].local


def sections(text: str, edit: tuple[str, Edit] | None = None) -> list[Section]:
    """The changelog's version sections (the headings that name a version or "Unreleased",
    at the level of the first such heading), each with its entries: every bullet, a nested
    one too ("Remove previously deprecated code." and each thing it lists).

    ``edit``: a neighbouring version's text and the edit from it to this one (the lines of
    it removed and of this one added, as a diff numbers them), so that a long changelog a
    commit changes in a few lines is not read whole again. Each text object is read once
    while it is among the last :data:`_CACHED` (an equal copy is read again)."""
    if (known := _readings.get(text)) is not None:
        return known[1]
    reading = None
    if edit is not None:
        before, numbers = edit
        sections(before)
        old = _readings.get(before)
        if old is not None:
            reading = _edited(old[0], before, text, numbers)
    if reading is None:
        reading = _read(text)
    found = _sections_of(reading)
    _readings.put(text, (reading, found))
    return found


def both(before: str, after: str, edit: Edit | None) -> tuple[list[Section], list[Section]]:
    """The sections of a commit's two versions of a changelog, the one read last made from
    the other and the commit's ``edit`` when it is known: the new one from the old, or,
    when only the new one was read (a window scanned newest first, as ``git log`` gives
    it), the old one from the new."""
    if edit is None:
        return sections(before), sections(after)
    if _readings.get(after) is not None and _readings.get(before) is None:
        removed, added = edit
        return sections(before, (after, (added, removed))), sections(after)
    return sections(before), sections(after, (before, edit))


def _sections_of(reading: _Reading) -> list[Section]:
    lines, heads = reading.lines, reading.heads
    version_level: int | None = None
    for found, (_, level, _title) in zip(reading.found, heads, strict=True):
        if found[4] == _DIRECTIVE:  # the extension's versions, whatever titles the file
            version_level = level  # ("2.1 Changelog" over them all)
            break
    for _, level, title in heads if version_level is None else ():
        if normalise_version(title) or _UNRELEASED.search(title):
            version_level = level
            break
    if version_level is None:
        return []
    starts = [(i, title) for i, level, title in heads if level == version_level]
    cats: dict[int, str] = {}  # a category under another one is both ("Backwards
    # incompatible changes in 5.1" over Django's "Miscellaneous"), the nearest last; but
    # what is new or fixed, after a breaking section's own entries, is only itself
    # (fastapi 0.137.0's "Breaking Changes" has its one entry, then "Features" and "Future
    # Features Enabled": "Middleware per router" read as a break; a project that sorts its
    # breaking changes by kind, "Breaking > Features", has no entries of its own above)
    above: list[tuple[int, str, bool, int]] = []  # (level, title, only itself, its index)
    for n, (i, level, title) in enumerate(heads):
        if level <= version_level:
            above = []
            continue
        while above and above[-1][0] >= level:
            above.pop()
        parent = above[-1] if above else None  # (the last heading above, of a lower level)
        own = (
            parent is not None
            and _SECTIONS[0][0].search(parent[1]) is not None
            and (_NEW_HEADING.match(title) or _FIX_HEADING.match(title)) is not None
            and _lists_entries(lines, heads[parent[3]][0] + 1, heads[parent[3] + 1][0])
        )
        above.append((level, title, own, n))
        start = len(above) - 1  # the last heading that is only itself, else the first
        while start and not above[start][2]:
            start -= 1
        cats[i] = title if start == len(above) - 1 else "\n".join(t for _, t, _, _ in above[start:])
    bounds = [i for i, level, _ in heads if level <= version_level]
    out: list[Section] = []
    for start, title in starts:
        at = bisect_right(bounds, start)  # bounds are in line order
        end = bounds[at] if at < len(bounds) else len(lines)
        version = normalise_version(title)
        out.append(Section(title, start + 1, version, end=end, lines=lines, cats=cats))
    return out


def _lists_entries(lines: Sequence[str], start: int, end: int) -> bool:
    """Whether ``lines[start:end]`` hold an entry of a list (``*``, ``-``, ``+`` or a
    number)."""
    return any(re.match(r"\s*(?:[-*+]|\d+[.)])\s+\S", line) for line in lines[start:end])


# a reST directive whose body is a table, code or a picture, never entries (xarray's
# ``.. list-table::`` of minimum versions under "Breaking Changes": each cell, ``* - boto3``
# and ``- 1.34``, read as an entry); an admonition's body (``.. caution::``) is read
_NOT_PROSE_DIRECTIVE = re.compile(
    r"[ \t]*\.\.[ \t]+(?:list-table|csv-table|table|code-block|code|sourcecode|literalinclude"
    r"|parsed-literal|image|figure|math|raw|toctree|graphviz|plot|include|highlight)::"
)


def _block_end(lines: Sequence[str], i: int, end: int) -> int:
    """The index of the first line after the directive at line index ``i`` and its body
    (the lines indented deeper than it, and blank lines among them)."""
    indent = indent_of(lines[i])
    j = i + 1
    while j < end and (not lines[j].strip() or indent_of(lines[j]) > indent):
        j += 1
    while j > i + 1 and not lines[j - 1].strip():
        j -= 1  # (the blank lines after it are no part of it)
    return j


def _entries(lines: Sequence[str], start: int, end: int, cats: Mapping[int, str]) -> list[Entry]:
    out: list[Entry] = []
    heading = ""
    top: int | None = None  # the indent of the list's first level, under this heading
    top_heading = ""
    opening = ""  # the last first-level entry's words, when it opens a list with a colon
    i = start
    while i < end:
        line = lines[i]
        if i in cats:
            heading = cats[i]
            i += 1
            continue
        if line.lstrip().startswith(_CHANGE):
            entry, i = change_entry(lines, i, end)
            out.append(entry)
            continue
        if "::" in line and _NOT_PROSE_DIRECTIVE.match(line):
            i = _block_end(lines, i, end)
            continue
        bold = _BOLD_HEADING.match(line)
        if bold and not _BULLET.match(line):
            heading = bold.group(1)
            i += 1
            continue
        b = _BULLET.match(line)
        if b is None:
            if (
                line.strip()
                and heading
                and not _RST_UNDERLINE.match(line)
                and _paragraphs_only(lines, i, end, cats, heading)
            ):
                j = i + 1  # a breaking heading over a paragraph, no list: the paragraph is
                while j < end and lines[j].strip() and j not in cats:  # its entry (xarray
                    j += 1  # v2025.07.0's "The minimum versions of some dependencies were
                    # changed (:issue:`10417`, :pull:`10438`):" over a table)
                out.append(Entry(i + 1, " ".join(x.strip() for x in lines[i:j]), heading))
                i = j
                continue
            if line.strip():
                opening = ""  # a paragraph or code between: a list below is not opened by
                # that entry (xarray's "This has a number of implications:" after an example)
            i += 1
            continue
        indent = len(b.group(1))
        if top is None or indent <= top or heading != top_heading:
            top, top_heading = indent, heading  # a list's first level (however indented)
        parts = [b.group(2).strip()]
        j = i + 1
        while j < end:
            nxt = lines[j]
            if not nxt.strip() or j in cats or _RST_UNDERLINE.match(nxt):
                break
            if indent_of(nxt) <= indent:
                break  # the next entry, or text at the entry's own level
            if re.match(r"[-*+]\s", nxt.lstrip()):
                break  # a nested bullet: an entry of its own
            parts.append(nxt.strip())
            j += 1
        text = " ".join(parts)
        if indent > top:
            out.append(Entry(i + 1, text, heading, nested=True, under=opening))
        else:
            out.append(Entry(i + 1, text, heading))
            opening = text if text.endswith(":") else ""
        i = j
    return out


def _paragraphs_only(
    lines: Sequence[str], i: int, end: int, cats: Mapping[int, str], heading: str
) -> bool:
    """Whether line index ``i`` starts the first paragraph under a category heading that says
    it breaks, removes or deprecates, and that heading lists no entry down to the next one:
    its paragraph is its entry. Under any other heading, or one with a list, a paragraph is
    the text around the entries ("The following were removed:")."""
    k = i - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    if k < 0 or not (k in cats or (k - 1 in cats and _RST_UNDERLINE.match(lines[k]))):
        return False  # (not the heading's first paragraph: its title, or its underline)
    if not any(pattern.search(heading.split("\n")[-1]) for pattern, _ in _SECTIONS):
        return False
    j = i
    while j < end:
        if j in cats:
            return True
        if "::" in lines[j] and _NOT_PROSE_DIRECTIVE.match(lines[j]):
            j = _block_end(lines, j, end)  # (a table's rows are no entries)
            continue
        if _BULLET.match(lines[j]):
            return False
        j += 1
    return True


def change_entry(lines: Sequence[str], i: int, end: int) -> tuple[Entry, int]:
    """The ``.. change::`` directive at line index ``i`` as an entry, and the index of the
    line after it: its title in bold where the directive has one (litestar's), then its
    paragraphs (nested directives such as ``.. seealso::`` left out), under the heading its
    ``:tags:`` (or ``:type:``) make (:func:`tags_heading`), "Breaking" for a ``:breaking:``
    one."""
    indent = indent_of(lines[i])
    options: dict[str, str] = {}
    j = i + 1
    while j < end and (option := _OPTION.match(lines[j])) and indent_of(lines[j]) > indent:
        options[option.group(1)] = option.group(2)
        j += 1
    parts: list[str] = []
    first: int | None = None
    nested: int | None = None  # the indent of a nested directive being skipped
    while j < end:
        line = lines[j]
        if line.strip():
            deep = indent_of(line)
            if deep <= indent:
                break  # the next entry, or the next version
            if nested is not None and deep > nested:
                j += 1
                continue
            nested = None
            if line.lstrip().startswith(".. "):
                nested = deep
            else:
                first = j if first is None else first
                parts.append(line.strip())
        j += 1
    # litestar's extension: a title on the directive's line, a ``:type:`` (feature, bugfix,
    # misc) and a ``:breaking:`` flag (its changelog's breaking changes said nothing before)
    title = lines[i].lstrip()[len(_CHANGE) :].strip()
    if title:  # (a sentence of its own: what the paragraphs go on to add is not what goes)
        parts.insert(0, f"**{title}**" + ("" if title[-1] in ".!?:" else "."))
        first = i
    if "breaking" in options:
        heading = "Breaking"
    else:
        heading = tags_heading(options.get("tags") or options.get("type", ""))
    return Entry(line=(i if first is None else first) + 1, text=" ".join(parts), heading=heading), j


def tags_heading(tags: str) -> str:
    """The heading an entry's ``:tags:`` stand for: ``removed`` and ``deprecated`` are the
    sections of those names; others are the tags as written ("bug, orm"), under which the
    entry's own words say what it announces (SQLAlchemy tags removals ``bug`` too: "The
    "resurrect" ORM event has been removed.")."""
    words = {t.strip().lower() for t in tags.split(",")}
    for tag, heading in (("removed", "Removed"), ("deprecated", "Deprecated")):
        if tag in words:
            return heading
    return tags.strip()


def fragment_entries(path: str, text: str) -> list[Entry]:
    """A news fragment's entries: its ``.. change::`` directives, else its whole text, one
    entry under its type's heading."""
    heading = fragment_heading(path)
    if heading is None:
        return []
    lines = text.splitlines()
    if any(line.lstrip().startswith(_CHANGE) for line in lines):
        return _entries(lines, 0, len(lines), {})
    words = [line.strip() for line in lines if line.strip() and not line.startswith(".. ")]
    if len(words) < 2 and " " not in "".join(words):
        return []  # one word: a symlink's target (aiohttp links ``9308.breaking.rst`` to the
        # fragment of the pull request that fixed it too), no entry
    start = next((n for n, line in enumerate(lines) if line.strip()), 0)
    return [Entry(line=start + 1, text=" ".join(words), heading=heading or "")]


def announces(entry: Entry) -> tuple[ApiChangeType | None, bool] | None:
    """``(fixed change, breaking)`` for an entry that announces a break, a removal or a
    deprecation (by its heading, else by its own words); ``None`` for any other entry."""
    words = _CODE.sub(" x ", plain_text(entry.text))  # a word written as code is a name
    # the categories it sits under, the nearest last, each read without the version it
    # repeats; the nearest one is its heading, any one may say it breaks, removes or
    # deprecates
    headings = [
        _OF_VERSION.sub("", h).strip() if len(h) <= 200 else h.strip()
        for h in entry.heading.split("\n")
    ]
    heading = headings[-1] if headings else ""
    undone = _UNDEPRECATES.match(words)
    if undone is not None and not _MORE_CHANGE.search(words, undone.end()):
        return None  # what undoes a deprecation, under any heading (Sphinx 8.2's
        # "Un-deprecate ``sphinx.util.import_object``", under "Deprecated"), and says no
        # other change ("Un-deprecate `a`; deprecate `b` instead" still does)
    for pattern, change in _SECTIONS:
        if any(h and pattern.search(h) for h in reversed(headings)):
            if _REFERENCE_ONLY.match(words):
                return None  # "PR #1862.": a link, not an entry
            if entry.nested and not _says_what(entry.text, words) and len(words.split()) > 4:
                return None  # a sentence explaining the entry above ("This simplifies …");
                # a short item is one of a list the entry opens ("Python 3.8")
            if change is ApiChangeType.DEPRECATED and _DEPRECATED_BEFORE.search(words):
                return None, True  # the deprecation done with (trio files its "now raises,
                # after being deprecated since Trio 0.27.0" as a ``deprecated`` fragment)
            return change, change is not ApiChangeType.DEPRECATED
    if heading and _BOTH_HEADING.match(heading):  # towncrier's "Deprecations and Removals"
        if _REFERENCE_ONLY.match(words) or _NOT_A_REMOVAL.search(words):
            return None  # a link; what documents, restores, reverts or fixes
        if (
            _DEPRECATION_WORDS.search(words)
            and not _BREAK_WORDS.search(words)
            and not _DEPRECATED_BEFORE.search(words)
        ):
            return ApiChangeType.DEPRECATED, False
        return None, True  # (its entries remove or forbid: "Forbid inheritance from …")
    if heading and _QUIET_HEADING.search(heading):
        return None  # docs, translations, CI: nothing users act on
    # its words after a [TAG] and a scope ("css:"), unless they are housekeeping's ("[CI]
    # Remove the nightly job", "docs: drop a page": no leading "Remove" of users')
    scope = _SCOPE.match(words)  # always a match (an empty one without tag or scope)
    said = words[scope.end() :] if scope and not _QUIET_SCOPE.search(scope.group(0)) else words
    if _BUMP.match(said) and not _BREAK_WORDS.search(words):
        return None
    fix_heading = bool(heading and _FIX_HEADING.match(heading))
    fix = _FIX_LEAD.match(words) is not None or _FIX_LEAD.match(said) is not None
    dropped = (
        fix_heading and not fix and _SUPPORT_DROPPED.search(words) and not _RESTORES.match(words)
    )
    if _says_break(words, said) and not (
        (fix or fix_heading) and not _says_it_breaks(words) and not dropped
    ):
        return None, True
    deprecates = _DEPRECATION_WORDS.search(
        WARNINGS_HANDLED.sub(" ", _MOVES_AWAY.sub(" ", _DEPRECATED_SUBJECT.sub(" ", words)))
    )
    if deprecates and not fix and (not fix_heading or _LEADS_DEPRECATE.match(said)):
        return ApiChangeType.DEPRECATED, False  # (a warning it avoids deprecates nothing; a
        # fix that mentions a deprecated name deprecates nothing, one that deprecates does)
    return None


# a fix that says it breaks something ("breaking change", "**Breaking**:"), not one whose bug
# was something breaking (rich's "Fixed control codes breaking in `append_tokens`")
_SAYS_IT_BREAKS = re.compile(
    r"^\W*breaking\b|(?<!non-)(?<!no\s)\bbreaking\s*[:)!\]*]"
    r"|(?<!non-)(?<!no\s)\bbreaking\s+(?:changes?|fix|fixes|update|release|behaviou?r)\b"
    r"(?!\s+(?:introduced|(?:in|from|of)\s+(?:v?\d|version|release)))"
    r"|\bbackwards?[- ]incompatib|\bincompatible\s+change",
    re.I,
)
# what a break the entry names is said to be: only a possible one, or one avoided
# (Lightning 2.4.0's fix "Avoid LightningCLI saving hyperparameters with `class_path` and
# `init_args` since this would be a breaking change"; "to avoid breaking", "without
# breaking", "non-breaking", "not a breaking change"), the words just before it
_AVERTED = re.compile(
    r"(?:\bwould(?:\s+have)?\s+(?:be|been|cause|introduce|mean)"
    r"|\b(?:without|not|never|no)|n't|\bavoid(?:s|ed|ing)?)\s+(?:an?\s+|any\s+)?$"
    r"|\bnon-?\s*$",
    re.I,
)


def _averted(words: str, at: int) -> bool:
    """Whether the break named at ``words[at:]`` is only supposed or avoided (:data:`_AVERTED`)."""
    return _AVERTED.search(words[max(0, at - 40) : at]) is not None


def _says_it_breaks(words: str) -> bool:
    """Whether a fix says it breaks something (:data:`_SAYS_IT_BREAKS`), not a break averted."""
    return any(not _averted(words, m.start()) for m in _SAYS_IT_BREAKS.finditer(words))


# a warning that is no longer printed ("Remove warning for SQL Server dialect when a new
# version is detected"); not a deprecation warning, nor a parameter named for warnings
_WARNING_GONE = re.compile(
    r"^\s+(?:[Tt]he\s+|[Aa]n?\s+)?(?:(?![Dd]eprecation\b)[a-z][a-z-]*\s+)?[Ww]arnings?\b"
    r"(?!\s+(?:parameter|argument|option|flag|class|subclass|categor|filter|setting"
    r"|attribute|field|module|alias|type|function|method|helper)s?\b)",
)  # (a lower-case word before it: "Remove the PytestDeprecationWarning warning" goes on)
# what a leading "Removed" takes away when it is no API: a line of output, a redundancy
# (rich's "Removed the empty line printed in jupyter while using `Progress`"); not an
# argument, an option or support, even unused ones ("Removed unused arguments from `x`")
_TIDIED = re.compile(
    r"^\W*(?:(?:the|an?|some|any|all)\s+)?(?:(?!x\b)\w+\s+)?"
    r"(?:empty|blank|extra|trailing|leading|duplicated?|redundant|unnecessary|unneeded"
    r"|unused|superfluous|spurious|stray)\s+(?!x\b)((?:[\w.()]+\s*){1,3})",
    re.I,
)
# the layout of code a removal takes away (a formatter's or a linter's work: black 25.1.0's
# "Remove parentheses around sole list items", "Remove blank lines before class
# docstrings"), never something users import or pass: punctuation and space, not written
# as code (which reads " x ")
_LAYOUT_GONE = re.compile(
    r"^\s+(?:(?:the|any|all|some)\s+)?(?:(?!x\b)\w+\s+)?(?:parenthes[ie]s|parens|brackets"
    r"|braces|blank\s+lines?|empty\s+lines?|newlines?|line\s+breaks?|whitespace|spaces"
    r"|indentation|trailing\s+commas?|commas|semicolons|backslashes)\b(?!\s+(?:argument"
    r"|parameter|option|flag|setting|field|attribute)s?\b)",
    re.I,
)
# what a removal takes from the project's own tooling, by where its words say it is (a
# list of pull request titles, Celery's: "Remove Python 3.8 from CI workflow", "Remove
# Python 4.0 version condition for pytest dependencies"); not a project's test utilities
# ("Remove `make_mocked_coro` from test utils"), which users import
_IN_TOOLING = re.compile(
    r"\b(?:from|in|for)\s+(?:the\s+|our\s+|all\s+)?(?:CI\b|continuous\s+integration"
    r"|(?:GitHub\s+)?(?:actions?|workflows?)\b|[\w.-]+\.ya?ml\b|Dockerfiles?\b|docker\b"
    r"|tox\b|nox\b|pre-commit\b|Makefile\b|tests\b|test\s+(?:suite|matrix|run)s?\b"
    r"|(?:dev(?:elopment)?|test|pytest|docs?|lint(?:ing)?|build)\s+(?:dependencies|requirements|deps)\b"
    r"|docs\b|documentation\b|examples?\b|README\b|changelog\b"
    r"|[\w.-]+(?:/[\w.-]+)*/tests?/)",  # (a path in a tests folder: "in t/smoke/tests/x.py")
    re.I,
)
# why a removal is no loss, where what goes is no API ("remove flake8plus as not needed
# anymore"; not "Remove the ``--legacy`` flag as it is no longer needed")
_NOT_NEEDED = re.compile(
    r"\bas\s+(?:it\s+is\s+|it's\s+|they\s+are\s+)?(?:not|no\s+longer)\s+(?:needed|necessary"
    r"|required|used)\b",
    re.I,
)
_IN_DOCS = re.compile(
    r"(?:from|in|for)\s+(?:the\s+|our\s+|all\s+)?(?:docs|documentation|examples?|README)\b", re.I
)
_API_WORD = re.compile(r"\b(?:API|code|library|package|module)\b", re.I)
_CLAUSE_END = re.compile(
    r"[;:]|\.\s|,\s|\s(?:and|but|see|as\s+(?:documented|described|announced))\s"
)
# a file's or a version's name (``test-pypy3.txt``, ``Python 4.0``): no name of the API
_NOT_A_NAME = re.compile(r"[\w.-]+\.(?:txt|md|rst|cfg|ini|toml|ya?ml|json|lock)\b|\b\d[\w.]*")


def _names_api(words: str) -> bool:
    """Whether the words of what a removal takes say it is the API: code (read as " x ")
    or a noun of it (an argument, a class, support …)."""
    words = _NOT_A_NAME.sub(" ", words)
    return re.search(r"(?<!\S)x(?!\S)", words) is not None or _API_NOUNS.search(words) is not None


# a removal of leftovers or of an example ("Remove importlib_metadata leftovers", "Remove
# incorrect example"), the entry's whole object (not "Remove example plugins"), or of the
# project's own use of something
_HOUSEKEEPING = re.compile(
    r"^\W*(?:(?:the|an?|some|any|all)\s+)?(?:[\w.-]+\s+){0,3}?"
    r"(?:leftovers?|remnants?|examples?|typos?|dead\s+code)\s*(?:\(|\.|$)"
    r"|^\W*(?:the\s+)?(?:usages?|uses?)\s+of\b",  # ("Remove usage of utcnow")
    re.I,
)
_API_NOUNS = re.compile(
    r"\b(?:arg(?:ument)?s?|param(?:eter)?s?|kwargs?|keywords?|options?|flags?|methods?"
    r"|functions?|class(?:es)?|attributes?|propert(?:y|ies)|alias(?:es)?|modules?|support"
    r"|exceptions?|fields?|settings?|keys?|commands?|hooks?|types?|constants?|exports?"
    r"|apis?|endpoints?|extras?|dependenc(?:y|ies)|variables?|decorators?)\b"
    r"|\w\.\w|\w\(|\w_\w|(?<!\w)_\w",  # a name written as one (not a full stop)
    re.I,
)
_PRIVATE_WORDS = re.compile(r"\b(?:private|internal)\b", re.I)  # ("unused private methods")


def _says_break(words: str, said: str) -> bool:
    """Whether an entry's words (``said``: after its tag and scope) say something breaks or
    goes: a leading "Remove" / "Drop" of something users have, not of a redundancy."""
    lead = _BREAK_WORDS.match(said)
    if lead and not _tidies(said, lead):
        return True
    return any(
        (m.start() or not _tidies(words, m)) and not _subordinate(words, m)
        for m in _BREAK_WORDS.finditer(words)
    )


# a clause that explains or sets a condition, not one that says what changes ("making it
# clearer why the transaction is no longer active", "once the pool is no longer used"): its
# conjunction one to six words before "no longer", two for "once" ("Handlers registered
# once are no longer removed" says what changes), and "since" not of a version ("Since v2
# `Client` no longer accepts positional arguments" says it too)
_SUBORDINATE = re.compile(
    r"\b(?:(?:why|when|whenever|if|until|while|whether|because)(?:\s+[^\s.;:!?,()]+){1,6}"
    r"|once(?:\s+[^\s.;:!?,()]+){2,6}|since(?!\s+(?:\w+\s+)?v?\d)(?:\s+[^\s.;:!?,()]+){1,6})"
    r"\s*$",
    re.I,
)


# what a change is made for or held back by, not what it does: "Limit pymongo<4.7 due to
# breaking changes in 4.7", "Limit moto to <5.0.0 until the breaking issues are fixed"
# (Celery's pull request titles), "to avoid breaking changes"
_CAUSE = re.compile(
    r"\b(?:due\s+to|until|because\s+of|caused\s+by|owing\s+to|to\s+(?:avoid|prevent)"
    r"|avoids?|avoiding|prevents?|preventing)"
    # (words of its own clause: not "… prevents request smuggling and is a breaking change")
    r"(?:\s+(?!(?:and|or|but|is|are|was|were|which|this|that|it)\b)[^\s.;:!?(),]+){0,6}\s*$",
    re.I,
)


def _subordinate(words: str, m: re.Match[str]) -> bool:
    """Whether the "no longer" of ``m`` is said in such a clause, or as the means of a
    change ("by no longer re-scanning the whole atom") or an adjective; or whether its
    "breaking" is what the change is made for or held back by."""
    said = m.group(0).lower()
    if said == "breaking":
        cause = _CAUSE.search(words[max(0, m.start() - 80) : m.start()]) is not None
        return cause or _averted(words, m.start())
    if "incompatib" in said:
        return _averted(words, m.start())  # ("would be backwards incompatible")
    if not said.startswith("no"):
        return False
    before = words[max(0, m.start() - 120) : m.start()]
    if before.rstrip().lower().endswith((" by", " the", " a")):
        return True  # how it is done (black's "Improve performance … by no longer
        # scanning"), or what it is ("the no longer supported [pytest] section")
    clause = _SUBORDINATE.search(before)
    # (a clause with a verb of its own ends before a name written as code and the verb of
    # "no longer": "When `strict` is enabled `None` is no longer accepted" says what
    # changes, its comma left out; not "since the one we were using is no longer available")
    return clause is not None and not (
        len(_FINITE.findall(clause.group(0))) >= 2
        and _CODE_SUBJECT.search(clause.group(0))
        and not _CONJOINED.search(clause.group(0))
    )


_FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had)\b", re.I)
_CODE_SUBJECT = re.compile(r"\bx\s+(?:is|are|was|were|has|have|had)\s*$")  # (code reads " x ")
# (a condition's second part: "while `pool` is draining and `conn` is no longer alive")
_CONJOINED = re.compile(r"\b(?:and|but|or)\s+x\s+(?:is|are|was|were|has|have|had)\s*$")


def _tidies(text: str, lead: re.Match[str]) -> bool:
    """Whether the leading verb ``lead`` of ``text`` removes a redundancy (a blank line of
    output, a duplicate, leftovers, an example), a warning it printed, or something of
    the project's own tooling (its CI, tests, docs), not something users have."""
    if lead.group(0)[:1].lower() not in "rd":
        return False  # (no "Remove" / "Drop")
    gone = text[lead.end() :]
    if _WARNING_GONE.match(gone) or _HOUSEKEEPING.match(gone):
        return True
    # the removal's own clause ("Remove the ``app`` argument; see the docs" is no docs')
    clause = _CLAUSE_END.split(gone, maxsplit=1)[0]
    where = _IN_TOOLING.search(clause)
    if where is not None and not _names_api(clause[: where.start()]):
        return True
    if where is not None and _IN_DOCS.match(where.group(0)) and not _API_WORD.search(gone):
        return True  # words taken out of the docs, even code's (Celery's "Remove `new`
        # adjective in docs"; not "Remove the `retry` option from the docs and the API")
    why = _NOT_NEEDED.search(clause)
    if why is not None and not _names_api(clause[: why.start()]):
        return True
    if _LAYOUT_GONE.match(gone):
        return True  # a formatter's work on its users' code, no API of its own
    tidied = _TIDIED.match(gone)
    if tidied is None:
        return False
    said = tidied.group(1)
    return not _API_NOUNS.search(said) or _PRIVATE_WORDS.search(said) is not None


def _says_what(text: str, words: str) -> bool:
    """Whether an entry names what changes itself: code, or words of a break, a removal or
    a deprecation."""
    return _CODE.search(text) is not None or _says_gone(words)


def _says_gone(words: str) -> bool:
    """Whether plain words (code replaced) say something breaks, goes or is deprecated."""
    return bool(_BREAK_WORDS.search(words) or _DEPRECATION_WORDS.search(words))


def announcing(entry: str) -> str:
    """The sentences of an entry that say what goes (removed, deprecated, no longer,
    breaking), joined; the whole entry when no single sentence does ("``BaseCommand`` is
    deprecated. ``Command`` is the base class": only the first names what goes)."""
    sentences = re.split(r"(?<=[.!?。])\s+", entry.strip())
    if len(sentences) < 2:
        return entry
    said = []
    for sentence in sentences:
        if _says_gone(_CODE.sub(" x ", plain_text(sentence))):
            said.append(sentence)
    return " ".join(said) or entry


def plain_text(entry: str) -> str:
    """An entry's words: links as their text, no emphasis, roles as their content."""
    text = _LINK.sub(r"\1", entry) if "](" in entry else entry  # (each regex only where
    if ">`_" in text:  # what it matches can be: a changelog's whole text is asked too)
        text = _RST_LINK.sub(r"\1", text)
    if ":`" in text or "}`" in text:
        gone: list[bool] = []  # a reference was taken out

        def role(m: re.Match[str]) -> str:
            shown = _role(m, "`")
            if not shown:
                gone.append(True)
            return shown

        text = _ROLE.sub(role, text)
        if gone and "(" in text:  # what held only references: "(:issue:`6528`, :pull:`1`)"
            text = _EMPTY_PARENS.sub("", text)
    parts = re.split(r"(``[^`]+``|`[^`]+`)", text)  # emphasis marks, never inside code
    text = "".join(p if i % 2 else _EMPHASIS.sub("", p) for i, p in enumerate(parts))
    return " ".join(text.split())


# parentheses left empty by the references taken out of them, "(see :issue:`3`)" too (not
# a call's: ``f()``)
_EMPTY_PARENS = re.compile(
    r"(?:^\s*|(?<!\s)\s+)\((?:\s|[,;&]|\b(?:and|see|also)\b)*\)", re.I
)  # (matched from a run's first space only: linear in a long run of them)


# a reST explicit title: `title <target>` (a space before the target: ``Vec<T>`` is code)
_TITLED = re.compile(r"^(.*?\S)\s+<([^<>\s][^<>]*)>$")


def _shown_span(m: re.Match[str]) -> str:
    """A code span as the docs show it: a reST explicit title without its target
    (```getfixturevalue() <pytest.FixtureRequest.getfixturevalue>``` -> ``getfixturevalue()``),
    ``~a.b.C`` as ``C``, ``!x`` as ``x``."""
    tick = "``" if m.group(1) is not None else "`"
    code = m.group(1) if m.group(1) is not None else m.group(2)
    if (titled := _TITLED.match(code)) is not None:
        code = titled.group(1)
    elif code.startswith("~"):  # the last part of the name, then its call (``f(1.5)``)
        head, paren, call = code[1:].partition("(")
        code = head.rsplit(".", 1)[-1] + paren + call
    elif code.startswith("!"):
        code = code[1:]
    return f"{tick}{code}{tick}"


def shown_text(text: str) -> str:
    """:func:`plain_text`'s words as a reader sees them in the rendered docs: each code
    span without the reST markup of its target (see :func:`_shown_span`)."""
    return _CODE.sub(_shown_span, text) if "<" in text or "~" in text or "!" in text else text


def plain_entry(entry: str) -> str:
    """An entry's name: its bold lead if any, else the whole entry; links as their text.
    A one-word lead that holds its colon is the entry's scope, not its name (``**css:**
    keep …``, as conventional changelogs write it): then the whole entry is the name
    (``**ProfileExecuteDuration**: Cleaned up …`` is named by its lead)."""
    lead = _BOLD_LEAD.match(entry)
    text = (lead.group(1) or lead.group(2)) if lead else entry
    if lead and len(text.split()) == 1 and text.endswith(":"):
        text = entry
    text = _MID_CREDIT.sub(".", _SEE_NOTHING.sub("", plain_text(text)))
    return _CREDIT.sub("", text).rstrip(":：").strip()


# the credit a towncrier entry ends with, its ``:user:`` reference gone ("-- by .")
_CREDIT = re.compile(
    r"\s+(?:--|—|–)\s+by(?:\s*(?:,|and|&))*\s*[.,]?\s*$|\s*\(\s*by\s*\)\s*[.,]?\s*$"
    # xarray's last sentence, "By `Nick Hodgskin <https://github.com/…>`_." (names or
    # handles, twelve words at most, split by spaces or commas: one way to read them)
    r"|(?<=[.)!?])\s+By\s+(?!(?:default|design|now|then|contrast|itself)\b)[^\s.,;:]+"
    r"(?:(?:\s+|\s*,\s*)[^\s.,;:]+){0,11}\.?\s*$"
)  # ("-- by :user:`a` and :user:`b`." reads "-- by and ."; not the option "--by")
# the same credit ending a sentence that others follow (aiohttp's "Improved middleware
# performance -- by :user:`bdraco`." over a paragraph that says what was removed)
_MID_CREDIT = re.compile(r"\s+(?:--|—|–)\s+by(?:\s*(?:,|and|&))*\s*\.(?=\s+\S)")
# what is left of a last sentence that only pointed at issues ("See :issue:`1` and
# :issue:`2`." reads "See and .")
_SEE_NOTHING = re.compile(r"\s*\bSee(?:\s*(?:,|and|&))*\s*[.,]?\s*$")


def code_spans(entry: str) -> list[str]:
    """What an entry writes as code: ```proxies```, ````soft_unicode````, ``:func:`x```."""
    text = _ROLE.sub(lambda m: _role(m, "``"), entry)
    spans = [_target((a or b).strip()) for a, b in _CODE.findall(text)]
    return [s for s in dict.fromkeys(spans) if s]


def _target(code: str) -> str:
    """What a code span names: a reST explicit title's target (```getfixturevalue() <pytest.
    FixtureRequest.getfixturevalue>``` -> ``pytest.FixtureRequest.getfixturevalue``), without
    the ``~``/``!`` marks that change only how the docs show it."""
    if code.endswith(">") and (m := _TITLED.match(code)) is not None:
        code = m.group(2).strip()
    return code.lstrip("~!")
