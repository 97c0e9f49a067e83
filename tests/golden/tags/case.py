"""Tags of every kind on the day's commits: lightweight, annotated, release, pre-release."""

from pathlib import Path

from gitfixture import CommitSpec, commit, git

ARGS = ["--date", "2026-03-02", "--lang", "en"]
ENV = {
    "GIT_COMMITTER_DATE": "2026-03-02T20:00:00+00:00",
    "GIT_COMMITTER_NAME": "Rel",
    "GIT_COMMITTER_EMAIL": "rel@example.com",
}


def build(repo: Path) -> None:
    commit(
        repo,
        CommitSpec(
            "Start",
            "2026-03-01T00:00:00+00:00",
            files={"pkg/__init__.py": "__version__ = '1.1.0'\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Bump version to 1.2.0",
            "2026-03-02T08:00:00+00:00",
            files={
                "pkg/__init__.py": "__version__ = '1.2.0'\n",
                "CHANGELOG.md": "## 1.2.0\n\n- Faster start.\n",
            },
        ),
    )
    git(repo, "tag", "-a", "v1.2.0", "-m", "Release 1.2.0", env=ENV)
    commit(
        repo,
        CommitSpec(
            "Try the new parser",
            "2026-03-02T10:00:00+00:00",
            files={"pkg/parse.py": "def parse(s):\n    return s.split()\n"},
        ),
    )
    git(repo, "tag", "experiment")
    commit(
        repo,
        CommitSpec(
            "Prepare 2.0.0rc1",
            "2026-03-02T12:00:00+00:00",
            files={"pkg/__init__.py": "__version__ = '2.0.0rc1'\n"},
        ),
    )
    git(repo, "tag", "-a", "v2.0.0rc1", "-m", "Release candidate", env=ENV)
    git(repo, "tag", "nightly-2026-03-02")
