"""Histories shared by golden cases of two languages (``tests/golden/llm_*``,
``weekly_*``): each builds one small repository with fixed dates, so the zh and en cases
of a kind report the same commits. (The Act-on days, also used by the ``run`` cases, are
in ``tests/actonday.py``.)"""

from __future__ import annotations

from pathlib import Path

import actonday
from gitfixture import CommitSpec, commit

# ---- the LLM day: three commits of 2026-03-02, answered by a script -----------------------

LLM_DAY = "2026-03-02"
LLM_TIMEOUT = "Add a per-request timeout to the client"
LLM_HEADERS = "Fix header parsing for empty values"
LLM_DOCS = "docs: describe timeouts"

CLIENT_V1 = (
    "import urllib.request\n\n\ndef fetch(url):\n"
    "    with urllib.request.urlopen(url) as response:\n        return response.read()\n"
)
CLIENT_V2 = (
    "import urllib.request\n\n\ndef fetch(url, timeout=10.0):\n"
    "    with urllib.request.urlopen(url, timeout=timeout) as response:\n"
    "        return response.read()\n"
)
HEADERS_V1 = (
    "def parse(line):\n    name, value = line.split(':', 1)\n"
    "    return name.strip().lower(), value.strip()\n"
)
HEADERS_V2 = (
    "def parse(line):\n    name, _, value = line.partition(':')\n"
    "    return name.strip().lower(), value.strip()\n"
)


def build_llm_day(repo: Path) -> None:
    """httpkit: a timeout parameter, a header parsing fix and a page of docs."""
    commit(
        repo,
        CommitSpec(
            "Initial httpkit",
            "2026-03-01T09:00:00+00:00",
            files={"httpkit/client.py": CLIENT_V1, "httpkit/headers.py": HEADERS_V1},
        ),
    )
    commit(
        repo,
        CommitSpec(
            LLM_TIMEOUT,
            "2026-03-02T09:30:00+00:00",
            author="Ines Park",
            email="ines@example.com",
            body="A stalled server no longer hangs fetch() forever: it gives up after 10 s.",
            files={"httpkit/client.py": CLIENT_V2},
        ),
    )
    commit(
        repo,
        CommitSpec(
            LLM_HEADERS,
            "2026-03-02T13:10:00+00:00",
            files={"httpkit/headers.py": HEADERS_V2},
        ),
    )
    commit(
        repo,
        CommitSpec(
            LLM_DOCS,
            "2026-03-02T16:40:00+00:00",
            files={"docs/timeouts.md": "# Timeouts\n\n`fetch()` gives up after 10 s.\n"},
        ),
    )


# ---- a week: ISO week 2026-W10 (Monday 2026-03-02 to Sunday 2026-03-08) -------------------

WEEK = "2026-W10"
STORE_V1 = (
    "class Store:\n    def __init__(self):\n        self.data = {}\n\n"
    "    def set(self, key, value):\n        self.data[key] = value\n\n"
    "    def get(self, key):\n        return self.data.get(key)\n\n"
    "    def get_many(self, keys):\n        return [self.get(k) for k in keys]\n"
)
STORE_V2 = STORE_V1.replace(
    "    def set(self, key, value):\n        self.data[key] = value\n",
    "    def set(self, key, value, ttl=None):\n        self.data[key] = value\n",
)
STORE_V3 = STORE_V2.replace(
    "\n    def get_many(self, keys):\n        return [self.get(k) for k in keys]\n", ""
)


def build_week(repo: Path) -> None:
    """kvstore through week 10: a feature on Monday, a fix on Tuesday, a public method
    removed on Wednesday, docs and a test on Thursday, CI on Saturday; one commit the Friday
    before and one the Monday after, which the week leaves out."""
    commit(
        repo,
        CommitSpec(
            "Initial kvstore",
            "2026-02-27T10:00:00+00:00",
            files={
                "kvstore/store.py": STORE_V1,
                "kvstore/compact.py": "def compact(s):\n    pass\n",
            },
        ),
    )
    week = [
        CommitSpec(
            "Add a ttl option to Store.set",
            "2026-03-02T10:00:00+00:00",
            author="Lena Ortiz",
            email="lena@example.com",
            files={"kvstore/store.py": STORE_V2},
        ),
        CommitSpec(
            "Fix a race in the compaction thread",
            "2026-03-03T14:20:00+00:00",
            author="Omar Haddad",
            email="omar@example.com",
            body="Two compactions could run at once and drop a key written in between.",
            files={
                "kvstore/compact.py": (
                    "import threading\n\n_LOCK = threading.Lock()\n\n\n"
                    "def compact(s):\n    with _LOCK:\n        pass\n"
                )
            },
        ),
        CommitSpec(
            "Remove the deprecated Store.get_many",
            "2026-03-04T11:00:00+00:00",
            author="Lena Ortiz",
            email="lena@example.com",
            body="Deprecated since 0.1; call get() for each key instead.",
            files={"kvstore/store.py": STORE_V3},
        ),
        CommitSpec(
            "docs: explain ttl",
            "2026-03-05T09:00:00+00:00",
            files={"docs/ttl.md": "# TTL\n\nKeys set with a ttl expire after it.\n"},
        ),
        CommitSpec(
            "test: cover the compaction lock",
            "2026-03-05T16:30:00+00:00",
            files={"tests/test_compact.py": "def test_lock():\n    assert True\n"},
        ),
        CommitSpec(
            "ci: test on Python 3.13",
            "2026-03-07T08:15:00+00:00",
            files={".github/workflows/ci.yml": actonday.CI},
        ),
        CommitSpec(
            "Start the 0.3 development cycle",
            "2026-03-09T09:00:00+00:00",
            files={"kvstore/__init__.py": "__version__ = '0.3.dev0'\n"},
        ),
    ]
    for spec in week:
        commit(repo, spec)
