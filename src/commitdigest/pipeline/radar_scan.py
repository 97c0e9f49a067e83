"""The radar over one repository's window, on both cores when the window is long.

The later half of the commits is scanned by a second Python process (``python -m
commitdigest.pipeline.radar_scan``: the commits go in on its stdin, the items come back on
its stdout, both pickled; it opens a blob reader of its own) while this process scans the
first half; the environment variable kind, which follows every commit in order, runs here
afterwards over the whole window. A worker that cannot start or fails leaves its half to
this process: the result is the same, only slower.

A plain subprocess rather than ``multiprocessing``: spawning with it re-imports the
caller's main module, which a library must not do to its caller.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from commitdigest.analysis.radar.driver import CommitInput, env_window, scan_window
from commitdigest.models import ApiChange
from commitdigest.sources.blobs import BlobReader

__all__ = ["PARALLEL_FROM", "scan_repository"]

PARALLEL_FROM = 150  # commits: below, a second process costs more than it saves

Found = dict[str, list[ApiChange]]


def scan_repository(root: Path, commits: Sequence[CommitInput]) -> Found:
    """Radar items per SHA of ``commits`` (oldest first) of the repository at ``root``."""
    with BlobReader(root) as reader:
        if len(commits) < PARALLEL_FROM or (os.cpu_count() or 1) < 2:
            return scan_window(reader, commits)
        base = commits[0].parent or commits[0].sha
        half = len(commits) // 2
        worker = _start(root, commits[half:], base)
        results = scan_window(reader, commits[:half], base=base, env=False)
        later = _finish(worker)
        if later is None:  # no second process: this one does it
            later = scan_window(reader, commits[half:], base=base, env=False)
        results.update(later)
        for sha, items in env_window(reader, commits, base=base).items():
            results[sha] = [*results.get(sha, []), *items]
        return results


def _start(root: Path, commits: Sequence[CommitInput], base: str) -> subprocess.Popen[bytes] | None:
    try:
        worker = subprocess.Popen(
            [sys.executable, "-m", "commitdigest.pipeline.radar_scan"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None
    assert worker.stdin is not None
    try:
        pickle.dump((str(root), list(commits), base), worker.stdin)
        worker.stdin.close()
    except OSError:
        worker.kill()
        worker.wait()
        return None
    return worker


def _finish(worker: subprocess.Popen[bytes] | None) -> Found | None:
    if worker is None:
        return None
    assert worker.stdout is not None
    try:
        data = worker.stdout.read()
    finally:
        worker.stdout.close()
        code = worker.wait()
    if code != 0:
        return None
    try:
        found = pickle.loads(data)
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError):
        return None
    return found if isinstance(found, dict) else None


def _work() -> int:
    """The worker: commits from stdin, items to stdout."""
    root, commits, base = pickle.load(sys.stdin.buffer)
    with BlobReader(Path(root)) as reader:
        found = scan_window(reader, commits, base=base, env=False)
    pickle.dump(found, sys.stdout.buffer)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_work())
