"""The days of the Act-on golden cases (``tests/golden/act_*``): each builds one
repository whose 2026-03-02 holds what the Act-on block is about — a change a downstream
checkout uses, a release, a security fix, or nothing but routine work. The zh and en cases
of a kind build the same history (upstream commit text is English, as it mostly is)."""

from __future__ import annotations

from pathlib import Path

from gitfixture import CommitSpec, commit, git

DAY = "2026-03-02"
TAGGER = {
    "GIT_COMMITTER_DATE": "2026-03-02T16:05:00+00:00",
    "GIT_COMMITTER_NAME": "Release Bot",
    "GIT_COMMITTER_EMAIL": "release@example.com",
}


def args(lang: str) -> list[str]:
    """The ``report`` options of a case."""
    return ["--date", DAY, "--lang", lang]


# ---- a change the reader's own code uses (--downstream) ----------------------------------

API_V1 = "def get(url, proxies=None, timeout=5):\n    return url\n"
API_V2 = "def get(url, timeout=5):\n    return url\n"
ENVS_V1 = 'import os\n\nCACHE = os.getenv("FETCHLIB_CACHE")\nLOG = os.getenv("FETCHLIB_LOG")\n'
ENVS_V2 = 'import os\n\nLOG = os.getenv("FETCHLIB_LOG")\n'
DOWNSTREAM = {
    "app/fetch.py": (
        "import fetchlib\n\n\ndef fetch(url, proxy):\n"
        "    return fetchlib.get(url, proxies=proxy, timeout=3)\n"
    ),
    "README.md": "Our app fetches pages with fetchlib.\n",
}


def build_downstream(repo: Path) -> None:
    """fetchlib drops the ``proxies`` argument (the downstream passes it) and the
    ``FETCHLIB_CACHE`` variable (nobody downstream sets it), and documents retries."""
    commit(
        repo,
        CommitSpec(
            "Initial fetchlib",
            "2026-03-01T09:00:00+00:00",
            files={
                "fetchlib/__init__.py": "from fetchlib.api import get\n",
                "fetchlib/api.py": API_V1,
                "fetchlib/envs.py": ENVS_V1,
                "pyproject.toml": '[project]\nname = "fetchlib"\nversion = "1.0.0"\n',
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Remove the deprecated proxies argument (#41)",
            "2026-03-02T09:10:00+00:00",
            author="Mia Chen",
            email="mia@example.com",
            body="Proxies are configured through the transport now.",
            files={"fetchlib/api.py": API_V2},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Stop reading FETCHLIB_CACHE (#42)",
            "2026-03-02T11:30:00+00:00",
            author="Mia Chen",
            email="mia@example.com",
            files={"fetchlib/envs.py": ENVS_V2},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "docs: describe retries",
            "2026-03-02T15:00:00+00:00",
            files={"docs/retries.md": "# Retries\n\nEach request is tried three times.\n"},
        ),
    )


# ---- a release (a version tag on a commit with its changelog section) ---------------------

CHANGELOG_BEFORE = """# Changelog

## Unreleased

### Breaking changes

- Removed `shapes.legacy_area`; use `shapes.area` instead.
- The `strict` argument of `shapes.parse` now defaults to `True`.

### Added

- A `Circle` shape.

## 1.4.0 (2026-01-10)

- Faster `shapes.area`.
"""
CHANGELOG_RELEASED = CHANGELOG_BEFORE.replace("## Unreleased", "## 2.0.0 (2026-03-02)")
AREA = "def area(s):\n    return s.area()\n"


def build_release(repo: Path) -> None:
    """shapes adds a Circle, then releases 2.0.0: the tag points at the commit that dates
    the changelog's section, which announces two breaking changes."""
    commit(
        repo,
        CommitSpec(
            "Start shapes 1.4",
            "2026-03-01T09:00:00+00:00",
            files={
                "shapes/__init__.py": "__version__ = '1.4.0'\n\n\n" + AREA,
                "CHANGELOG.md": CHANGELOG_BEFORE,
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Add a Circle shape (#12)",
            "2026-03-02T10:00:00+00:00",
            files={
                "shapes/circle.py": (
                    "import math\n\n\nclass Circle:\n    def __init__(self, r):\n"
                    "        self.r = r\n\n    def area(self):\n"
                    "        return math.pi * self.r**2\n"
                )
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Release 2.0.0",
            "2026-03-02T16:00:00+00:00",
            author="Release Bot",
            email="release@example.com",
            files={
                "shapes/__init__.py": "__version__ = '2.0.0'\n\n\n" + AREA,
                "CHANGELOG.md": CHANGELOG_RELEASED,
            },
        ),
    )
    git(repo, "tag", "-a", "v2.0.0", "-m", "shapes 2.0.0", env=TAGGER)


# ---- a security fix ----------------------------------------------------------------------

EXTRACT_V1 = (
    "import tarfile\n\n\ndef extract(path, target):\n"
    "    with tarfile.open(path) as archive:\n        archive.extractall(target)\n"
)
EXTRACT_V2 = (
    "import os\nimport tarfile\n\n\ndef extract(path, target):\n"
    "    root = os.path.realpath(target)\n"
    "    with tarfile.open(path) as archive:\n"
    "        for member in archive.getmembers():\n"
    "            where = os.path.realpath(os.path.join(root, member.name))\n"
    "            if not where.startswith(root + os.sep):\n"
    '                raise ValueError(f"unsafe path in archive: {member.name}")\n'
    "        archive.extractall(root)\n"
)


def build_security(repo: Path) -> None:
    """unpackr fixes a path traversal (with its CVE), adds a progress option and a test."""
    commit(
        repo,
        CommitSpec(
            "Initial unpackr",
            "2026-03-01T09:00:00+00:00",
            files={
                "unpackr/extract.py": EXTRACT_V1,
                "tests/test_extract.py": "def test_x():\n    pass\n",
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Fix path traversal in archive extraction (CVE-2026-1234)",
            "2026-03-02T10:20:00+00:00",
            author="Sam Roe",
            email="sam@example.com",
            body=(
                "A member named ../../etc/passwd was written outside the target folder. "
                "Members that resolve outside it are now refused."
            ),
            files={
                "unpackr/extract.py": EXTRACT_V2,
                "tests/test_traversal.py": (
                    "import pytest\n\nfrom unpackr.extract import extract\n\n\n"
                    "def test_refuses_parent_paths(tmp_path):\n"
                    "    with pytest.raises(ValueError):\n"
                    '        extract("tests/data/evil.tar", tmp_path)\n'
                ),
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "test: cover empty archives",
            "2026-03-02T14:00:00+00:00",
            files={"tests/test_empty.py": "def test_empty():\n    assert True\n"},
        ),
    )


# ---- nothing but routine work --------------------------------------------------------------


CI = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n"


def build_routine(repo: Path) -> None:
    """A typo, a test, a CI cache and a renamed local variable: nothing to act on."""
    commit(
        repo,
        CommitSpec(
            "Initial tally",
            "2026-03-01T09:00:00+00:00",
            files={
                "tally/count.py": (
                    "def count(xs):\n    n = 0\n    for x in xs:\n        n += 1\n    return n\n"
                ),
                "README.md": "# tally\n\nCount things quickyl.\n",
                ".github/workflows/ci.yml": CI,
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "docs: fix a typo in the README",
            "2026-03-02T09:00:00+00:00",
            files={"README.md": "# tally\n\nCount things quickly.\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "test: add a case for empty input",
            "2026-03-02T10:30:00+00:00",
            files={
                "tests/test_count.py": (
                    "from tally.count import count\n\n\ndef test_empty():\n"
                    "    assert count([]) == 0\n"
                )
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "ci: cache pip downloads",
            "2026-03-02T12:00:00+00:00",
            files={".github/workflows/ci.yml": CI + "    steps:\n      - uses: actions/cache@v4\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Rename a local variable in count",
            "2026-03-02T17:45:00+00:00",
            files={
                "tally/count.py": (
                    "def count(xs):\n    total = 0\n    for _ in xs:\n        total += 1\n"
                    "    return total\n"
                )
            },
        ),
    )
