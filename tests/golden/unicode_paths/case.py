"""Paths with spaces, non-ASCII letters and emoji."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "zh"]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"a.txt": "a\n"}))
    commit(
        repo,
        CommitSpec(
            "Add docs with odd names",
            "2026-03-02T08:00:00+00:00",
            files={
                "docs/用户 指南.md": "# 指南\n",
                "docs/my notes (draft).md": "notes\n",
                "assets/🚀 launch.txt": "go\n",
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Rename the guide",
            "2026-03-02T09:00:00+00:00",
            renames={"docs/用户 指南.md": "docs/使用说明.md"},
        ),
    )
