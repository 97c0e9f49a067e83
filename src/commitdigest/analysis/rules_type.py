"""A commit's change type from the whole commit, and the words that decided it.

In this order (the first that applies wins; ``docs/importance.md`` is the rubric):

1. a revert (``Revert "…"``, ``revert:``, ``[Revert]``);
2. a release: a version in the title (``Release 26.2``, ``release: v8.2.2``, ``merge
   release-3.14 into main``) and a changelog among the files -> ``other``;
3. nothing of the shipped code changed (every file is docs, tests, CI/build or
   dependency manifests, by :func:`classify.area_by_role`): the type those files are. A
   type the title states is taken when its files carry at least a third of the lines
   (``[CI][E2E] Add guards`` that are 430 lines of tests is a test change), so ``[Bugfix]``
   on a test file is ``test`` and ``feat(deps):`` on a manifest is ``dependency``;
4. security: a security word of the title, a ``[Security]`` tag or an advisory id (CVE,
   GHSA) in the message, when the shipped code or a manifest users install changes (a
   bot's bump of a lock file is ``dependency``);
5. the title's own statement: its type tags (``[Bugfix]``) and conventional prefix
   (``fix:``; ``chore: bump …`` is ``dependency``) — :mod:`commitdigest.analysis.tags`;
6. the verb that opens the title's clause (``Preserve …``, ``Add …``, ``Remove unused …``,
   ``caddyhttp: use canonical header keys to avoid …``): :data:`VERB_TYPES`, the object
   deciding between removal and cleanup (:data:`INTERNAL_OBJECTS`);
7. keywords anywhere in the title (:data:`tags.KEYWORD_RULES`);
8. the body: ``Fixes #123``, a crash or a regression it names -> ``bugfix``; "small
   refactoring", "no functional change" -> ``refactor``;
9. otherwise ``other``.

Tests, docs and CI touched beside the code never decide: ``Add X; tests`` is a feature.
"""

from __future__ import annotations

import re
from functools import lru_cache

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.classify import AREA_ORDER, Area
from commitdigest.analysis.rules_facts import CommitFacts
from commitdigest.analysis.tags import (
    CONVENTIONAL_TYPES,
    PRECEDENCE,
    TAG_TYPES,
    about_vulnerabilities,
    keyword_match,
    security_words,
    tag_change_types,
)
from commitdigest.i18n import AREA_NAMES
from commitdigest.models import ChangeType
from commitdigest.text import Sieved

_AREA_TYPES: dict[Area, ChangeType] = {
    Area.DOCS: ChangeType.DOCUMENTATION,
    Area.EXAMPLES: ChangeType.DOCUMENTATION,
    Area.TESTS: ChangeType.TEST,
    Area.BENCHMARKS: ChangeType.TEST,
    Area.CI_BUILD: ChangeType.CI_BUILD,
    Area.DEPENDENCY: ChangeType.DEPENDENCY,
}
# a stated type the non-source files agree with: the areas that carry it
_TYPE_AREAS: dict[ChangeType, frozenset[Area]] = {
    ChangeType.DOCUMENTATION: frozenset({Area.DOCS, Area.EXAMPLES}),
    ChangeType.TEST: frozenset({Area.TESTS, Area.BENCHMARKS}),
    ChangeType.CI_BUILD: frozenset({Area.CI_BUILD}),
    ChangeType.DEPENDENCY: frozenset({Area.DEPENDENCY, Area.CI_BUILD}),  # CI actions too
}
_AGREE_SHARE = 1 / 3

_BUGFIX_VERBS = (
    "fix fixes fixed fixing correct corrects corrected repair repairs resolve resolves handle "
    "handles guard guards prevent prevents stop stops restore restores preserve preserves "
    "respect respects honor honors honour honours ensure ensures keep keeps close closes "
    "reject rejects refuse refuses disallow disallows require requires validate validates "
    "don't dont do-not workaround unbreak"
)
_FEATURE_VERBS = (
    "add adds added adding support supports introduce introduces implement implements allow "
    "allows enable enables expose exposes accept accepts populate populates provide provides "
    "new create creates extend extends teach teaches stabilize stabilise stabilizes "
    "stabilises promote promotes report reports emit emits show shows display displays"
)
_REMOVAL_VERBS = (
    "remove removes removed drop drops dropped delete deletes deprecate deprecates retire sunset"
)
_PERF_VERBS = (
    "speed speedup accelerate optimize optimise optimizes optimises cache caches lazily "
    "preallocate preallocates parallelize parallelise batch"
)
_DEP_VERBS = "bump bumps upgrade upgrades pin pins unpin vendor"
_REFACTOR_VERBS = (
    "refactor refactors clean cleanup move moves rename renames simplify simplifies split "
    "extract extracts consolidate unify deduplicate dedupe reorganize reorganise restructure "
    "rework rewrite replace replaces migrate convert inline tidy modernize standardize share "
    "centralize centralise decouple use"
)
_PERF_IF_WORDS = frozenset(
    [
        "reduce",
        "reduces",
        "cut",
        "cuts",
        "lower",
        "lowers",
        "skip",
        "skips",
        "reuse",
        "reuses",
        "avoid",
        "avoids",
    ]
)
"""Verbs that name a performance change when a performance word follows (``reduce
allocations``), else nothing (``avoid`` alone names a bug fix: ``Avoid panics for …``)."""
VERB_TYPES: dict[str, ChangeType] = {
    **dict.fromkeys(_BUGFIX_VERBS.split(), ChangeType.BUGFIX),
    **dict.fromkeys(_FEATURE_VERBS.split(), ChangeType.FEATURE),
    **dict.fromkeys(_REMOVAL_VERBS.split(), ChangeType.REMOVAL),
    **dict.fromkeys(_PERF_VERBS.split(), ChangeType.PERFORMANCE),
    **dict.fromkeys(_DEP_VERBS.split(), ChangeType.DEPENDENCY),
    **dict.fromkeys(_REFACTOR_VERBS.split(), ChangeType.REFACTOR),
}
"""The verb that opens a title's clause -> the type it usually names."""

INTERNAL_OBJECTS = re.compile(
    r"\b(?:unused|dead|redundant|obsolete|stale|duplicated?|unnecessary|unreachable|leftover"
    r"|no-?op|outdated|patch(?:es)?|monkey-?patch\w*|workarounds?|hacks?|comments?|imports?"
    r"|todo|warnings?|lint|helpers?|usages?)\b",
    re.IGNORECASE,
)
"""What a removal of code users never touch names: a cleanup, not a removal."""
PERF_WORDS = re.compile(
    r"\b(?:speed[- ]?ups?|faster|optimi[sz]\w*|allocations?|allocs?|clones?|deep ?cop(?:y|ies)"
    r"|overhead|hot paths?|fast paths?|latency|throughput|memory usage|lazily|preallocat\w*"
    r"|cpu|re-?canonicali[sz]ation|quadratic)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=1024)  # the rules ask it of the same subject several times per commit
def leading_verb(text: str) -> tuple[ChangeType, str] | None:
    """The type the verb opening ``text`` names, and that verb; ``None`` for another word."""
    words = re.findall(r"[A-Za-z][\w'-]*", text)
    if not words:
        return None
    verb = words[0].lower()
    if verb in ("do", "does") and len(words) > 1 and words[1].lower() == "not":
        verb = "do-not"
    if verb == "speed" and len(words) > 1 and words[1].lower() != "up":
        return None
    rest = text[len(words[0]) :]
    if verb in _PERF_IF_WORDS:
        if PERF_WORDS.search(rest):
            return ChangeType.PERFORMANCE, words[0]
        return (ChangeType.BUGFIX, words[0]) if verb.startswith("avoid") else None
    found = VERB_TYPES.get(verb)
    if found is None:
        return None
    if found is ChangeType.REMOVAL:
        if PERF_WORDS.search(rest):
            return ChangeType.PERFORMANCE, words[0]
        if INTERNAL_OBJECTS.search(rest):
            return ChangeType.REFACTOR, words[0]
    if found in (ChangeType.BUGFIX, ChangeType.REFACTOR) and PERF_WORDS.search(rest):
        return ChangeType.PERFORMANCE, words[0]  # "use canonical keys to avoid re-canonicalization"
    return found, words[0]


_Stated = tuple[ChangeType, str, str]
"""(type, note key, quoted words): what a title states of its type."""


def _stated(facts: CommitFacts) -> _Stated | None:
    """(type, note key, quoted words) from the title's tags or conventional prefix."""
    info = facts.info
    tagged = tag_change_types(info)
    if not tagged:
        return None
    best = min(tagged, key=PRECEDENCE.index)
    tags = [
        f"[{t}]" for t, k in zip(info.tags, info.tag_keys, strict=True) if TAG_TYPES.get(k) == best
    ]
    if tags:
        return best, "type_tag", ", ".join(tags)
    conv = info.conventional_type or ""
    assert conv in CONVENTIONAL_TYPES
    scope = f"({info.conventional_scope})" if info.conventional_scope is not None else ""
    prefix = f"{conv}{scope}{'!' if info.breaking else ''}:"
    verb = leading_verb(info.subject)
    if (
        best in (ChangeType.REFACTOR, ChangeType.CI_BUILD, ChangeType.BUGFIX)
        and verb is not None
        and verb[0] is ChangeType.DEPENDENCY
    ):  # "chore: bump actions/checkout", "fix(deps): update module x"
        return ChangeType.DEPENDENCY, "type_conventional", f"{prefix} {verb[1]}"
    return best, "type_conventional", prefix


def _from_title(facts: CommitFacts) -> _Stated | None:
    """(type, note key, quoted words) the title states or names."""
    if stated := _stated(facts):
        return stated
    info = facts.info
    if found := leading_verb(info.subject):
        return found[0], "type_verb", found[1]
    if m := PERF_WORDS.search(info.subject):  # "allocate the request UUID lazily"
        return ChangeType.PERFORMANCE, "type_keyword", m.group(0)
    for text in dict.fromkeys((info.subject, info.clean_title)):
        if found_kw := keyword_match(text):
            return found_kw[0], "type_keyword", found_kw[1]
    return None


def _non_source(
    facts: CommitFacts, areas: frozenset[Area], stated: _Stated | None, lang: str
) -> tuple[ChangeType, str]:
    lines = {a: facts.areas[a].lines or facts.areas[a].files for a in areas}
    total = sum(lines.values()) or 1
    if stated:
        kind, key, words = stated
        carriers = _TYPE_AREAS.get(kind, frozenset()) & areas
        if carriers and sum(lines[a] for a in carriers) / total >= _AGREE_SHARE:
            return kind, rt.tr(lang, key, words=rt.code_span(words))
    dominant = max(AREA_ORDER, key=lambda a: (lines.get(a, -1), -AREA_ORDER.index(a)))
    names = [AREA_NAMES[lang][a] for a in AREA_ORDER if a in areas]
    return _AREA_TYPES[dominant], rt.tr(lang, "type_files", area=rt.join_list(names, lang))


def change_type(facts: CommitFacts, lang: str) -> tuple[ChangeType, str]:
    """The commit's type and the note that says which words or files decided it."""
    info = facts.info
    if info.is_revert:
        return ChangeType.REVERT, rt.tr(lang, "type_revert")
    if facts.release:
        return ChangeType.OTHER, rt.tr(lang, "type_release")
    areas = frozenset(a for a in facts.areas if a is not Area.GENERATED)
    shipped = Area.SOURCE in areas or facts.installs_dependencies
    if facts.vendored_lines and Area.SOURCE not in areas:
        other = sum(facts.areas[a].lines for a in areas)
        if facts.vendored_lines >= other:  # "Upgrade packaging to 26.3" in src/pip/_vendor
            return ChangeType.DEPENDENCY, rt.tr(lang, "type_vendored")
    stated = _from_title(facts)  # (its tags, its prefix, its verb; asked once)
    if areas and Area.SOURCE not in areas:
        security = _security_words(facts, stated)
        if security and facts.installs_dependencies and not facts.bot:
            return ChangeType.SECURITY, rt.tr(lang, "type_security", word=rt.code_span(security))
        return _non_source(facts, areas, stated, lang)
    if (shipped or not areas) and (security := _security_words(facts, stated)):
        return ChangeType.SECURITY, rt.tr(lang, "type_security", word=rt.code_span(security))
    if (shipped or not areas) and facts.advisory_fork:
        return ChangeType.SECURITY, rt.tr(lang, "type_advisory_fork")
    not_removal = ""  # why the title's removal word is not taken for one
    if stated:
        kind, key, words = stated
        verb = leading_verb(info.subject)
        if (
            kind is ChangeType.REFACTOR
            and facts.user_facing
            and verb is not None
            and verb[0] is ChangeType.REMOVAL
        ):  # "[Refactor] remove FlashComm v1" whose template answers "Delete flashcomm1."
            return ChangeType.REMOVAL, rt.tr(lang, "type_user_facing", words=rt.code_span(verb[1]))
        if not (kind is ChangeType.REMOVAL and _removes_no_code(facts, key, words)):
            return kind, rt.tr(lang, key, words=rt.code_span(words))
        # "delete … metric on config reload" (+2/−0): what the code now does, no removal
        not_removal = rt.tr(lang, "type_removes_nothing", words=rt.code_span(words))
    kind, note = _from_message(facts, lang)
    if not not_removal:
        return kind, note
    if kind is ChangeType.OTHER:
        return kind, not_removal
    return kind, rt.join_sentences([not_removal, note], lang)


def _from_message(facts: CommitFacts, lang: str) -> tuple[ChangeType, str]:
    """The type of a commit whose title states none: what its message or the name of its
    merged branch says, else none (other)."""
    if facts.body_statement:
        return ChangeType.BUGFIX, rt.tr(lang, "type_body", words=rt.code_span(facts.body_statement))
    if m := _BODY_REFACTOR.search(facts.excerpt):
        words = rt.code_span(m.group(0))
        return ChangeType.REFACTOR, rt.tr(lang, "type_body_refactor", words=words)
    if facts.branch_type is not None:  # "Merge pull request #N from someone/fix/…"
        kind, branch = facts.branch_type
        return kind, rt.tr(lang, "type_branch", branch=rt.code_span(branch))
    return ChangeType.OTHER, rt.tr(lang, "type_unknown")


_TAKES_AWAY = frozenset(
    (
        *("remove", "removes", "removed", "removing"),
        *("drop", "drops", "dropped", "dropping"),
        *("delete", "deletes", "deleted", "deleting"),
    )
)
"""The words of a removal that take code away (to deprecate, retire or sunset something
adds a warning, and removes nothing)."""


def _removes_no_code(facts: CommitFacts, key: str, words: str) -> bool:
    """Whether the title's removal word (a verb or keyword, not a tag or prefix the project
    chose) cannot name a removal: the commit removes no line and no file of source code. The
    word then says what the code now does at run time (prometheus' "delete
    last_update_timestamp metric on config reload", uv's "Remove dangling archives in `uv
    cache clean`")."""
    src = facts.areas.get(Area.SOURCE)
    return (
        key in ("type_verb", "type_keyword")
        and words.lower() in _TAKES_AWAY
        and src is not None
        and src.known
        and src.deletions == 0
        and src.deleted == 0
    )


_BODY_REFACTOR = re.compile(
    r"\brefactor\w*|\bno (?:functional|behaviou?r(?:al)?|user-facing) changes?\b"
    r"|\bpure (?:refactor\w*|cleanup)\b",
    re.IGNORECASE,
)
"""What a message says when the change restructures code and nothing else."""
_BODY_SECURITY = Sieved(
    r"\battacker\w*|\bexploit\w*|\bvulnerab\w*|\bXSS\b|\bCSRF\b|\bSSRF\b|\bRCE\b"
    r"|\bpath traversal\b|\b(?:auth\w*|access[- ]control) bypass\w*|\bprivilege escalation\b",
    ("attacker", "exploit", "vulnerab", "xss", "csrf", "ssrf", "rce", "path traversal",
     " bypass", "privilege escalation"),
    re.IGNORECASE,
)  # fmt: skip
"""What a message says when it fixes a vulnerability (not "security" or "injection" alone:
release notes and dependency injection say them too)."""


def _security_words(facts: CommitFacts, stated: _Stated | None) -> str:
    """The words that make it a security fix: the title's, a ``[Security]`` tag, an
    advisory id; ``""`` for none. ``stated``: what the title states (:func:`_from_title`):
    "vulnerabilities" where it states a feature are what the feature is about."""
    kind = stated[0] if stated is not None else None
    if words := security_words(facts.info.title, kind):
        return words[0]
    m = _BODY_SECURITY.search(facts.excerpt)
    if m and not (
        m.group(0).lower().startswith("vulnerab")
        and about_vulnerabilities(f"{facts.info.title}\n{facts.excerpt}", kind)
    ):
        return m.group(0)
    if any(TAG_TYPES.get(k) is ChangeType.SECURITY for k in facts.info.tag_keys):
        return next(f"[{t}]" for t, k in zip(facts.info.tags, facts.info.tag_keys, strict=True)
                    if TAG_TYPES.get(k) is ChangeType.SECURITY)  # fmt: skip
    if facts.advisories:
        return facts.advisories[0]
    return ""
