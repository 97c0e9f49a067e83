"""Many repositories in one run: 100 local repositories × 30 commits on one day.

    python bench/many_repos.py [--repos 100] [--commits 30] [--keep DIR]

Builds the repositories with `git fast-import` (a few seconds), writes a config that
follows all of them with the rule analyser, then times `commitdigest run --date D` (the
first run: every commit read and analysed, one report per repository and the day's
index), the same run again (everything cached), and the two halves `--shard 1/2` and
`--shard 2/2` into another output folder, whose reports must equal the unsharded ones.
Issue 16's floor: the first run within 10 s on the 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DAY = "2026-03-02"
FLOOR_S = 10.0


def make_repo(path: Path, index: int, commits: int) -> None:
    """One repository with ``commits`` commits on DAY (each touching two files)."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    lines: list[str] = []
    for i in range(commits):
        stamp = 1772445600 + i * 600  # 2026-03-02T10:00:00Z onwards
        kind = ("feat", "fix", "docs", "refactor", "test", "perf")[i % 6]
        message = f"{kind}: change {i} of repository {index}\n"
        body = f"value = {i}\n"
        lines += [
            "commit refs/heads/main",
            f"committer Bench <bench@example.com> {stamp} +0000",
            f"data {len(message.encode())}",
            message.rstrip("\n"),
        ]
        for name in (f"src/pkg{index}/mod{i % 7}.py", f"tests/test_{i % 5}.py"):
            lines += [f"M 100644 inline {name}", f"data {len(body.encode())}", body.rstrip("\n")]
        lines.append("")
    subprocess.run(
        ["git", "-C", str(path), "fast-import", "--quiet"],
        input="\n".join(lines) + "\n",
        text=True,
        check=True,
    )
    subprocess.run(["git", "-C", str(path), "checkout", "-q", "main"], check=True)


def run(config: Path, home: Path, *extra: str) -> float:
    env = {**os.environ, "COMMITDIGEST_HOME": str(home)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "commitdigest", "run", "--config", str(config), "--date", DAY,
         *extra],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"run failed ({done.returncode}): {done.stderr[-2000:]}")
    return elapsed


def units(folder: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for path in sorted(folder.glob(f"*/{DAY}.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("generated_at", None)
        out[path.parent.name] = data
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repos", type=int, default=100)
    parser.add_argument("--commits", type=int, default=30)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="many-repos-")) if args.keep is None else args.keep
    root.mkdir(parents=True, exist_ok=True)
    try:
        started = time.perf_counter()
        lines = ['timezone = "UTC"', 'language = "en"', 'formats = ["md", "json"]', ""]
        for i in range(args.repos):
            repo = root / "repos" / f"r{i:03d}"
            make_repo(repo, i, args.commits)
            lines += ["[[repositories]]", f'name = "{repo}"', ""]
        print(f"built {args.repos} repositories × {args.commits} commits in "
              f"{time.perf_counter() - started:.1f} s")  # fmt: skip
        config = root / "commitdigest.toml"
        for name, out in (("full", "out"), ("shards", "out-shards")):
            text = "\n".join([f'output_dir = "{root / out}"', *lines])
            (root / f"{name}.toml").write_text(text, encoding="utf-8")
        config = root / "full.toml"
        first = run(config, root / "home")
        again = run(config, root / "home")
        shard_config = root / "shards.toml"
        one = run(shard_config, root / "home-shards", "--shard", "1/2")
        two = run(shard_config, root / "home-shards", "--shard", "2/2")
        full, sharded = units(root / "out"), units(root / "out-shards")
        reports = len(full)
        total = sum(len(u["repositories"][0]["commits"]) for u in full.values())  # type: ignore[index]
        print(f"run (first, {reports} reports, {total} commits): {first:.2f} s "
              f"(floor {FLOOR_S:.0f} s: {'ok' if first <= FLOOR_S else 'SLOW'})")  # fmt: skip
        print(f"run again (cached):                 {again:.2f} s")
        print(f"--shard 1/2 + --shard 2/2:          {one:.2f} s + {two:.2f} s")
        same = full == sharded
        print(f"shards together equal the unsharded run: {same}")
        return 0 if first <= FLOOR_S and same and reports == args.repos else 1
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
