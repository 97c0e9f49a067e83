"""Benchmark the breaking-change radar's cost against the same window without it.

    python bench/radar.py [--commits 1300] [--runs 3] [--target 1.5]

It generates (in a temporary folder, with ``git fast-import``) a repository whose one day
holds ``--commits`` commits over a Python package of 60 modules (functions with
parameters, environment reads, argparse options, a config file, a changelog), each commit
touching two or three files. It then times, best of ``--runs``:

* without the radar (``--no-radar``): ``read_commits`` of the day (git log + parse + models);
* with the radar: the same plus ``scan_window`` over the commits (touched blobs through one
  ``git cat-file --batch``, every kind, the repository-wide env var index).

* a whole uncached report of the day without the radar (``commitdigest report
  --analyser rules``, fresh home), to which the radar's own time is added.

It prints the source-stage ratio and the whole-report ratio, and exits 1 when the
whole-report ratio is above ``--target``. (Until ``--no-radar`` is wired into ``report``,
the report is run as it is today, without the radar, and the radar time is added.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from commitdigest.analysis.radar.driver import CommitInput, scan_window
from commitdigest.gitcmd import git_env
from commitdigest.sources.git import read_commits
from commitdigest.sources.repo_info import resolve_repository_sync

TZ = UTC
DAY = datetime(2026, 3, 2, tzinfo=TZ)
MODULES = 60


def _module(n: int, version: int, api: int) -> str:
    """Module ``n``: its body changes with every ``version``, its API with ``api``."""
    lines = ["import argparse", "import os", ""]
    for f in range(8):
        params = ", ".join(f"p{k}=None" for k in range(1 + (api + f) % 3))
        body = f"    return os.getenv('ENV_{n}_{f % 3}') or {version}"
        lines += [f"def func_{n}_{f}(a, {params}):", body, ""]
    lines += [f"class Thing{n}:", "    def run(self, x, y=1):", f"        return x + {version}", ""]
    lines += ["p = argparse.ArgumentParser()", f"p.add_argument('--opt-{n}-{api % 5}')", ""]
    return "\n".join(lines)


def generate(root: Path, commits: int) -> Path:
    repo = root / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True, env=git_env())
    rng = random.Random(7)
    apis = [0] * MODULES
    out: list[bytes] = []

    def blob(path: str, text: str) -> None:
        data = text.encode()
        out.append(f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n")

    changelog = "# Changelog\n"
    for i in range(commits):
        stamp = int((DAY + timedelta(seconds=60 + i * 60)).timestamp())
        msg = f"change {i}".encode()
        out.append(b"commit refs/heads/main\n")
        out.append(f"committer Bench <b@example.com> {stamp} +0000\n".encode())
        out.append(f"data {len(msg)}\n".encode() + msg + b"\n")
        if i == 0:
            for n in range(MODULES):
                blob(f"pkg/mod{n}.py", _module(n, 0, 0))
            blob("pkg/default_config.toml", "[server]\nhost = 'x'\n")
            blob("CHANGELOG.md", changelog)
            continue
        for n in rng.sample(range(MODULES), rng.randint(2, 3)):
            if rng.random() < 0.03:  # about one commit in 15 changes an API
                apis[n] += 1
            blob(f"pkg/mod{n}.py", _module(n, i, apis[n]))
        if i % 100 == 0:
            changelog += f"\n## {i}\n\n### Breaking changes\n\n- removed thing {i}\n"
            blob("CHANGELOG.md", changelog)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(out), check=True,
                   env=git_env())  # fmt: skip
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=repo, check=True, env=git_env())
    return repo


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--commits", type=int, default=1300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--target", type=float, default=1.5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = generate(Path(tmp), args.commits)
        repo = resolve_repository_sync(root)
        start, end = DAY, DAY + timedelta(days=1)
        without: list[float] = []
        with_radar: list[float] = []
        items = 0
        for _ in range(args.runs):
            t0 = time.perf_counter()
            commits = asyncio.run(read_commits(repo, start, end))
            t1 = time.perf_counter()
            ordered = sorted(commits, key=lambda c: c.committed_at)
            found = scan_window(root, [CommitInput.from_commit(c) for c in ordered])
            t2 = time.perf_counter()
            without.append(t1 - t0)
            with_radar.append(t2 - t0)
            items = sum(len(v) for v in found.values())
        a, b = min(without), min(with_radar)
        radar_only = b - a
        reports: list[float] = []
        for run in range(args.runs):
            env = {
                **os.environ,
                "COMMITDIGEST_HOME": str(Path(tmp) / f"home{run}"),
                "NO_COLOR": "1",
            }
            env.pop("OPENAI_API_KEY", None)
            argv = [sys.executable, "-c", "from commitdigest.cli import main; main()", "report",
                    str(root), "--date", DAY.date().isoformat(), "--tz", "UTC", "--lang", "en",
                    "--analyser", "rules", "--out", str(Path(tmp) / f"out{run}")]  # fmt: skip
            t0 = time.perf_counter()
            subprocess.run(argv, env=env, check=True, capture_output=True)
            reports.append(time.perf_counter() - t0)
        report = min(reports)
        ratio = (report + radar_only) / report
        print(f"commits: {len(commits)}  radar items: {items}  radar alone: {radar_only:.3f} s")
        print(f"source stage: --no-radar {a:.3f} s, with radar {b:.3f} s ({b / a:.2f}x)")
        print(f"whole report: --no-radar {report:.3f} s, with radar {report + radar_only:.3f} s "
              f"({ratio:.2f}x, target {args.target}x)")  # fmt: skip
        return 0 if ratio <= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
