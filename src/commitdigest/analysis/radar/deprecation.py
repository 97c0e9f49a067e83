"""New deprecations in non-test code: ``DeprecationWarning``/``FutureWarning`` raised or
``@deprecated`` added (a warning for users, not a break)."""

from __future__ import annotations

import re

from commitdigest.analysis.radar.models import ApiChange, CommitView, RadarKind, is_test_or_docs
from commitdigest.models import ApiChangeType

_MARK = re.compile(
    r"DeprecationWarning|FutureWarning|PendingDeprecationWarning|@deprecated\b|\bdeprecated\("
)
_NAME = re.compile(
    r"""["'`]([A-Za-z_][\w.]*(?:\(\))?)["'`]\s*(?:is|was|has been)?\s*deprecated"""
    r"""|deprecated[^"'\n]*["'`]([A-Za-z_][\w.]*)""",
    re.I,
)


def wants(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may add a deprecation."""
    ok = path.endswith(".py") and not is_test_or_docs(path)
    return ok and (changed is None or _MARK.search(changed) is not None)


def _maybe_marked(text: str) -> bool:
    """A fast substring test before the regex (most modules deprecate nothing)."""
    return "eprecat" in text or "FutureWarning" in text


def _marks(text: str | None) -> list[tuple[int, str]]:
    """(line number, line) of every line with a deprecation marker (one regex pass)."""
    text = text or ""
    out: list[tuple[int, str]] = []
    if not _maybe_marked(text):
        return out
    last = -1
    for m in _MARK.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        if start == last:
            continue
        last = start
        end = text.find("\n", m.end())
        out.append((text.count("\n", 0, start) + 1, text[start : end if end >= 0 else None]))
    return out


def detect(view: CommitView) -> list[ApiChange]:
    items: list[ApiChange] = []
    for path in view.paths:
        if not path.endswith(".py") or is_test_or_docs(path):
            continue
        after_text = view.after.get(path) or ""
        if not view.touches(path, _MARK) or not _maybe_marked(after_text):
            continue
        before = {line.strip() for _, line in _marks(view.before.get(path))}
        lines = after_text.splitlines()
        for lineno, line in _marks(after_text):
            if line.strip() in before:
                continue
            context = " ".join(lines[max(0, lineno - 4) : lineno + 2])
            m = _NAME.search(context)
            what = (m.group(1) or m.group(2)) if m else line.strip()[:80]
            items.append(
                ApiChange(
                    kind=RadarKind.DEPRECATION,
                    change=ApiChangeType.DEPRECATED,
                    name=what,
                    path=path,
                    line=lineno,
                    breaking=False,
                )
            )
    return items
