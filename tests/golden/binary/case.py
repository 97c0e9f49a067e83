"""Binary files added and changed next to text."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"README.md": "hi\n"}))
    commit(
        repo,
        CommitSpec("Add the logo", "2026-03-02T08:00:00+00:00", files={"assets/logo.png": PNG}),
    )
    commit(
        repo,
        CommitSpec(
            "Update the logo and the docs",
            "2026-03-02T09:00:00+00:00",
            files={"assets/logo.png": PNG[::-1], "README.md": "hi\n\n![logo](assets/logo.png)\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Add a model checkpoint",
            "2026-03-02T10:00:00+00:00",
            files={"models/tiny.bin": bytes(4096)},
        ),
    )
