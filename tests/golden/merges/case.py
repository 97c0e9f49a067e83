"""A feature branch merged with a merge commit: the first-parent history and the merge."""

from pathlib import Path

from gitfixture import CommitSpec, commit, git, merge

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"a.py": "a = 1\n"}))
    git(repo, "checkout", "-q", "-b", "feature")
    commit(
        repo,
        CommitSpec(
            "Feature step one",
            "2026-03-02T08:00:00+00:00",
            files={"feature.py": "def f():\n    return 1\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Feature step two",
            "2026-03-02T09:00:00+00:00",
            files={"feature.py": "def f():\n    return 2\n"},
        ),
    )
    git(repo, "checkout", "-q", "main")
    commit(
        repo, CommitSpec("Hotfix on main", "2026-03-02T10:00:00+00:00", files={"a.py": "a = 2\n"})
    )
    merge(repo, "feature", "Merge branch 'feature'", "2026-03-02T11:00:00+00:00")
