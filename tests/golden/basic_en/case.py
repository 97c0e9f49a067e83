"""Three ordinary commits of one day, English report."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(
        repo,
        CommitSpec(
            "Initial layout",
            "2026-03-01T09:00:00+00:00",
            files={"src/app.py": "def main():\n    return 0\n", "README.md": "# app\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Add a --verbose flag to the CLI",
            "2026-03-02T09:15:00+00:00",
            body="Prints each step.",
            files={
                "src/app.py": "import sys\n\n\ndef main():\n    verbose = '--verbose' in sys.argv\n    return 0 if not verbose else 1\n"
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Fix off-by-one in the pager",
            "2026-03-02T12:30:00+00:00",
            author="Ana Lima",
            email="ana@example.com",
            files={"src/pager.py": "def pages(n, size):\n    return (n + size - 1) // size\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "docs: explain the pager",
            "2026-03-02T18:45:00+00:00",
            files={"docs/pager.md": "# Pager\n\nPages round up.\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Next day's work", "2026-03-03T08:00:00+00:00", files={"src/next.py": "x = 1\n"}
        ),
    )
