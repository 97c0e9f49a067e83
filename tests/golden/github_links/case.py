"""A repository cloned from GitHub: commit links, PR numbers in titles, a release tag."""

from pathlib import Path

from gitfixture import CommitSpec, commit, git

ARGS = ["--date", "2026-03-02", "--lang", "en"]
ORIGIN = "https://github.com/octo/widgets.git"


def build(repo: Path) -> None:
    commit(
        repo,
        CommitSpec(
            "Base", "2026-03-01T00:00:00+00:00", files={"widgets/__init__.py": "VERSION = '0.9'\n"}
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Add the Gadget API (#101)",
            "2026-03-02T08:00:00+00:00",
            files={
                "widgets/gadget.py": "class Gadget:\n    def spin(self, speed=1):\n        return speed\n"
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Security: reject unsigned tokens (#102)",
            "2026-03-02T09:00:00+00:00",
            body="Tokens without a signature were accepted. CVE-2026-0001.",
            files={
                "widgets/auth.py": "def check(token):\n    if not token.signed:\n        raise ValueError('unsigned')\n    return True\n"
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Release 1.0.0 (#103)",
            "2026-03-02T10:00:00+00:00",
            files={"widgets/__init__.py": "VERSION = '1.0.0'\n"},
        ),
    )
    git(repo, "tag", "v1.0.0")
