"""A subscription's focus raises the importance of the commits that touch it.

The focus (path globs, keywords: :class:`~commitdigest.models.Focus`) comes from the
repository's entry in the config file; this module says what matches it
(:func:`match_focus`: a changed path a glob matches, or a keyword of the message). The
bump is applied after the cache, so changing the focus needs no re-analysis; the free-text
``emphasis`` goes to the LLM prompt instead (see the analysis runner).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.classify import Area, classify_path
from commitdigest.i18n import ANALYSIS_STRINGS, pick

from ..models import Analysis, Commit, Focus, Importance

_BUMP = {
    Importance.LOW: Importance.MEDIUM,
    Importance.MEDIUM: Importance.HIGH,
    Importance.HIGH: Importance.HIGH,
}


@lru_cache(maxsize=512)
def paths_regex(globs: tuple[str, ...]) -> re.Pattern[str] | None:
    """One regex for a focus's globs (None for none); see :func:`glob_to_regex`."""
    if not globs:
        return None
    return re.compile("|".join(f"(?:{glob_to_regex(g)})" for g in globs))


def glob_to_regex(glob: str) -> str:
    """A path glob as a full-match regex, gitignore-like.

    ``*`` and ``?`` stay within one path segment, ``**`` crosses segments (``a/**/b``
    also matches ``a/b``), ``[...]`` is a character class (``[!...]`` negated). A glob
    without a ``/`` (``*.cu``) matches at any depth; a leading ``/`` anchors it at the
    root; a glob that names a folder (``vllm/platforms``, ``docs/``) matches what is in it.
    """
    anchored = glob.startswith("/")
    g = glob.strip("/")
    if not anchored and "/" not in g:
        g = "**/" + g
    out: list[str] = []
    i, n = 0, len(g)
    while i < n:
        if g.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif g.startswith("**", i):
            out.append(".*")
            i += 2
        elif g[i] == "*":
            out.append("[^/]*")
            i += 1
        elif g[i] == "?":
            out.append("[^/]")
            i += 1
        elif g[i] == "[" and (end := _class_end(g, i)) > 0:
            body = g[i + 1 : end].replace("\\", "\\\\")
            out.append("[" + ("^" + body[1:] if body[:1] in "!^" else body) + "]")
            i = end + 1
        else:
            out.append(re.escape(g[i]))
            i += 1
    return "^" + "".join(out) + "(?:/.*)?$"


def _class_end(glob: str, start: int) -> int:
    j = start + 1
    if j < len(glob) and glob[j] in "!^":
        j += 1
    if j < len(glob) and glob[j] == "]":
        j += 1
    return glob.find("]", j)


def keyword_hit(keyword: str, text: str) -> bool:
    """Case-insensitive; a keyword starting with a letter or digit must start a word.

    ``npu`` matches ``NPU``, ``torch_npu``, ``npus``, ``AscendNPU`` (a camelCase start),
    not ``inputs``; a keyword in Chinese (or starting with a symbol) matches anywhere.
    """
    for m in re.finditer(re.escape(keyword), text, re.IGNORECASE):
        i = m.start()
        if i == 0 or not (keyword[0].isascii() and keyword[0].isalnum()):
            return True
        before = text[i - 1]
        if not (before.isascii() and before.isalnum()) or (before.islower() and text[i].isupper()):
            return True
    return False


def match_focus(focus: Focus, paths: Sequence[str], text: str) -> tuple[str, str] | None:
    """What of ``focus`` matched first: ``("path", the changed path)`` — a glob matches
    one of ``paths`` — or ``("keyword", the keyword)`` — ``text`` holds it; ``None`` when
    nothing did."""
    regex = paths_regex(focus.paths)
    if regex is not None:
        for path in paths:
            if regex.match(path):
                return "path", path
    for keyword in focus.keywords:
        if keyword_hit(keyword, text):
            return "keyword", keyword
    return None


def focus_matches(focus: Focus, paths: Sequence[str], text: str) -> bool:
    """Whether a changed path matches a glob of ``focus`` or ``text`` holds a keyword."""
    return match_focus(focus, paths, text) is not None


_NOT_THE_CODE = frozenset({Area.DEPENDENCY, Area.GENERATED, Area.CI_BUILD})
"""Files whose change does not make a commit about the focus: a version bump touches every
crate's manifest, a lock file every package."""


def apply_focus(analysis: Analysis, commit: Commit, focus: Focus | None, lang: str) -> Analysis:
    """``analysis`` with its importance raised one level when ``commit`` touches ``focus``
    (a path of its code, tests or docs, or a keyword of its message), with a note naming
    what matched."""
    if focus is None or not (focus.paths or focus.keywords):
        return analysis
    paths = [
        p
        for f in commit.files
        for p in (f.path, f.old_path)
        if p and classify_path(p) not in _NOT_THE_CODE
    ]
    found = match_focus(focus, paths, f"{commit.title}\n{commit.body}")
    if found is None:
        return analysis
    kind, what = found
    strings = pick(ANALYSIS_STRINGS, lang)
    note = strings[f"focus_{kind}"].format(what=rt.code_span(what))
    return analysis.model_copy(
        update={"importance": _BUMP[analysis.importance], "notes": [*analysis.notes, note]}
    )
