"""Benchmark the breaking-change radar's cost on real repositories.

    python bench/radar.py REPO:SINCE:UNTIL[:TZ] ... [--runs 1] [--target 1.5]
                          [--warm-target 1.1] [--git-target 2.0] [--git-from 1.0]

For each real clone and window (``~/src/vllm-ascend:2026-05-20:2026-08-12:Asia/Shanghai``)
it times, as a user waits for them (``commitdigest report … --format json``, the rule
analyser):

* ``git log -p --raw --numstat`` of the window, read through a pipe (the source's command
  line with ``--numstat``, ``git_source.baseline_argv``): the floor the issue set;
* the plain report (``--no-radar``) and the report with the radar, each on a fresh store
  (cold), then each again on its store (warm: nothing to analyse or scan again);

and prints the radar's cost (with / without, cold and warm) and the report with the radar
against raw git, then the CPU seconds of the cold runs (the run, its radar workers and the
git it waits for: steadier than the wall clock on a shared machine) and their ratio. Each
time is the best of ``--runs``; ``cold x`` and ``warm x`` are the ratios of those bests,
``pair x`` the median of each run's own cold ratio (its cold reports timed within seconds
of each other, the plain one first, its warm run between them: a machine whose speed moves
between runs, as this one's does by 10-25 %, moves both; the best of each may come from
different runs). It exits 1 when a cold ratio (``pair x``
with two runs or more) is above ``--target``, a warm one above ``--warm-target`` or a
report with the radar above ``--git-target`` times raw git on a window whose raw git takes
``--git-from`` seconds or more (the issue's long window: below that the report's start-up,
about half a second of Python, is most of it, and the plain report alone is 3x raw git);
the last column names the targets a window misses. The figures only mean something on an
otherwise idle machine (the radar uses both cores).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from git_source import baseline_argv  # this folder's git bench: the raw-git argv

from commitdigest.sources.repo_info import git_env, resolve_repository_sync


def _parse(spec: str) -> tuple[Path, str, str, str]:
    parts = spec.split(":")
    if len(parts) not in (3, 4):
        raise SystemExit(f"expected REPO:SINCE:UNTIL[:TZ], got {spec!r}")
    return Path(parts[0]).expanduser(), parts[1], parts[2], parts[3] if len(parts) == 4 else "UTC"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a run: its process, the radar's workers and every git
    it waited for (a shared VM's wall clock varies by 10-20 %, its CPU seconds much less)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv[:5])} failed: {done.stderr.decode(errors='replace')[-400:]}"
        )
    return took, _children_cpu() - cpu


def _raw_git(repo: Path, since: str, until: str, tz: str) -> float:
    zone = ZoneInfo(tz)
    info = resolve_repository_sync(repo)
    start = datetime.fromisoformat(since).replace(tzinfo=zone)
    end = datetime.fromisoformat(until).replace(tzinfo=zone)
    argv = baseline_argv(info, start, end)
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, env=git_env())
    assert proc.stdout is not None
    while proc.stdout.read(1 << 20):
        pass
    proc.wait()
    return time.perf_counter() - began


def _commits(repo: Path, since: str, until: str, tz: str) -> int:
    out = subprocess.run(
        ["git", "-C", str(repo), "rev-list", "--first-parent", "--count",
         f"--since={since}T00:00:00", f"--until={until}T00:00:00", "HEAD"],
        capture_output=True, text=True, check=False, env={**git_env(), "TZ": tz},
    )  # fmt: skip
    return int(out.stdout.strip() or 0)


def bench(spec: str, runs: int) -> dict[str, float]:
    """The best of ``runs`` of each time, and ``pair``: the median of each run's own ratio
    of its cold reports (with the radar / without)."""
    repo, since, until, tz = _parse(spec)
    base = [sys.executable, "-m", "commitdigest", "report", str(repo), "--since", since,
            "--until", until, "--tz", tz, "--format", "json", "--analyser", "rules"]  # fmt: skip
    best: dict[str, float] = {}
    pairs: list[float] = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            found = {"git": _raw_git(repo, since, until, tz)}
            for label, extra in (("plain", ["--no-radar"]), ("radar", [])):
                home = f"{tmp}/{label}-home"
                argv = [*base, *extra, "--out", f"{tmp}/{label}-out", "--home", home]
                found[f"{label} cold"], found[f"{label} cold cpu"] = _timed(argv)
                found[f"{label} warm"], _ = _timed(argv)
        pairs.append(found["radar cold"] / found["plain cold"])
        for key, value in found.items():
            best[key] = min(best.get(key, value), value)
    return {**best, "pair": statistics.median(pairs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("windows", nargs="+", help="REPO:SINCE:UNTIL[:TZ] of a real clone")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--target", type=float, default=1.5, help="max radar/plain, cold store")
    ap.add_argument("--warm-target", type=float, default=1.1, help="max radar/plain, warm")
    ap.add_argument("--git-target", type=float, default=2.0, help="max radar report/raw git")
    ap.add_argument("--git-from", type=float, default=1.0, help="raw git seconds from which")
    args = ap.parse_args()
    head = ("window", "commits", "git s", "plain s", "radar s", "cold x", "pair x", "warm x",
            "vs git", "cpu plain", "cpu radar", "cpu x", "missed")  # fmt: skip
    print(
        "{:<44} {:>7} {:>7} {:>8} {:>8} {:>7} {:>7} {:>7} {:>7} {:>9} {:>9} {:>6}  {}".format(*head)
    )
    ok = True
    for spec in args.windows:
        repo, since, until, tz = _parse(spec)
        t = bench(spec, args.runs)
        cold = t["radar cold"] / t["plain cold"]
        warm = t["radar warm"] / t["plain warm"]
        vs_git = t["radar cold"] / t["git"]
        name = f"{repo.name} {since}..{until}"
        n = _commits(repo, since, until, tz)
        cpu = t["radar cold cpu"] / t["plain cold cpu"]
        judged = t["pair"] if args.runs > 1 else cold
        missed = [
            label
            for label, bad in (
                ("cold", judged > args.target),
                ("warm", warm > args.warm_target),
                ("git", t["git"] >= args.git_from and vs_git > args.git_target),
            )
            if bad
        ]
        print(
            f"{name:<44} {n:>7} {t['git']:>7.2f} {t['plain cold']:>8.2f} {t['radar cold']:>8.2f}"
            f" {cold:>7.2f} {t['pair']:>7.2f} {warm:>7.2f} {vs_git:>7.2f}"
            f" {t['plain cold cpu']:>9.2f} {t['radar cold cpu']:>9.2f} {cpu:>6.2f}"
            f"  {' '.join(missed) or '-'}",
            flush=True,
        )
        ok &= not missed
    print(
        f"targets: radar/plain cold <= {args.target} ({'pair x' if args.runs > 1 else 'cold x'}),"
        f" warm <= {args.warm_target}, "
        f"radar report/raw git <= {args.git_target} (where raw git takes {args.git_from} s or "
        f"more): {'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
