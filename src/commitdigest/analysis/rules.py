"""The rule-based analyser: deterministic, offline, and honest about its evidence.

Change type: :mod:`commitdigest.analysis.tags` (title), else the files touched.

Importance: a small additive score, each point backed by a note (``Analysis.notes``)::

    core source size  lines ≥30 / ≥300 / ≥1000 -> 1 / 2 / 3; when no line count is
                      known: files <10 / ≥10 / ≥30 -> 1 / 2 / 3
    breadth           ≥4 source components                      +1
    dependency        a dependency manifest or lockfile changed +1
    removed API       public module-level def/class removed     +2
    moved modules     Python source files deleted or renamed    +1
    revert                                                      +1
    removal type      removal / deprecation                     +1
    feature type      new feature or model                      +1
    security words    CVE, vulnerability, injection, RCE ...    +3
    breaking marker   ``!:`` or ``BREAKING CHANGE``             +3

    score ≥ 3 -> high, ≥ 1 -> medium, else low
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.paths import AREA_ORDER, Area, classify_path, component_of
from commitdigest.analysis.paths import is_python_source as _is_py
from commitdigest.analysis.tags import (
    CONVENTIONAL_TYPES,
    PRECEDENCE,
    SECURITY_RE,
    TAG_TYPES,
    TitleInfo,
    keyword_match,
    parse_title,
    tag_change_types,
)
from commitdigest.models import (
    Analysis,
    ChangeType,
    Commit,
    FileChange,
    FileStatus,
    Importance,
    Insight,
    Risk,
)

RULES_VERSION = "1"

HIGH_SCORE = 3
MEDIUM_SCORE = 1
MAX_IMPACT = 8

_DEF_RE = re.compile(r"^([+-])(?:async\s+def|def|class)\s+([A-Za-z_]\w*)")
_BREAKING_RE = re.compile(r"\bBREAKING[ -]CHANGES?\b")
_FILES_ONLY_TYPES: dict[frozenset[Area], ChangeType] = {
    frozenset({Area.DOCS}): ChangeType.DOCUMENTATION,
    frozenset({Area.TESTS}): ChangeType.TEST,
    frozenset({Area.CI_BUILD}): ChangeType.CI_BUILD,
    frozenset({Area.DEPENDENCY}): ChangeType.DEPENDENCY,
    frozenset({Area.DEPENDENCY, Area.CI_BUILD}): ChangeType.DEPENDENCY,
}


@dataclass
class _Group:
    """Files, line counts and components of one area or one component."""

    files: int = 0
    additions: int = 0
    deletions: int = 0
    known: bool = False  # some file had known line counts
    components: dict[str, None] = field(default_factory=dict)  # ordered set

    def add(self, f: FileChange, component: str) -> None:
        self.files += 1
        self.components[component] = None
        if f.additions is not None and f.deletions is not None:
            self.additions += f.additions
            self.deletions += f.deletions
            self.known = True

    @property
    def lines(self) -> int:
        return self.additions + self.deletions


@dataclass
class _Facts:
    """Everything the analyser knows about a commit, computed once."""

    info: TitleInfo
    excerpt: str
    areas: dict[Area, _Group]
    components: dict[str, _Group]
    removed_api: list[str]
    moved_modules: list[str]
    dependency_paths: list[str]
    security_words: list[str]
    breaking_marker: str | None


def _removed_public_defs(files: list[FileChange]) -> list[str]:
    removed: dict[str, None] = {}
    added: set[str] = set()
    for f in files:
        for line in f.patch.splitlines():
            if line.startswith(("---", "+++")):
                continue
            if m := _DEF_RE.match(line):
                if m.group(1) == "-":
                    removed[m.group(2)] = None
                else:
                    added.add(m.group(2))
    return [n for n in removed if n not in added and not n.startswith("_")]


def _facts(commit: Commit) -> _Facts:
    info = parse_title(commit.title)
    areas: dict[Area, _Group] = {}
    components: dict[str, _Group] = {}
    source: list[FileChange] = []
    moved: list[str] = []
    deps: list[str] = []
    for f in commit.files:
        area = classify_path(f.path)
        comp = component_of(f.path, area)
        areas.setdefault(area, _Group()).add(f, comp)
        components.setdefault(comp, _Group()).add(f, comp)
        if area is Area.SOURCE:
            source.append(f)
            if f.status is FileStatus.DELETED and _is_py(f.path):
                moved.append(f.path)
        elif area is Area.DEPENDENCY:
            deps.append(f.path)
        old = f.old_path
        if (
            f.status is FileStatus.RENAMED
            and old
            and _is_py(old)
            and classify_path(old) is Area.SOURCE
        ):
            moved.append(old)
    excerpt = rt.first_paragraph(commit.body)
    words = dict.fromkeys(m.group(0) for m in SECURITY_RE.finditer(f"{info.title}\n{excerpt}"))
    marker: str | None = None
    if info.breaking:
        marker = "!:"
    elif _BREAKING_RE.search(f"{info.title}\n{commit.body}"):
        marker = "BREAKING CHANGE"
    return _Facts(
        info=info,
        excerpt=excerpt,
        areas=areas,
        components=components,
        removed_api=_removed_public_defs(source),
        moved_modules=moved,
        dependency_paths=deps,
        security_words=list(words),
        breaking_marker=marker,
    )


# ---- change type --------------------------------------------------------------------------


def _change_type(facts: _Facts, lang: str) -> tuple[ChangeType, str]:
    info = facts.info
    if info.is_revert:
        return ChangeType.REVERT, rt.tr(lang, "type_revert")
    if m := SECURITY_RE.search(info.title):
        return ChangeType.SECURITY, rt.tr(lang, "type_security", word=rt.code_span(m.group(0)))
    tagged = tag_change_types(info)
    if tagged:
        best = min(tagged, key=PRECEDENCE.index)
        pairs = zip(info.tags, info.tag_keys, strict=True)
        tags = [f"[{t}]" for t, k in pairs if TAG_TYPES.get(k) == best]
        if tags:
            return best, rt.tr(lang, "type_tag", tags=rt.code_list(tags, lang))
        conv = info.conventional_type or ""
        assert conv in CONVENTIONAL_TYPES
        scope = f"({info.conventional_scope})" if info.conventional_scope is not None else ""
        prefix = f"{conv}{scope}{'!' if info.breaking else ''}:"
        return best, rt.tr(lang, "type_conventional", prefix=rt.code_span(prefix))
    if found := keyword_match(info.clean_title):
        return found[0], rt.tr(lang, "type_keyword", word=rt.code_span(found[1]))
    areas = frozenset(a for a in facts.areas if a is not Area.GENERATED)
    if areas in _FILES_ONLY_TYPES:
        names = [rt.AREA_NAMES[lang][a] for a in AREA_ORDER if a in areas]
        return _FILES_ONLY_TYPES[areas], rt.tr(lang, "type_files", area=rt.join_list(names, lang))
    return ChangeType.OTHER, rt.tr(lang, "type_unknown")


# ---- importance ---------------------------------------------------------------------------


def _size_points(group: _Group) -> int:
    if group.known:
        lines = group.lines
        return 3 if lines >= 1000 else 2 if lines >= 300 else 1 if lines >= 30 else 0
    # line counts unknown: judge by files; a change of unknown size counts as ordinary (1)
    return 3 if group.files >= 30 else 2 if group.files >= 10 else 1


def _importance(facts: _Facts, change_type: ChangeType, lang: str) -> tuple[Importance, list[str]]:
    notes: list[str] = []
    score = 0
    src = facts.areas.get(Area.SOURCE)
    if src is not None:
        comps = str(len(src.components))
        if src.known:
            lines = rt.fmt_int(src.lines)
            notes.append(
                rt.tr(
                    lang,
                    "ev_source_size",
                    lines=lines,
                    files=rt.n_files(src.files, lang),
                    comps=comps,
                )
            )
        else:
            notes.append(
                rt.tr(lang, "ev_source_files", files=rt.n_files(src.files, lang), comps=comps)
            )
        score += _size_points(src) + (1 if len(src.components) >= 4 else 0)
    elif facts.areas:
        names = [rt.AREA_NAMES[lang][a] for a in AREA_ORDER if a in facts.areas]
        notes.append(rt.tr(lang, "ev_non_source", areas=rt.join_list(names, lang)))
    else:
        notes.append(rt.tr(lang, "ev_no_files"))

    def evidence(points: int, key: str, **kwargs: str) -> None:
        nonlocal score
        score += points
        notes.append(rt.tr(lang, key, **kwargs))

    if facts.dependency_paths:
        evidence(1, "ev_dependency", paths=rt.code_list(facts.dependency_paths, lang))
    if facts.removed_api:
        evidence(2, "ev_removed_api", names=rt.code_list(facts.removed_api, lang))
    if facts.moved_modules:
        evidence(1, "ev_removed_files", paths=rt.code_list(facts.moved_modules, lang))
    if change_type is ChangeType.REVERT:
        evidence(1, "ev_revert")
    if change_type is ChangeType.REMOVAL:
        evidence(1, "ev_removal")
    if change_type is ChangeType.FEATURE:
        evidence(1, "ev_feature")
    if facts.security_words:
        evidence(3, "ev_security", words=rt.code_list(facts.security_words, lang))
    if facts.breaking_marker:
        evidence(3, "ev_breaking", marker=rt.code_span(facts.breaking_marker))
    level = (
        Importance.HIGH
        if score >= HIGH_SCORE
        else Importance.MEDIUM
        if score >= MEDIUM_SCORE
        else Importance.LOW
    )
    notes.append(rt.tr(lang, "ev_score", score=str(score)))
    return level, notes


# ---- text ---------------------------------------------------------------------------------


def _lines_text(group: _Group) -> str:
    return rt.fmt_lines(group.additions, group.deletions) if group.known else ""


def _summary(facts: _Facts, commit: Commit, lang: str) -> str:
    title = rt.escape_md_inline(facts.info.clean_title)
    end = rt.tr(lang, "sentence_end")
    parts = [title if title.endswith((".", "!", "?", "。", "！", "？")) else title + end]
    if facts.excerpt:
        parts.append(rt.escape_md_inline(rt.cut_text(facts.excerpt)))
    if facts.areas:
        shape = []
        for area in AREA_ORDER:
            if (g := facts.areas.get(area)) is None:
                continue
            lines = (
                rt.tr(lang, "shape_lines", lines=_lines_text(g))
                if g.known
                else rt.tr(lang, "shape_unknown")
            )
            name = rt.AREA_NAMES[lang][area]
            files = rt.n_files(g.files, lang)
            shape.append(rt.tr(lang, "shape_part", area=name, files=files, lines=lines))
        parts.append(rt.tr(lang, "shape", parts=rt.tr(lang, "shape_sep").join(shape)))
    elif not commit.files:
        parts.append(rt.tr(lang, "no_files"))
    if lang != "zh":
        return " ".join(parts)
    out = parts[0]
    for part in parts[1:]:
        out += (" " if out[-1:].isascii() else "") + part
    return out


def _impact(facts: _Facts, lang: str) -> list[str]:
    ranked = sorted(facts.components.items(), key=lambda kv: (-kv[1].lines, -kv[1].files, kv[0]))
    out = []
    for comp, g in ranked[:MAX_IMPACT]:
        lines = rt.tr(lang, "impact_lines", lines=_lines_text(g)) if g.known else ""
        files = rt.n_files(g.files, lang)
        out.append(rt.tr(lang, "impact", comp=rt.code_span(comp), lines=lines, files=files))
    if len(ranked) > MAX_IMPACT:
        out.append(rt.tr(lang, "impact_more", n=str(len(ranked) - MAX_IMPACT)))
    return out


def _advice(
    facts: _Facts, change_type: ChangeType, lang: str
) -> tuple[list[Insight], list[Risk], list[str]]:
    """Insights, risks and recommendations that follow from the evidence, nothing more."""
    insights: list[Insight] = []
    risks: list[Risk] = []
    recs: list[str] = []

    def risk(key: str, **kw: str) -> None:
        risks.append(
            Risk(
                risk=rt.tr(lang, key, **kw),
                effect=rt.tr(lang, key + "_effect", **kw),
                mitigation=rt.tr(lang, key + "_fix", **kw),
            )
        )

    src = facts.areas.get(Area.SOURCE)
    comps = list(src.components) if src else []
    comp_list = rt.code_list(comps, lang)
    if facts.security_words:
        words = rt.code_list(facts.security_words, lang)
        insights.append(Insight(dimension="security", text=rt.tr(lang, "in_security", words=words)))
        risk("rk_security")
        recs.append(rt.tr(lang, "rec_security"))
    if facts.breaking_marker:
        risk("rk_breaking")
        recs.append(rt.tr(lang, "rec_breaking"))
    if facts.removed_api:
        names = rt.code_list(facts.removed_api, lang)
        text = rt.tr(lang, "in_removed_api", names=names)
        insights.append(Insight(dimension="compatibility", text=text))
        risk("rk_removed_api", names=names)
        recs.append(rt.tr(lang, "rec_search_api", names=names))
    if facts.moved_modules:
        paths = rt.code_list(facts.moved_modules, lang)
        text = rt.tr(lang, "in_moved_files", paths=paths)
        insights.append(Insight(dimension="compatibility", text=text))
        risk("rk_moved_files", paths=paths)
        recs.append(rt.tr(lang, "rec_imports", paths=paths))
    if facts.dependency_paths:
        paths = rt.code_list(facts.dependency_paths, lang)
        risk("rk_dependency", paths=paths)
        recs.append(rt.tr(lang, "rec_dependency", paths=paths))
    if change_type is ChangeType.REVERT:
        insights.append(Insight(dimension="compatibility", text=rt.tr(lang, "in_revert")))
        risk("rk_revert")
        recs.append(rt.tr(lang, "rec_revert"))
    if len(comps) >= 4:
        text = rt.tr(lang, "in_breadth", n=str(len(comps)), comps=comp_list)
        insights.append(Insight(dimension="architecture", text=text))
        recs.append(rt.tr(lang, "rec_broad", comps=comp_list))
    if src is not None and src.known and src.deletions > src.additions and src.lines >= 100:
        text = rt.tr(lang, "in_net_deletion", lines=_lines_text(src))
        insights.append(Insight(dimension="maintainability", text=text))
    if change_type is ChangeType.PERFORMANCE:
        insights.append(Insight(dimension="performance", text=rt.tr(lang, "in_perf")))
        recs.append(rt.tr(lang, "rec_perf"))
    if change_type is ChangeType.REMOVAL:
        recs.append(rt.tr(lang, "rec_removal"))
    if change_type is ChangeType.FEATURE:
        recs.append(rt.tr(lang, "rec_feature"))
    if src is not None and Area.TESTS not in facts.areas and _size_points(src) >= 1:
        size = (
            rt.tr(lang, "size_lines", lines=rt.fmt_int(src.lines))
            if src.known
            else rt.tr(lang, "size_files", files=rt.n_files(src.files, lang))
        )
        risk("rk_untested", size=size)
        recs.append(rt.tr(lang, "rec_tests", comps=comp_list))
    return insights, risks, recs


class RuleAnalyser:
    """Title tags, file areas and patch evidence -> :class:`Analysis`. Pure; no I/O."""

    id = "rules"
    version = RULES_VERSION

    def analyse(self, commit: Commit, *, lang: str = "zh") -> Analysis:
        lang = "en" if lang == "en" else "zh"
        facts = _facts(commit)
        change_type, type_note = _change_type(facts, lang)
        importance, notes = _importance(facts, change_type, lang)
        insights: list[Insight] = []
        risks: list[Risk] = []
        recs: list[str] = []
        if importance is not Importance.LOW:
            insights, risks, recs = _advice(facts, change_type, lang)
        return Analysis(
            change_type=change_type,
            importance=importance,
            summary=_summary(facts, commit, lang),
            impact=_impact(facts, lang),
            insights=insights,
            risks=risks,
            recommendations=recs,
            analyser=self.id,
            analyser_version=self.version,
            notes=[type_note, *notes],
        )
