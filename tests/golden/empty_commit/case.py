"""An empty commit (no files) and a commit with only a mode change."""

from pathlib import Path

from gitfixture import CommitSpec, commit, git

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"run.sh": "echo hi\n"}))
    commit(repo, CommitSpec("Trigger CI", "2026-03-02T08:00:00+00:00", allow_empty=True))
    git(repo, "update-index", "--chmod=+x", "run.sh")
    commit(repo, CommitSpec("Make run.sh executable", "2026-03-02T09:00:00+00:00"))
