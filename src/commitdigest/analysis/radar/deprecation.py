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


def _marks(text: str | None) -> list[tuple[int, str]]:
    return [(i + 1, line) for i, line in enumerate((text or "").splitlines()) if _MARK.search(line)]


def detect(view: CommitView) -> list[ApiChange]:
    items: list[ApiChange] = []
    for path in view.paths:
        if not path.endswith(".py") or is_test_or_docs(path):
            continue
        after_text = view.after.get(path) or ""
        if not _MARK.search(after_text):
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
