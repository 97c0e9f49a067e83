"""Start-up benchmark: ``commitdigest --help`` and a cached report of a busy day.

Run: ``python bench/startup.py [-n 10]``. It times, in fresh processes,

* ``commitdigest --help`` (best and median of N; target 0.35 s);
* ``commitdigest report`` of a generated repository with 45 commits on one day: the
  first run analyses every commit, the next runs hit the cache (best and median of N;
  target 0.6 s for the cached run).

Everything happens in a temporary folder (repository, store, reports); nothing touches
the network. The exit status is 1 when a median misses its target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HELP_TARGET_S = 0.35
CACHED_REPORT_TARGET_S = 0.6
COMMITS = 45
DAY = "2024-03-02"
CLI = [sys.executable, "-c", "from commitdigest.cli import main; main()"]


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env)


def build_busy_repo(repo: Path, commits: int = COMMITS) -> None:
    """A repository with ``commits`` commits spread over one UTC day, touching code files."""
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    for i in range(commits):
        stamp = f"{DAY}T{8 + i * 12 // commits:02d}:{(i * 7) % 60:02d}:00+00:00"
        module = repo / "pkg" / f"mod{i % 9}.py"
        module.parent.mkdir(exist_ok=True)
        with module.open("a", encoding="utf-8") as f:
            f.write(f"def func_{i}(x: int) -> int:\n    return x + {i}\n\n")
        if i % 5 == 0:
            (repo / "README.md").write_text(f"# busy\n\nrevision {i}\n", encoding="utf-8")
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "Bench",
            "GIT_AUTHOR_EMAIL": "bench@example.com",
            "GIT_COMMITTER_NAME": "Bench",
            "GIT_COMMITTER_EMAIL": "bench@example.com",
            "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_DATE": stamp,
        }
        _git(repo, "add", "-A", env=env)
        kind = ("feat", "fix", "docs", "refactor", "perf")[i % 5]
        _git(repo, "commit", "-q", "-m", f"{kind}: change number {i}", env=env)


def timed(argv: Sequence[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.decode(errors='replace')}")
    return elapsed


def line(label: str, samples: Sequence[float], target: float | None) -> str:
    best, median = min(samples), statistics.median(samples)
    verdict = (
        ""
        if target is None
        else f"  target {target:.2f} s: {'ok' if median <= target else 'MISSED'}"
    )
    return f"{label:<28} best {best:.3f} s  median {median:.3f} s  (n={len(samples)}){verdict}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("-n", type=int, default=10, help="runs per measurement (default 10)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="commitdigest-bench-") as tmp:
        root = Path(tmp)
        env = {**os.environ, "COMMITDIGEST_HOME": str(root / "home"), "NO_COLOR": "1"}
        env.pop("OPENAI_API_KEY", None)
        help_times = [timed([*CLI, "--help"], env) for _ in range(args.n)]
        repo = root / "repo"
        build_busy_repo(repo)
        report = [
            *CLI, "report", str(repo), "--date", DAY, "--tz", "UTC", "--lang", "en",
            "--analyser", "rules", "--out", str(root / "reports"),
        ]  # fmt: skip
        first = timed(report, env)
        cached = [timed(report, env) for _ in range(args.n)]
    print(line("commitdigest --help", help_times, HELP_TARGET_S))
    print(line(f"report, first ({COMMITS} commits)", [first], None))
    print(line("report, cached", cached, CACHED_REPORT_TARGET_S))
    missed = statistics.median(help_times) > HELP_TARGET_S or (
        statistics.median(cached) > CACHED_REPORT_TARGET_S
    )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
