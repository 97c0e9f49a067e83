"""Benchmark commitdigest's git stage against raw ``git log`` on the same window.

    python bench/git_source.py [--commits N] [--repo PATH]... [--report] [--runs 3] [--floor 1.5]

Without ``--repo`` it generates (once; cached under ./.bench/) a bare repository with
``--commits`` commits spread over six months with ``git fast-import``: several files per
commit, a few hundred changed lines on average, about one commit in a hundred with thousands
of lines. It then times, best of ``--runs``, for a one-day window and for a window spanning
the whole history, and for the last twelve weeks:

* ``git log -p --first-parent`` over the window, read through a pipe and thrown away (the
  baseline: what a user would type; the ratio is against it);
* raw git: the command line ``read_commits`` runs (``git_log_argv``: also ``--raw``) with
  ``--numstat`` (the baseline the issue set, ``git log -p --raw --numstat``: the source no
  longer asks git for it, it counts the lines from the patch), its stdout read fully
  through a pipe and thrown away;
* commitdigest: ``read_commits`` (git + streaming parse + budgeted patches + Commit models).

With ``--report`` it also times the whole plain report of the one-day and twelve-week windows
(``commitdigest report --no-radar``, a fresh store: what a user waits for) against ``git log
-p`` and against raw git (``git log -p --raw --numstat …``: the floor applies to that
one). ``--repo`` is repeatable: measure real clones, not only generated history.

It prints the ratios and exits 1 when a multi-week ratio is above ``--floor``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TypeVar

from commitdigest.gitcmd import git_env
from commitdigest.models import Commit
from commitdigest.sources.git import git_log_argv, read_commits
from commitdigest.sources.repo_info import RepositoryInfo, resolve_repository_sync

T = TypeVar("T")
TZ = timezone(timedelta(hours=8))
START = datetime(2025, 7, 1, tzinfo=TZ)
SPAN_DAYS = 183
GENERATOR_VERSION = 2

_WORDS = [
    "model", "runner", "cache", "kernel", "attention", "scheduler", "token", "batch", "worker",
    "config", "tensor", "layer", "quant", "rope", "sampler", "engine", "request", "output",
    "input", "block", "manager", "buffer", "stream", "async", "router", "spec", "decode",
    "prefill", "metadata", "weight", "loader", "lora", "rocm", "cuda", "triton",
]  # fmt: skip
_TAGS = ["[Bugfix]", "[BugFix]", "[Doc]", "[CI]", "[Perf]", "[Model]", "[Core]", "", "", ""]


def _line_pool(rng: random.Random, size: int = 4000) -> list[bytes]:
    pool = []
    for _ in range(size):
        indent = "    " * rng.randint(0, 3)
        words = rng.choices(_WORDS, k=rng.randint(2, 8))
        kind = rng.random()
        if kind < 0.3:
            text = f"{indent}{words[0]}_{words[1]} = {'.'.join(words[2:]) or '0'}"
        elif kind < 0.5:
            text = f"{indent}def {'_'.join(words[:3])}(self, {', '.join(words[3:])}):"
        elif kind < 0.6:
            text = f"{indent}# {' '.join(words)}"
        else:
            text = f"{indent}{words[0]}.{words[1]}({', '.join(words[2:])})"
        pool.append(text.encode() + b"\n")
    return pool


def _stream(n_commits: int, seed: int = 7) -> Iterator[bytes]:
    """A ``git fast-import`` stream for a linear history of ``n_commits`` commits."""
    rng = random.Random(seed)
    pool = _line_pool(rng)
    authors = [(f"Dev {i:02d}", f"dev{i:02d}@example.com") for i in range(60)]
    files: dict[str, list[bytes]] = {}
    dirs = ["vllm/engine", "vllm/model_executor/layers", "vllm/v1/worker", "tests/kernels",
            "docs/source", "csrc/attention", "vllm/entrypoints/openai", "benchmarks"]  # fmt: skip
    step = SPAN_DAYS * 86400 / n_commits
    t0 = int(START.timestamp())
    for i in range(n_commits):
        out: list[bytes] = []
        touched: list[str] = []
        if i == 0 or rng.random() < 0.08 or len(files) < 50:  # new files
            for _ in range(rng.randint(1, 3) if i else 300):
                name = f"{rng.choice(dirs)}/{rng.choice(_WORDS)}_{len(files)}.py"
                files[name] = rng.choices(pool, k=rng.randint(40, 160))
                touched.append(name)
        names = list(files)
        for name in rng.sample(names, k=min(len(names), rng.randint(1, 6))):
            lines = files[name]
            at = rng.randrange(len(lines) + 1)
            cut = rng.randint(0, min(40, len(lines) - at))
            lines[at : at + cut] = rng.choices(pool, k=rng.randint(5, 45))
            touched.append(name)
        deleted = None
        if rng.random() < 0.03 and len(files) > 100:
            deleted = rng.choice(names)
            files.pop(deleted)
        big = b""
        if rng.random() < 0.01:  # a big generated file, added once and never edited again
            content = b"".join(rng.choices(pool, k=rng.randint(2000, 15000)))
            big_name = f"{rng.choice(dirs)}/generated_{i}.py".encode()
            big = b"M 100644 inline %s\ndata %d\n%s\n" % (big_name, len(content), content)
        author, email = rng.choice(authors)
        when = t0 + int(i * step + rng.uniform(0, step * 0.9))
        title = f"{rng.choice(_TAGS)} {' '.join(rng.choices(_WORDS, k=6))} (#{10000 + i})".strip()
        msg = f"{title}\n\n{' '.join(rng.choices(_WORDS, k=30))}\n\nSigned-off-by: {author}\n"
        data = msg.encode()
        ident = f"{author} <{email}> {when} +0800\n".encode()
        out.append(b"commit refs/heads/main\nauthor " + ident + b"committer " + ident)
        out.append(b"data %d\n%s" % (len(data), data))
        for name in dict.fromkeys(touched):
            if name in files:
                content = b"".join(files[name])
                out.append(
                    b"M 100644 inline %s\ndata %d\n%s\n" % (name.encode(), len(content), content)
                )
        out.append(big)
        if deleted:
            out.append(b"D %s\n" % deleted.encode())
        out.append(b"\n")
        yield b"".join(out)


def generate(path: Path, n_commits: int) -> None:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    env = git_env()
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True, env=env)
    proc = subprocess.Popen(
        ["git", "-C", str(path), "fast-import", "--quiet", "--date-format=raw"],
        stdin=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None
    for chunk in _stream(n_commits):
        proc.stdin.write(chunk)
    proc.stdin.close()
    if proc.wait() != 0:
        sys.exit("git fast-import failed")
    subprocess.run(
        ["git", "-C", str(path), "commit-graph", "write", "--reachable"], check=True, env=env
    )
    (path / "commitdigest-bench-complete").write_text(str(n_commits))


def cached_repo(n_commits: int) -> Path:
    path = Path(".bench") / f"repo-{n_commits}-v{GENERATOR_VERSION}.git"
    if not (path / "commitdigest-bench-complete").exists():
        t = time.perf_counter()
        print(f"generating {n_commits} commits in {path} ...", flush=True)
        generate(path, n_commits)
        print(f"generated in {time.perf_counter() - t:.1f} s", flush=True)
    return path


def drain(argv: list[str]) -> int:
    """Run ``argv``, read its stdout fully through a pipe, return how many bytes it gave."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, env=git_env())
    assert proc.stdout is not None
    fd, total = proc.stdout.fileno(), 0
    while chunk := os.read(fd, 1 << 20):
        total += len(chunk)
    if proc.wait() != 0:
        sys.exit(f"{' '.join(argv[:4])} failed")
    return total


def baseline_argv(repo: RepositoryInfo, start: datetime, end: datetime) -> list[str]:
    """Raw git as the issue measures it, ``git log -p --raw --numstat`` with every other
    option of the source's command line: the floor the report ratios are against."""
    argv = git_log_argv(repo, start, end)
    at = argv.index("-p")
    return [*argv[:at], "--numstat", *argv[at:]]


def raw_git(repo: RepositoryInfo, start: datetime, end: datetime) -> int:
    return drain(baseline_argv(repo, start, end))


def plain_git_log_p(repo: RepositoryInfo, start: datetime, end: datetime) -> int:
    """The baseline a user would type: ``git log -p --first-parent`` over the window."""
    return drain([
        "git", "-C", str(repo.root), "log", "-p", "--first-parent",
        f"--since={int(start.timestamp())}", f"--until={int(end.timestamp())}", repo.branch,
    ])  # fmt: skip


def best_of(runs: int, fn: Callable[[], T]) -> tuple[float, T]:
    timings: list[float] = []
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        timings.append(time.perf_counter() - t)
    return min(timings), result


def ours(repo: RepositoryInfo, start: datetime, end: datetime) -> list[Commit]:
    return asyncio.run(read_commits(repo, start, end))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--commits", type=int, default=20000)
    ap.add_argument(
        "--repo", type=Path, action="append", default=[],
        help="benchmark this repository instead (repeatable: real clones)",
    )  # fmt: skip
    ap.add_argument(
        "--report", action="store_true",
        help="also time the whole plain report (report --no-radar, fresh store) per window",
    )  # fmt: skip
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--floor", type=float, default=1.5, help="max commitdigest/raw on the long window"
    )
    args = ap.parse_args()
    worst = 0.0
    for path in args.repo or [cached_repo(args.commits)]:
        worst = max(worst, bench_repository(resolve_repository_sync(path), args))
    ok = worst <= args.floor
    print(f"worst multi-week ratio {worst:.2f} (floor {args.floor}): {'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


def plain_report(repo: RepositoryInfo, start: datetime, end: datetime) -> int:
    """The whole report of the window without the radar, fresh store: the user's wait."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [sys.executable, "-m", "commitdigest", "report", str(repo.root), "--since",
             start.isoformat(), "--until", end.isoformat(), "--tz", "UTC", "--no-radar",
             "--format", "json", "--out", f"{tmp}/out", "--home", f"{tmp}/home"],
            capture_output=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            sys.exit(f"report failed: {done.stderr.decode(errors='replace')[-500:]}")
        return 0


def bench_repository(repo: RepositoryInfo, args: argparse.Namespace) -> float:
    probe = subprocess.run(
        ["git", "-C", str(repo.root), "log", "--first-parent", "--format=%ct", repo.branch],
        capture_output=True, check=True, env=git_env(),
    )  # fmt: skip
    stamps = sorted(int(s) for s in probe.stdout.split())
    first, last = (datetime.fromtimestamp(s, TZ) for s in (stamps[0], stamps[-1]))
    day = datetime.fromtimestamp(stamps[len(stamps) // 2], TZ).replace(hour=0, minute=0, second=0)
    windows = {
        "one day": (day, day + timedelta(days=1)),
        "12 weeks": (last - timedelta(weeks=12), last + timedelta(seconds=1)),
        "whole history": (first.replace(hour=0, minute=0, second=0), last + timedelta(seconds=1)),
    }
    span = f"{first:%Y-%m-%d} .. {last:%Y-%m-%d}"
    print(f"repository {repo.root} ({len(stamps)} first-parent commits, {span})")
    head = ("window", "commits", "MB", "git log -p s", "raw git s", "commitdigest s", "ratio")
    extra = ("report s", "report/-p", "report/raw") if args.report else ()
    print("{:<15} {:>8} {:>8} {:>12} {:>11} {:>15} {:>6}".format(*head), *extra)
    ratios = {}
    for label, (start, end) in windows.items():
        plain_s, _ = best_of(args.runs, functools.partial(plain_git_log_p, repo, start, end))
        raw_s, size = best_of(args.runs, functools.partial(raw_git, repo, start, end))
        ours_s, commits = best_of(args.runs, functools.partial(ours, repo, start, end))
        ratio = ratios[label] = ours_s / plain_s  # against what a user would type
        row = (
            f"{label:<15} {len(commits):>8} {size / 1e6:>8.1f} {plain_s:>12.3f} {raw_s:>11.3f}"
            f" {ours_s:>15.3f} {ratio:>6.2f}"
        )
        if args.report and label != "whole history":
            report_s, _ = best_of(1, functools.partial(plain_report, repo, start, end))
            ratios[f"report {label}"] = report_s / raw_s  # the baseline
            row += f" {report_s:>9.3f} {report_s / plain_s:>9.2f} {report_s / raw_s:>11.2f}"
        print(row, flush=True)
    weeks, whole = ratios["12 weeks"], ratios["whole history"]
    worst = max(weeks, whole, ratios.get("report 12 weeks", 0.0))
    print(f"12-week ratio {weeks:.2f}, whole-history ratio {whole:.2f}", end="")
    if "report 12 weeks" in ratios:
        print(
            f", plain report over 12 weeks / raw git {ratios['report 12 weeks']:.2f}",
            end="",
        )
    print()
    return worst


if __name__ == "__main__":
    sys.exit(main())
