"""What the authors announce: a commit message marker (``feat!:``, ``BREAKING CHANGE:``,
"this is a breaking change", "can be considered breaking") and the entries a commit adds
under a changelog heading that names breaks (Breaking changes, Breaking, Incompatible,
破坏性变更, 不兼容变更), removals (Removed, Removals, 移除) or deprecations (Deprecated,
Deprecations, 弃用, 废弃; not breaking), in English or Chinese.

An entry counts once: one that was already in the file before the commit (compared by its
plain words, so re-wrapping or re-formatting a changelog announces nothing) is not new. Its
name is its plain text: the bold lead when it has one (``**Reject MD5-only hashes**``), links
reduced to their text, without Markdown emphasis."""

from __future__ import annotations

import re

from commitdigest.analysis.radar.models import ApiChange, CommitView, RadarKind
from commitdigest.models import ApiChangeType

_TITLE_BANG = re.compile(r"^\w+(?:\([^)]*\))?!:\s*(.+)")
_BODY = re.compile(
    r"^BREAKING[ -]CHANGES?:\s*(.+)$"
    r"|(this is a breaking change|can be considered (?:a )?breaking|破坏性变更|不兼容变更)",
    re.I | re.M,
)
_CHANGELOG = re.compile(
    r"(^|/)(CHANGELOG|CHANGES|HISTORY|NEWS|RELEASE[_-]?NOTES)[^/]*$|(^|/)changelog[^/]*$", re.I
)
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_SECTIONS = (  # heading words -> what its entries announce (None: a break, change from words)
    (re.compile(r"breaking|incompatib|破坏性|不兼容|重大变更", re.I), None),
    (re.compile(r"^\W*(?:removed|removals?|移除|删除)\W*$", re.I), ApiChangeType.REMOVED),
    (re.compile(r"^\W*(?:deprecated|deprecations?|弃用|废弃)\W*$", re.I), ApiChangeType.DEPRECATED),
)
_BULLET = re.compile(r"^\s*[-*+]\s+(.+)$")
_BOLD_LEAD = re.compile(r"^\*\*(.+?)\*\*|^__(.+?)__")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|__")


def plain_entry(entry: str) -> str:
    """An entry's name: its bold lead if any, else the whole line; links as their text."""
    lead = _BOLD_LEAD.match(entry)
    text = (lead.group(1) or lead.group(2)) if lead else entry
    text = _EMPHASIS.sub("", _LINK.sub(r"\1", text))
    return " ".join(text.split()).rstrip(":：").strip()


def _key(name: str) -> str:
    return re.sub(r"[\W_]+", " ", name).strip().lower()


def _section_of(heading: str) -> tuple[bool, ApiChangeType | None] | None:
    """(matched, fixed change) for a heading that announces changes, else ``None``."""
    for pattern, change in _SECTIONS:
        if pattern.search(heading.strip()):
            return True, change
    return None


def _entries(text: str) -> list[tuple[int, str, ApiChangeType | None, bool]]:
    """(line, entry, fixed change, breaking) for every top-level bullet under a heading that
    announces breaks, removals or deprecations."""
    out: list[tuple[int, str, ApiChangeType | None, bool]] = []
    level: int | None = None
    section: tuple[bool, ApiChangeType | None] | None = None
    for i, line in enumerate(text.splitlines(), 1):
        h = _HEADING.match(line)
        if h:
            depth = len(h.group(1))
            found = _section_of(h.group(2))
            if found is not None:
                level, section = depth, found
            elif level is not None and depth <= level:
                level, section = None, None
            continue
        b = _BULLET.match(line)
        if section is not None and b and not line.startswith((" ", "\t")):
            change = section[1]
            out.append((i, b.group(1).strip(), change, change is not ApiChangeType.DEPRECATED))
    return out


def detect(view: CommitView) -> list[ApiChange]:
    items: list[ApiChange] = []
    m = _TITLE_BANG.match(view.title)
    if m:
        items.append(
            ApiChange(
                kind=RadarKind.ANNOUNCED,
                change=change_named(m.group(1)),
                name=m.group(1).strip(),
            )
        )
    for bm in _BODY.finditer(view.body):
        what = (bm.group(1) or view.title).strip()
        items.append(
            ApiChange(
                kind=RadarKind.ANNOUNCED,
                change=change_named(what),
                name=what,
            )
        )
    for path in view.paths:
        if not _CHANGELOG.search(path) or view.after.get(path) is None:
            continue
        before = view.before.get(path) or ""
        old = {_key(plain_entry(e)) for _, e, _, _ in _entries(before)}
        old_text = _key(before)  # an entry re-wrapped into new lines was there before too
        for line, entry, change, breaking in _entries(view.after.get(path) or ""):
            name = plain_entry(entry)
            key = _key(name)
            if not key or key in old or (len(key) >= 20 and key in old_text):
                continue
            old.add(key)
            items.append(
                ApiChange(
                    kind=RadarKind.ANNOUNCED,
                    change=change or change_named(entry),
                    name=name[:200],
                    breaking=breaking,
                    path=path,
                    line=line,
                )
            )
    return items


_CHANGE_WORDS = (
    (re.compile(r"\b(?:remov|drop|delet)|移除|删除", re.I), ApiChangeType.REMOVED),
    (re.compile(r"\brenam|重命名", re.I), ApiChangeType.RENAMED),
    (re.compile(r"\bdeprecat|弃用|废弃", re.I), ApiChangeType.DEPRECATED),
    (re.compile(r"\bdefault|默认", re.I), ApiChangeType.DEFAULT_CHANGED),
    (
        re.compile(
            r"\b(?:minimum|bump|upgrade)\b.*\d|\brequires?\s+(?:python|version|\d)"
            r"|(?:python|version)\s*(?:>=|≥)|最低版本|版本要求",
            re.I,
        ),
        ApiChangeType.VERSION_CHANGED,
    ),
)


def change_named(text: str) -> ApiChangeType:
    """How an announced change is described by its own words (else: a signature change)."""
    for pattern, change in _CHANGE_WORDS:
        if pattern.search(text):
            return change
    return ApiChangeType.SIGNATURE_CHANGED
