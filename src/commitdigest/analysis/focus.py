"""A subscription's focus raises the importance of the commits that touch it.

The focus (path globs, keywords) comes from the repository's entry in the config file.
The bump is applied after the cache, so changing the focus needs no re-analysis; the
free-text ``emphasis`` goes to the LLM prompt instead (see the analysis runner).
"""

from __future__ import annotations

from collections.abc import Sequence

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.classify import Area, classify_path
from commitdigest.config.subscriptions import Focus
from commitdigest.i18n import ANALYSIS_STRINGS, pick

from ..models import Analysis, Commit, Importance

_BUMP = {
    Importance.LOW: Importance.MEDIUM,
    Importance.MEDIUM: Importance.HIGH,
    Importance.HIGH: Importance.HIGH,
}


def make_focus(paths: Sequence[str], keywords: Sequence[str]) -> Focus | None:
    return Focus(paths=list(paths), keywords=list(keywords)) if paths or keywords else None


_NOT_THE_CODE = frozenset({Area.DEPENDENCY, Area.GENERATED, Area.CI_BUILD})
"""Files whose change does not make a commit about the focus: a version bump touches every
crate's manifest, a lock file every package."""


def apply_focus(analysis: Analysis, commit: Commit, focus: Focus | None, lang: str) -> Analysis:
    """``analysis`` with its importance raised one level when ``commit`` touches ``focus``
    (a path of its code, tests or docs, or a keyword of its message), with a note naming
    what matched."""
    if focus is None:
        return analysis
    paths = [
        p
        for f in commit.files
        for p in (f.path, f.old_path)
        if p and classify_path(p) not in _NOT_THE_CODE
    ]
    found = focus.match(paths, f"{commit.title}\n{commit.body}")
    if found is None:
        return analysis
    kind, what = found
    strings = pick(ANALYSIS_STRINGS, lang)
    note = strings[f"focus_{kind}"].format(what=rt.code_span(what))
    return analysis.model_copy(
        update={"importance": _BUMP[analysis.importance], "notes": [*analysis.notes, note]}
    )
