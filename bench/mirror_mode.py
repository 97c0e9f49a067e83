"""Benchmark: the git mirror mode (``source = "git"`` for owner/repo), for choosing a mode.

Uses the 20,000-commit repository of bench/git_source.py as a local "remote" (file://,
partial clone allowed) and prints: the blob-less first clone (time, size), a one-day read
through it (blobs fetched on demand), a second read of that day (all local), and a fetch
with nothing new. Compare with bench/github_requests.py (HTTP requests per day).

Usage: python bench/mirror_mode.py [--remote PATH]   (default: .bench/repo-20000-v2.git)
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from commitdigest.sources.git import read_commits
from commitdigest.sources.mirror import ensure_mirror
from commitdigest.sources.repo_info import resolve_repository_sync

ROOT = Path(__file__).resolve().parent.parent


def size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remote", type=Path, default=ROOT / ".bench" / "repo-20000-v2.git")
    args = parser.parse_args()
    if not args.remote.exists():
        print(f"no repository at {args.remote}: run python bench/git_source.py first")
        return 2
    subprocess.run(
        ["git", "-C", str(args.remote), "config", "uploadpack.allowFilter", "true"], check=True
    )
    subprocess.run(
        ["git", "-C", str(args.remote), "config", "uploadpack.allowAnySHA1InWant", "true"],
        check=True,
    )
    home = Path(tempfile.mkdtemp(prefix="commitdigest-mirror-"))
    try:
        url = f"file://{args.remote.resolve()}"
        clock = time.perf_counter()
        mirror = asyncio.run(ensure_mirror(home, "bench", "repo", url=url))
        clone_s = time.perf_counter() - clock
        info = resolve_repository_sync(mirror)
        remote_info = resolve_repository_sync(args.remote)
        last = subprocess.run(
            ["git", "-C", str(args.remote), "log", "-1", "--format=%cI"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        end = datetime.fromisoformat(last) + timedelta(seconds=1)
        start = end - timedelta(days=1)
        clock = time.perf_counter()
        commits = asyncio.run(read_commits(info, start, end))
        first_read_s = time.perf_counter() - clock
        clock = time.perf_counter()
        asyncio.run(read_commits(info, start, end))
        second_read_s = time.perf_counter() - clock
        clock = time.perf_counter()
        local = asyncio.run(read_commits(remote_info, start, end))
        full_clone_read_s = time.perf_counter() - clock
        clock = time.perf_counter()
        asyncio.run(ensure_mirror(home, "bench", "repo", url=url))
        fetch_s = time.perf_counter() - clock
        assert [c.sha for c in commits] == [c.sha for c in local]
        print(f"remote: {args.remote} ({size_mb(args.remote):.0f} MB)")
        print(f"first blob-less clone        {clone_s:7.2f} s   {size_mb(mirror):6.0f} MB on disk")
        print(
            f"one day ({len(commits)} commits), 1st   {first_read_s:7.2f} s   (blobs fetched "
            "on demand)"
        )
        print(f"same day, 2nd read           {second_read_s:7.2f} s   (all local now)")
        print(f"same day on a full clone     {full_clone_read_s:7.2f} s")
        print(f"fetch with nothing new       {fetch_s:7.2f} s")
        print(f"mirror size after the day    {size_mb(mirror):7.0f} MB")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
