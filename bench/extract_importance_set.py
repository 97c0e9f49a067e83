"""The hand-labelled importance set's commits: list the ones to label, extract the fixtures.

    python bench/extract_importance_set.py list REPO OWNER/NAME DAY [DAY ...]
    python bench/extract_importance_set.py extract REPOS_DIR

``list`` prints, as unlabelled JSON lines, the commits a report of those UTC days shows for
the repository at REPO (a clone or a bare mirror): the first-parent commits, merges with
their first-parent diff, read by the report's own git source. A person labels them by
``docs/importance.md`` and appends them to ``tests/fixtures/importance_labels.jsonl``.

``extract`` writes what the analyser needs for every labelled commit into
``tests/fixtures/importance_set/<owner>+<name>.jsonl.gz``: title, the body cut to
:data:`BODY_CHARS`, author, dates, parents, files (path, old path, status, additions,
deletions, binary) and the radar's items for the commit, found here from the repository's
blobs as a report finds them. No patch and no code is stored: the radar's findings stand in
for what the analyser would read in the diff. REPOS_DIR holds one repository per labelled
project, named ``<name>``, ``<owner>+<name>`` or ``<owner>+<name>/repo`` (the fetch tool's
layout). Run by hand; the tests and the bench only read.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from commitdigest.analysis.radar.commit import CommitInput
from commitdigest.analysis.radar.driver import scan_window
from commitdigest.models import ApiChange, Commit
from commitdigest.sources.blobs import BlobReader
from commitdigest.sources.git import read_commits
from commitdigest.sources.repo_info import RepositoryInfo, resolve_repository_sync

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "fixtures" / "importance_labels.jsonl"
OUT = ROOT / "tests" / "fixtures" / "importance_set"
BODY_CHARS = 1500
"""A body is cut here: enough for the statements that decide, never a whole PR template."""
DETAIL_CHARS = 200


def _day_commits(repo: RepositoryInfo, day: date) -> list[Commit]:
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return asyncio.run(read_commits(repo, start, start + timedelta(days=1)))


def _one_commit(repo: RepositoryInfo, sha: str) -> Commit:
    """The commit ``sha`` as the report reads it (its first-parent diff for a merge)."""
    at = dataclasses.replace(repo, head_sha=sha)
    full = _git_time(repo, sha)
    for c in asyncio.run(read_commits(at, full, full + timedelta(seconds=1))):
        if c.sha == sha:
            return c
    raise SystemExit(f"{repo.name}: {sha} not read")


def _git_time(repo: RepositoryInfo, sha: str) -> datetime:
    import subprocess

    out = subprocess.run(
        ["git", "-C", str(repo.root), "log", "-1", "--format=%cI", sha],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.strip()
    return datetime.fromisoformat(out)


def _radar(repo: RepositoryInfo, commit: Commit) -> list[ApiChange]:
    with BlobReader(repo.root) as reader:
        return scan_window(reader, [CommitInput.from_commit(commit)]).get(commit.sha, [])


def _item(item: ApiChange) -> dict[str, Any]:
    data = item.as_json(affects=False)
    data["detail"] = data["detail"][:DETAIL_CHARS]
    return data


def fixture_row(commit: Commit, radar: list[ApiChange]) -> dict[str, Any]:
    files = [
        {
            "path": f.path,
            "old_path": f.old_path,
            "status": f.status.value,
            "additions": f.additions,
            "deletions": f.deletions,
            "binary": f.binary,
        }
        for f in commit.files
    ]
    return {
        "sha": commit.sha, "parents": list(commit.parents), "title": commit.title,
        "body": commit.body.strip()[:BODY_CHARS], "author": commit.author,
        "author_email": commit.author_email, "authored_at": commit.authored_at.isoformat(),
        "committed_at": commit.committed_at.isoformat(), "files": files,
        "radar": [_item(i) for i in radar],
    }  # fmt: skip


def _repo_dir(base: Path, repository: str) -> Path:
    owner, name = repository.split("/", 1)
    for cand in (base / name, base / f"{owner}+{name}" / "repo", base / f"{owner}+{name}"):
        if cand.exists():
            return cand
    raise SystemExit(f"no repository for {repository} under {base}")


def list_days(path: Path, repository: str, days: list[str]) -> int:
    repo = resolve_repository_sync(path)
    for day in days:
        for c in reversed(_day_commits(repo, date.fromisoformat(day))):
            row = {"repository": repository, "sha": c.sha,
                   "date": c.committed_at.date().isoformat(), "title": c.title,
                   "label": "", "change_type": "", "reason": ""}  # fmt: skip
            print(json.dumps(row, ensure_ascii=False))
    return 0


def extract(base: Path) -> int:
    rows = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line]
    by_repo: dict[str, list[str]] = {}
    for row in rows:
        by_repo.setdefault(row["repository"], []).append(row["sha"])
    OUT.mkdir(parents=True, exist_ok=True)
    for repository, shas in by_repo.items():
        repo = resolve_repository_sync(_repo_dir(base, repository))
        lines = []
        for sha in shas:
            commit = _one_commit(repo, sha)
            row = fixture_row(commit, _radar(repo, commit))
            lines.append(json.dumps(row, ensure_ascii=False, sort_keys=True))
        data = ("\n".join(lines) + "\n").encode()
        name = repository.replace("/", "+")
        with gzip.GzipFile(OUT / f"{name}.jsonl.gz", "wb", mtime=0) as fh:
            fh.write(data)
        print(f"{repository}: {len(shas)} commits")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) >= 5 and argv[1] == "list":
        return list_days(Path(argv[2]), argv[3], argv[4:])
    if len(argv) == 3 and argv[1] == "extract":
        return extract(Path(argv[2]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
