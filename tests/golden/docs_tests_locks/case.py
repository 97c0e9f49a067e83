"""Commits that touch only docs, only tests or only lock files."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"src/a.py": "a = 1\n"}))
    commit(
        repo,
        CommitSpec(
            "Fix typos in the guide",
            "2026-03-02T08:00:00+00:00",
            files={"docs/guide.md": "# Guide\n\nTeh -> The\n", "README.md": "# a\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Add tests for a",
            "2026-03-02T09:00:00+00:00",
            files={
                "tests/test_a.py": "from src.a import a\n\n\ndef test_a():\n    assert a == 1\n"
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Update lock files",
            "2026-03-02T10:00:00+00:00",
            files={
                "poetry.lock": "[[package]]\nname = 'x'\n",
                "package-lock.json": '{"lockfileVersion": 3}\n',
                "Cargo.lock": "version = 3\n",
            },
        ),
    )
