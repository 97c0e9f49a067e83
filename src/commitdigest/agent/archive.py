"""The report archive, read-only, as the questions a coding agent asks of it.

:class:`Archive` reads the daily reports' JSON contexts (``YYYY-MM-DD.json``) of one
folder — only files of that name, directly in it, so no argument can name a path outside
it — and answers: which reports exist, one report, commits matching a query, the radar's
breaking changes, one commit. Every input is validated (a :class:`ArchiveError` says what
is wrong, in one line) and every answer is bounded (:data:`MAX_RESULTS` items,
:data:`MAX_TEXT` characters of report text, cut on a line with a note saying so).
Contexts are loaded on demand and kept while their file is unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from commitdigest.errors import ArchiveError
from commitdigest.models import CommitEntry, Importance, ReportContext, RepositoryEntry
from commitdigest.render.folder import ReportsFolder
from commitdigest.text import clean_line
from commitdigest.window import DAY_LABEL

__all__ = ["MAX_RESULTS", "MAX_TEXT", "Archive", "ArchiveError"]

MAX_RESULTS = 50
MAX_TEXT = 60_000  # characters of report text in one answer
MAX_QUERY = 200
_SHA = re.compile(r"[0-9a-fA-F]{7,40}")


def _day(value: str | None, name: str) -> str | None:
    if value is None or value == "":
        return None
    if not DAY_LABEL.fullmatch(value):
        raise ArchiveError(f"{name} must be a date YYYY-MM-DD, got {value[:40]!r}")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ArchiveError(f"{name} {value!r} is not a calendar date") from None
    return value


@dataclass
class _Loaded:
    mtime_ns: int
    context: ReportContext
    pages: dict[str, str]  # repository name -> its report's page when reports are separate


class Archive:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.reports = ReportsFolder(folder)
        self._cache: dict[str, _Loaded] = {}

    # -- reading -----------------------------------------------------------------------
    def days(self) -> list[str]:
        """Every day with a JSON report, newest first."""
        return self.reports.days()[::-1]

    def context(self, day: str) -> ReportContext | None:
        try:
            mtime = self.reports.path(day, "json").stat().st_mtime_ns
        except OSError:
            return None
        loaded = self._cache.get(day)
        if loaded is None or loaded.mtime_ns != mtime:
            context = self.reports.read_day(day)
            if context is None:
                return None
            units = self.reports.load_units(day)
            pages = {n: f"{u}/{day}.html" for n, u in units.folders.items()} if units else {}
            loaded = self._cache[day] = _Loaded(mtime, context, pages)
        return loaded.context

    def page(self, day: str, repo: str) -> str:
        """The HTML report holding ``repo``'s sections on ``day``."""
        loaded = self._cache.get(day)
        return (loaded.pages.get(repo) if loaded else None) or f"{day}.html"

    def _each(
        self, repo: str | None, since: str | None, until: str | None = None
    ) -> Iterator[tuple[str, RepositoryEntry]]:
        for day in self.days():
            if (since and day < since) or (until and day > until):
                continue
            context = self.context(day)
            if context is None:
                continue
            for entry in context.repositories:
                if repo is None or _same_repo(entry.name, repo):
                    yield day, entry

    def _check_repo(self, repo: str | None) -> str | None:
        if repo is None or repo == "":
            return None
        repo = repo.strip()
        if len(repo) > 200 or not repo:
            raise ArchiveError("repo must be a repository name such as owner/name")
        return repo

    # -- the questions -----------------------------------------------------------------
    def list_reports(
        self, repo: str | None = None, since: str | None = None, until: str | None = None
    ) -> dict[str, Any]:
        repo, since, until = self._check_repo(repo), _day(since, "since"), _day(until, "until")
        reports: dict[str, dict[str, Any]] = {}
        for day, entry in self._each(repo, since, until):
            item = reports.setdefault(day, {"date": day, "repositories": [], "files": []})
            item["repositories"].append({"name": entry.name, **_counts(entry.commits)})
        out = list(reports.values())
        for item in out:
            item["files"] = [path.name for path in self.reports.files(item["date"]).values()]
        return {"reports": out[:MAX_RESULTS], "more": max(0, len(out) - MAX_RESULTS)}

    def get_report(self, repo: str, date: str, format: str = "md") -> dict[str, Any]:
        day = _day(date, "date")
        name = self._check_repo(repo)
        if day is None or name is None:
            raise ArchiveError("repo and date are required")
        if format not in ("md", "json", "summary"):
            raise ArchiveError("format must be md, json or summary")
        context = self.context(day)
        entry = next(
            (e for e in (context.repositories if context else []) if _same_repo(e.name, name)),
            None,
        )
        if context is None or entry is None:
            raise ArchiveError(f"no report of {name} on {day}")
        if format == "json":
            text = entry.model_dump_json(indent=1)
        elif format == "summary":
            text = "\n".join(
                f"- [{c.analysis.importance.value}] {clean_line(c.title)} ({c.short_sha})"
                for c in entry.commits
            )
        else:
            try:
                text = self.reports.path(day, "md").read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                raise ArchiveError(f"no Markdown report for {day} (ask for json)") from None
        cut, truncated = _bounded(text)
        return {"repo": entry.name, "date": day, "format": format, "text": cut,
                "truncated": truncated}  # fmt: skip

    def search_commits(
        self,
        query: str,
        repo: str | None = None,
        since: str | None = None,
        importance: str | None = None,
    ) -> dict[str, Any]:
        words = [w for w in query.lower().split() if w]
        if not words or len(query) > MAX_QUERY:
            raise ArchiveError(f"query must be 1 to {MAX_QUERY} characters of words")
        if importance not in (None, "", *(i.value for i in Importance)):
            raise ArchiveError("importance must be high, medium or low")
        repo, since = self._check_repo(repo), _day(since, "since")
        hits: list[dict[str, Any]] = []
        total = 0
        for day, entry in self._each(repo, since):
            for commit in entry.commits:
                if importance and commit.analysis.importance.value != importance:
                    continue
                haystack = _search_text(commit)
                if all(w in haystack for w in words):
                    total += 1
                    if len(hits) < MAX_RESULTS:
                        hits.append(_commit_brief(day, entry, commit, self.page(day, entry.name)))
        return {"commits": hits, "more": total - len(hits)}

    def breaking_changes(
        self, since: str, repo: str | None = None, downstream: bool = False, internal: bool = False
    ) -> dict[str, Any]:
        first = _day(since, "since")
        if first is None:
            raise ArchiveError("since is required (YYYY-MM-DD)")
        repo = self._check_repo(repo)
        items: list[dict[str, Any]] = []
        total = 0
        for day, entry in self._each(repo, first):
            for commit in entry.commits:
                for item in commit.api_changes:
                    if downstream and not item.affects:
                        continue
                    if not (item.affects or (item.breaking and (item.public or internal))):
                        continue
                    total += 1
                    if len(items) < MAX_RESULTS:
                        items.append(
                            {
                                **_commit_brief(
                                    day, entry, commit, self.page(day, entry.name), summary=False
                                ),
                                "item": item.as_json(),
                            }
                        )
        return {"breaking_changes": items, "more": total - len(items)}

    def get_commit(self, repo: str, sha: str) -> dict[str, Any]:
        name = self._check_repo(repo)
        if name is None or not _SHA.fullmatch(sha or ""):
            raise ArchiveError("repo and sha (7 to 40 hex digits) are required")
        prefix = sha.lower()
        for day, entry in self._each(name, None):
            for commit in entry.commits:
                if commit.sha.startswith(prefix):
                    return {
                        **_commit_brief(
                            day, entry, commit, self.page(day, entry.name), summary=False
                        ),
                        "analysis": commit.analysis.model_dump(mode="json"),
                        "api_changes": [i.as_json() for i in commit.api_changes],
                        "files": [f.path for f in commit.files][:200],
                    }
        raise ArchiveError(f"no commit {sha} of {name} in the reports")


def _same_repo(have: str, asked: str) -> bool:
    return have == asked or have.lower() == asked.lower()


def _counts(commits: list[CommitEntry]) -> dict[str, int]:
    out = {"commits": len(commits)}
    for imp in Importance:
        out[imp.value] = sum(1 for c in commits if c.analysis.importance is imp)
    return out


def _search_text(commit: CommitEntry) -> str:
    parts = [commit.title, commit.author, commit.analysis.summary, commit.sha]
    parts += [f.path for f in commit.files]
    parts += [i.name for i in commit.api_changes]
    return " ".join(parts).lower()


def _commit_brief(
    day: str, entry: RepositoryEntry, commit: CommitEntry, page: str, *, summary: bool = True
) -> dict[str, Any]:
    brief: dict[str, Any] = {
        "repo": entry.name,
        "date": day,
        "sha": commit.sha,
        "title": clean_line(commit.title),
        "importance": commit.analysis.importance.value,
        "change_type": commit.analysis.change_type.value,
        "url": commit.url,
        "section": f"{page}#{commit.anchor}",
    }
    if summary:
        brief["summary"], _ = _bounded(commit.analysis.summary, 600)
    return brief


def _bounded(text: str, limit: int = MAX_TEXT) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    cut = text.rfind("\n", 0, limit)
    return text[: cut if cut > 0 else limit] + "\n…(cut: ask for a narrower report)", True
