"""How many GitHub API requests a day costs: a first run, then a re-run of the same day.

    python bench/github_requests.py [--commits 45] [--no-pulls] [--binary-every 0]

Builds a repository with ``--commits`` commits in one day (plus a few the day before, so the
window really filters), serves it with the fake GitHub API of the tests (real HTTP on
127.0.0.1) and reads the day twice through the GitHub source, authenticated, with one store.

The floor it checks, for ``N`` commits in the day:

* first run <= N (one commit-detail request each) + ceil(N / 100) (list pages)
  + N pull-request look-ups (0 with ``--no-pulls``) + 1 (``GET /repos/{o}/{r}``: the
  repository and its default branch), plus one diff fetch per commit that has a possibly
  binary file (``--binary-every K`` puts one in every K-th commit; 0 by default: text only);
* re-run: only conditional requests, every one answered ``304 Not Modified`` (the repository,
  the list pages and the PR look-ups; commit details come from the store, not the network).

Exit status 1 when a floor is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fake_github import FakeGitHub, repo_from_git
from pydantic import SecretStr

from commitdigest.models import Commit
from commitdigest.sources.github_source import GitHubReading, open_github_repository
from commitdigest.store import Store

TZ = timezone(timedelta(hours=8))
DAY = (datetime(2026, 1, 13, tzinfo=TZ), datetime(2026, 1, 14, tzinfo=TZ))
TOKEN = "bench-token"
KINDS = ("repo", "list", "detail", "diff", "pulls")


def build(path: Path, commits: int, binary_every: int) -> None:
    """A linear history in one ``git fast-import``: 3 commits the day before, then the day."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    out: list[bytes] = []
    start = DAY[0] - timedelta(hours=3)
    step = (DAY[1] - DAY[0]) / (commits + 1)
    for i in range(commits + 3):
        when = start + timedelta(hours=i) if i < 3 else DAY[0] + step * (i - 2)
        stamp = f"{int(when.timestamp())} +0800"
        msg = f"[Core] change {i} (#{1000 + i})".encode()
        out.append(f"commit refs/heads/main\nmark :{i + 1}\n".encode())
        out.append(f"author Dev <d@x> {stamp}\ncommitter Dev <d@x> {stamp}\n".encode())
        out.append(f"data {len(msg)}\n".encode() + msg + b"\n")
        if i:
            out.append(f"from :{i}\n".encode())
        for k in range(3):
            data = "".join(f"line {i} {k} {n}\n" for n in range(20)).encode()
            out.append(f"M 100644 inline src/m{(i + k) % 9}.py\ndata {len(data)}\n".encode())
            out.append(data + b"\n")
        if binary_every and i >= 3 and (i - 3) % binary_every == 0:
            blob = bytes([0, 1, 2, i % 256])
            out.append(f"M 100644 inline assets/logo{i}.png\ndata {len(blob)}\n".encode())
            out.append(blob + b"\n")
    subprocess.run(["git", "-C", str(path), "fast-import", "--quiet"], input=b"".join(out),
                   check=True)  # fmt: skip
    subprocess.run(["git", "-C", str(path), "reset", "-q", "--hard", "main"], check=True)


async def read_day(fake: FakeGitHub, store: Store, pulls: bool) -> list[Commit]:
    repo = await open_github_repository(
        "octo", "bench", api_url=fake.base_url, token=SecretStr(TOKEN), store=store,
        reading=GitHubReading(fetch_pulls=pulls),
    )  # fmt: skip
    async with repo:
        return await repo.read_commits(*DAY)


def report(label: str, fake: FakeGitHub, seconds: float) -> Counter[str]:
    kinds = fake.by_kind()
    conditional = sum(1 for r in fake.requests if r.conditional)
    print(f"{label}: {len(fake.requests)} requests in {seconds * 1000:.0f} ms")
    for kind in KINDS:
        answered = fake.count(kind, status=304)
        print(f"  {kind:<7} {kinds.get(kind, 0):>4}   (304: {answered})")
    print(f"  conditional {conditional}, answered 304: {fake.not_modified}")
    return kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commits", type=int, default=45)
    parser.add_argument("--no-pulls", dest="pulls", action="store_false")
    parser.add_argument("--binary-every", type=int, default=0)
    args = parser.parse_args()
    n = args.commits
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp) / "repo", n, args.binary_every)
        fake_repo = repo_from_git(Path(tmp) / "repo", "octo/bench")
        with Store.open(Path(tmp) / "home") as store, FakeGitHub(fake_repo, tokens={TOKEN}) as fake:
            t0 = time.perf_counter()
            first = asyncio.run(read_day(fake, store, args.pulls))
            kinds1 = report(f"first run ({len(first)} commits)", fake, time.perf_counter() - t0)
            fake.reset_counts()
            t0 = time.perf_counter()
            again = asyncio.run(read_day(fake, store, args.pulls))
            report("re-run", fake, time.perf_counter() - t0)
            rerun_total = len(fake.requests)
            rerun_ok = all(r.conditional and r.status == 304 for r in fake.requests)
    binaries = math.ceil(n / args.binary_every) if args.binary_every else 0
    floor = n + math.ceil(n / 100) + (n if args.pulls else 0) + 1 + binaries
    total1 = sum(kinds1.values())
    print(f"floor, first run: {n} + {math.ceil(n / 100)} + {n if args.pulls else 0} (PRs) + 1 "
          f"(repo) + {binaries} (diffs) = {floor}; made {total1}")  # fmt: skip
    print(f"re-run: {rerun_total} requests, all conditional and answered 304: {rerun_ok}")
    ok = len(first) == n and again == first and total1 <= floor and rerun_ok
    print("OK" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
