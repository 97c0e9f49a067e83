"""A day without commits: the report says so (and the CLI names the latest busy day)."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-05", "--lang", "en"]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Only commit", "2026-03-02T09:00:00+00:00", files={"a.py": "a = 1\n"}))
