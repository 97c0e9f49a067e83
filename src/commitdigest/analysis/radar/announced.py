"""Breaks the authors announce: a commit message marker (``feat!:``, ``BREAKING CHANGE:``,
"this is a breaking change", "can be considered breaking") and the entries added under a
breaking-changes heading of a changelog (English and Chinese headings)."""

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
_BREAKING_HEADING = re.compile(r"breaking|incompatib|破坏性|不兼容|重大变更", re.I)
_BULLET = re.compile(r"^\s*[-*+]\s+(.+)$")


def _breaking_entries(text: str) -> list[tuple[int, str]]:
    """(line, entry) for every bullet under a breaking-changes heading."""
    out: list[tuple[int, str]] = []
    level: int | None = None
    for i, line in enumerate(text.splitlines(), 1):
        h = _HEADING.match(line)
        if h:
            depth = len(h.group(1))
            if _BREAKING_HEADING.search(h.group(2)):
                level = depth
            elif level is not None and depth <= level:
                level = None
            continue
        b = _BULLET.match(line)
        if level is not None and b and not line.startswith((" ", "\t")):
            out.append((i, b.group(1).strip()))
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
                detail="breaking (title `!`)",
            )
        )
    for bm in _BODY.finditer(view.body):
        what = (bm.group(1) or view.title).strip()
        items.append(
            ApiChange(
                kind=RadarKind.ANNOUNCED,
                change=change_named(what),
                name=what,
                detail="breaking (message)",
            )
        )
    for path in view.paths:
        if not _CHANGELOG.search(path) or view.after.get(path) is None:
            continue
        old = {e for _, e in _breaking_entries(view.before.get(path) or "")}
        for line, entry in _breaking_entries(view.after.get(path) or ""):
            if entry not in old:
                items.append(
                    ApiChange(
                        kind=RadarKind.ANNOUNCED,
                        change=change_named(entry),
                        name=entry[:200],
                        detail="breaking (changelog)",
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
    (re.compile(r"\b(?:require|minimum|bump|upgrade)|版本", re.I), ApiChangeType.VERSION_CHANGED),
)


def change_named(text: str) -> ApiChangeType:
    """How an announced change is described by its own words (else: a signature change)."""
    for pattern, change in _CHANGE_WORDS:
        if pattern.search(text):
            return change
    return ApiChangeType.SIGNATURE_CHANGED
