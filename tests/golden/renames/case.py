"""Renames (pure and with edits), a copy and a deletion."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]
BODY = "".join(f"def helper_{i}(x):\n    return x * {i}\n\n" for i in range(20))


def build(repo: Path) -> None:
    commit(
        repo,
        CommitSpec(
            "Base",
            "2026-03-01T00:00:00+00:00",
            files={"src/util.py": BODY, "src/old.py": "OLD = True\n" * 10},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Move util into the core package",
            "2026-03-02T08:00:00+00:00",
            renames={"src/util.py": "src/core/util.py"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Rename old.py and tweak it",
            "2026-03-02T09:00:00+00:00",
            renames={"src/old.py": "src/legacy.py"},
            files={"src/legacy.py": "OLD = True\n" * 9 + "NEW = False\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Copy util for the CLI", "2026-03-02T10:00:00+00:00", files={"src/cli/util.py": BODY}
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Remove the legacy module", "2026-03-02T11:00:00+00:00", files={"src/legacy.py": None}
        ),
    )
