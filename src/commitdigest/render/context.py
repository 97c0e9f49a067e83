"""Build the render context (:class:`ReportContext`) from commits and their analyses.

The context is everything the templates need, and it is also the JSON output: the
Markdown report can be rendered from it alone. Anchors are assigned here, once, so that
JSON and Markdown agree on them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from commitdigest.models import (
    Analysis,
    AnalysisStatus,
    ApiChange,
    Commit,
    CommitEntry,
    Coverage,
    FileEntry,
    Overview,
    ReportContext,
    RepositoryEntry,
    Usage,
    WindowInfo,
)
from commitdigest.render.labels import get_labels
from commitdigest.text import is_anchor, slugify

SHORT_SHA = 7
# anchors derived from a repository's anchor (statistics, importance groups)
REPO_ANCHOR_SUFFIXES: tuple[str, ...] = (
    "stats",
    "changes",
    "high",
    "medium",
    "low",
    "automation",
    "breaking",
)


@dataclass
class RepositoryInput:
    name: str
    url: str | None
    branch: str | None
    commits: Sequence[Commit]  # newest first
    analyses: Mapping[str, Analysis]  # by sha
    overview: Overview | None = None  # the day's overview, shown above the contents
    error: str | None = None  # the repository could not be read (its commits are unknown)
    api_changes: Mapping[str, Sequence[ApiChange]] = field(default_factory=dict)  # by sha
    automated: frozenset[str] = frozenset()  # shas of bot commits and pure dependency bumps


def build_context(
    repositories: Sequence[RepositoryInput],
    window: WindowInfo,
    *,
    lang: str,
    generated_at: datetime,
) -> ReportContext:
    """The report context for ``repositories`` over ``window``.

    Every commit must have an analysis (``ValueError`` naming the commit otherwise: a
    commit is never silently dropped). Commits are listed newest first. The context's
    ``usage`` is what its analyses and overviews cost, summed (None when none says).
    """
    get_labels(lang)  # fail early on an unknown language
    ordered: list[list[Commit]] = []
    for repo in repositories:
        for commit in repo.commits:
            if commit.sha not in repo.analyses:
                raise ValueError(
                    f"commit {commit.sha} ({commit.title!r}) in {repo.name} has no analysis"
                )
        ordered.append(sorted(repo.commits, key=lambda c: _aware(c.committed_at), reverse=True))

    commit_anchors = assign_commit_anchors([c.sha for commits in ordered for c in commits])
    repo_anchors = assign_repository_anchors([r.name for r in repositories], commit_anchors)

    entries: list[RepositoryEntry] = []
    offset = 0
    for repo, commits, repo_anchor in zip(repositories, ordered, repo_anchors, strict=True):
        items = [
            _commit_entry(
                commit,
                repo.analyses[commit.sha],
                anchor,
                repo.api_changes,
                automated=commit.sha in repo.automated,
            )
            for commit, anchor in zip(
                commits, commit_anchors[offset : offset + len(commits)], strict=True
            )
        ]
        offset += len(commits)
        entries.append(
            RepositoryEntry(
                name=repo.name,
                url=repo.url,
                branch=repo.branch,
                anchor=repo_anchor,
                commits=items,
                coverage=coverage([item.analysis for item in items]),
                overview=repo.overview,
                error=repo.error,
            )
        )
    return ReportContext(
        generated_at=generated_at,
        lang=lang,
        window=window,
        repositories=entries,
        coverage=coverage(item.analysis for entry in entries for item in entry.commits),
        usage=total_usage(entries),
    )


def total_usage(entries: Iterable[RepositoryEntry]) -> Usage | None:
    """The sum of every analysis' and overview's usage; None when none has any."""
    total: Usage | None = None
    for entry in entries:
        parts = [item.analysis.usage for item in entry.commits]
        parts.append(entry.overview.usage if entry.overview is not None else None)
        for usage in parts:
            if usage is not None:
                total = usage if total is None else total + usage
    return total


def coverage(analyses: Iterable[Analysis]) -> Coverage:
    """Counts: by LLM (ok), by rules (including fallbacks), of which fallbacks."""
    total = by_llm = by_rules = fallback = 0
    for analysis in analyses:
        total += 1
        if analysis.status == AnalysisStatus.FALLBACK:
            fallback += 1
            by_rules += 1
        elif analysis.analyser == "llm":
            by_llm += 1
        elif analysis.analyser == "rules":
            by_rules += 1
    return Coverage(
        total=total, analysed=total, by_llm=by_llm, by_rules=by_rules, fallback=fallback
    )


def assign_commit_anchors(shas: Sequence[str]) -> list[str]:
    """One anchor per sha (in order): the 7-character short SHA, lengthened while it is a
    prefix of another commit's SHA in the report; a SHA listed twice (two repositories
    sharing history) gets ``-2``, ``-3`` … on its later occurrences."""
    keys = [_sha_key(sha) for sha in shas]
    distinct = sorted(set(keys))
    length: dict[str, int] = {}
    for i, key in enumerate(distinct):
        common = 0
        for j in (i - 1, i + 1):
            if 0 <= j < len(distinct):
                common = max(common, _common_prefix(key, distinct[j]))
        length[key] = min(len(key), max(SHORT_SHA, common + 1))
    seen: dict[str, int] = {}
    anchors: list[str] = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        anchor = key[: length[key]]
        anchors.append(anchor if seen[key] == 1 else f"{anchor}-{seen[key]}")
    return anchors


def assign_repository_anchors(names: Sequence[str], taken: Iterable[str]) -> list[str]:
    """A slug per repository name, unique in the report together with its derived anchors
    (``<slug>-stats``, ``<slug>-high`` …) and the commit anchors in ``taken``."""
    used = set(taken)
    anchors: list[str] = []
    for name in names:
        base = slugify(name)
        candidate, n = base, 1
        while any(a in used for a in repository_anchor_family(candidate)):
            n += 1
            candidate = f"{base}-{n}"
        used.update(repository_anchor_family(candidate))
        anchors.append(candidate)
    return anchors


def repository_anchor_family(anchor: str) -> list[str]:
    """The repository's anchor and those derived from it."""
    return [anchor, *(f"{anchor}-{suffix}" for suffix in REPO_ANCHOR_SUFFIXES)]


def _commit_entry(
    commit: Commit,
    analysis: Analysis,
    anchor: str,
    api_changes: Mapping[str, Sequence[ApiChange]] | None = None,
    *,
    automated: bool = False,
) -> CommitEntry:
    return CommitEntry(
        automated=automated,
        api_changes=list((api_changes or {}).get(commit.sha, ())),
        sha=commit.sha,
        short_sha=anchor.split("-")[0],
        anchor=anchor,
        title=commit.title,
        body=commit.body,
        author=commit.author,
        author_email=commit.author_email,
        committed_at=commit.committed_at,
        url=commit.url,
        pr_number=commit.pr_number,
        labels=list(commit.labels),
        files=[
            FileEntry(
                path=f.path,
                old_path=f.old_path,
                additions=f.additions,
                deletions=f.deletions,
                status=f.status,
            )
            for f in commit.files
        ],
        analysis=analysis,
    )


def _sha_key(sha: str) -> str:
    """The SHA as an anchor: lowercase hex as is; anything else slugged."""
    key = sha.strip().lower()
    if key and all(c in "0123456789abcdef" for c in key):
        return key
    return slugify(key, default="commit").replace("-", "")


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def check_anchors(context: ReportContext) -> None:
    """``ValueError`` unless every anchor is a safe id and unique in the report."""
    anchors: list[str] = []
    for repo in context.repositories:
        anchors += repository_anchor_family(repo.anchor)
        anchors += [commit.anchor for commit in repo.commits]
    bad = [a for a in anchors if not is_anchor(a)]
    if bad:
        raise ValueError(f"invalid anchor {bad[0]!r}: use lowercase letters, digits, '-'")
    seen: set[str] = set()
    for anchor in anchors:
        if anchor in seen:
            raise ValueError(f"anchor {anchor!r} is used twice in the report")
        seen.add(anchor)
