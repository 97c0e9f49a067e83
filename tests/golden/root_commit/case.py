"""The repository's very first commit lies inside the window."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(
        repo,
        CommitSpec(
            "Initial commit",
            "2026-03-02T08:00:00+00:00",
            files={"README.md": "# new\n", "src/main.py": "print('hello')\n", "LICENSE": "MIT\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Add CI",
            "2026-03-02T09:00:00+00:00",
            files={".github/workflows/ci.yml": "on: push\njobs: {}\n"},
        ),
    )
