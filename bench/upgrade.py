"""Benchmark ``commitdigest upgrade`` on real repositories and releases.

    python bench/upgrade.py REPO:FROM:TO[:DOWNSTREAM] ... [--runs 3] [--target 10]

For each real clone and range (``~/src/httpx:0.27.2:0.28.0:~/src/openai-python``) it runs
``commitdigest upgrade`` as a user waits for it (a fresh output folder each time, the JSON
and Markdown written, ``--downstream`` when given) and prints the range's size (first-parent
commits, files and Python files changed between the endpoints), the wall time (best and
median of ``--runs``), and what it found (changes, public breaking ones, places of the
checkout that use a change, breaking or deprecated, and the verdict). The endpoints are
compared once, so the cost follows the files that differ, not the number of commits.
Exits 1 when a median is above ``--target`` seconds. The figures only mean something on
an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _parse(spec: str) -> tuple[Path, str, str, Path | None]:
    parts = spec.split(":")
    if len(parts) not in (3, 4):
        raise SystemExit(f"expected REPO:FROM:TO[:DOWNSTREAM], got {spec!r}")
    downstream = Path(parts[3]).expanduser() if len(parts) == 4 else None
    return Path(parts[0]).expanduser(), parts[1], parts[2], downstream


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed in {repo}: {done.stderr.strip()}")
    return done.stdout


def _resolve(repo: Path, ref: str) -> str:
    for name in (ref, f"v{ref}", f"release-{ref}"):
        done = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"],
            capture_output=True,
            text=True,
        )
        if done.returncode == 0:
            return done.stdout.strip()
    raise SystemExit(f"{repo}: unknown ref {ref}")


def _run(repo: Path, old: str, new: str, downstream: Path | None) -> tuple[float, dict]:
    with tempfile.TemporaryDirectory(prefix="bench-upgrade-") as tmp:
        argv = [
            sys.executable, "-m", "commitdigest", "upgrade", str(repo), "--from", old,
            "--to", new, "--out", tmp, "--format", "json,md", "--lang", "en",
            "--home", str(Path(tmp) / "home"),
        ]  # fmt: skip
        if downstream is not None:
            argv += ["--downstream", str(downstream)]
        began = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True)
        took = time.perf_counter() - began
        if done.returncode not in (0, 9):
            raise SystemExit(f"upgrade failed ({done.returncode}): {done.stderr.strip()[-400:]}")
        [report] = list(Path(tmp).glob("upgrade-*.json"))
        return took, json.loads(report.read_text(encoding="utf-8"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ranges", nargs="+", metavar="REPO:FROM:TO[:DOWNSTREAM]")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--target", type=float, default=10.0, help="seconds, median")
    args = parser.parse_args()
    failed = False
    print(
        f"{'range':<44} {'commits':>7} {'files':>6} {'py':>5} {'best s':>7} {'median s':>8} "
        f"{'changes':>7} {'public brk':>10} {'uses':>6}  verdict"
    )
    for spec in args.ranges:
        repo, old, new, downstream = _parse(spec)
        base, tip = _resolve(repo, old), _resolve(repo, new)
        commits = int(_git(repo, "rev-list", "--count", "--first-parent", f"{base}..{tip}"))
        files = [f for f in _git(repo, "diff", "--name-only", base, tip).splitlines() if f]
        python = sum(1 for f in files if f.endswith(".py"))
        times: list[float] = []
        data: dict = {}
        for _ in range(args.runs):
            took, data = _run(repo, old, new, downstream)
            times.append(took)
        changes = data["changes"]
        public = sum(1 for c in changes if c["breaking"] and c["visibility"] == "public")
        places = len({(p["path"], p["line"]) for c in changes for p in c["affects"]})
        median = statistics.median(times)
        failed |= median > args.target
        label = f"{repo.name} {old}→{new}" + (f" ↔ {downstream.name}" if downstream else "")
        print(
            f"{label:<44} {commits:>7} {len(files):>6} {python:>5} {min(times):>7.2f} "
            f"{median:>8.2f} {len(changes):>7} {public:>10} {places:>6}  {data['verdict']}"
        )
    print(f"target: median ≤ {args.target:.1f} s per range — {'FAIL' if failed else 'PASS'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
