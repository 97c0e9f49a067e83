"""Removals that a user must act on: an environment variable, a CLI flag, a public function."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]
CLI = "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--fast')\nparser.add_argument('--legacy-mode')\n"
ENV = "import os\n\nDEBUG = os.getenv('APP_DEBUG')\nOLD = os.environ.get('APP_OLD_CACHE')\n"
API = "def connect(url, proxies=None):\n    return url\n\n\ndef old_connect(url):\n    return url\n"


def build(repo: Path) -> None:
    commit(
        repo,
        CommitSpec(
            "Base",
            "2026-03-01T00:00:00+00:00",
            files={"app/cli.py": CLI, "app/env.py": ENV, "app/api.py": API},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Remove the --legacy-mode flag",
            "2026-03-02T08:00:00+00:00",
            files={"app/cli.py": CLI.replace("parser.add_argument('--legacy-mode')\n", "")},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Drop APP_OLD_CACHE",
            "2026-03-02T09:00:00+00:00",
            files={"app/env.py": ENV.replace("OLD = os.environ.get('APP_OLD_CACHE')\n", "")},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Remove old_connect and the proxies parameter",
            "2026-03-02T10:00:00+00:00",
            body="BREAKING CHANGE: use connect(url) with a transport.",
            files={"app/api.py": "def connect(url):\n    return url\n"},
        ),
    )
