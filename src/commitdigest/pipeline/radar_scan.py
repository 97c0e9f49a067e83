"""The radar over one repository's window, on every core when the window is long, and
while the source is still reading it.

A long window is cut into as many contiguous parts as there are cores (at most
:data:`MAX_WORKERS`); each part is scanned by a Python process of its own (``python -m
commitdigest.pipeline.radar_scan``: the window's start goes in on its stdin, then its
commits one by one as the source reads them, pickled; each commit's items come back on its
stdout as soon as they are found; it opens a blob reader of its own). So the scan runs
beside ``git log`` instead of after it, and what waits for a commit's items can start on it
then. Every kind looks at one commit only, so the parts need nothing of each other. A worker
that cannot start or fails leaves what it did not answer to this process: the result is the
same, only slower.

A plain subprocess rather than ``multiprocessing``: spawning with it re-imports the
caller's main module, which a library must not do to its caller.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from commitdigest.sources.blobs import BlobReader

if TYPE_CHECKING:  # the radar's kinds are imported when a window is scanned, not to plan it
    from commitdigest.analysis.radar.driver import CommitInput
    from commitdigest.models import ApiChange

__all__ = [
    "MAX_WORKERS",
    "PARALLEL_FROM",
    "OnItems",
    "RadarStream",
    "scan_repository",
    "workers_for",
]

PARALLEL_FROM = 150  # commits: below, worker processes cost more than they save (measured)
MAX_WORKERS = 4

Found = dict[str, list["ApiChange"]]
OnItems = Callable[[str, list["ApiChange"]], None]


def workers_for(total: int) -> int:
    """How many worker processes scan a window of ``total`` commits (0: this one alone)."""
    cores = os.cpu_count() or 1
    if total < PARALLEL_FROM or cores < 2:
        return 0
    return min(cores, MAX_WORKERS)


class RadarStream:
    """The radar of one window, fed commit by commit as the source reads them.

    ``total`` is the number of commits the window holds and ``base`` the revision it starts
    from (the oldest commit's parent); :meth:`add` takes each commit in the order read (any
    order), :meth:`finish` gives the items of every commit. ``on_items(sha, items)`` is
    called, on a thread of the stream, as each commit's items are found by a worker.
    """

    def __init__(
        self, root: Path, base: str, total: int, on_items: OnItems = lambda sha, items: None
    ) -> None:
        self.root = root
        self.base = base
        self.total = total
        self._count = 0
        self.inputs: dict[str, CommitInput] = {}  # what was added, by SHA
        self._workers: list[_Worker] = []
        self._aborted = False
        for _ in range(workers_for(total)):
            worker = _Worker.start(root, base, on_items)
            if worker is None:
                break
            self._workers.append(worker)

    def add(self, commit: CommitInput) -> None:
        """Give ``commit`` to its worker (never blocks: a thread writes it)."""
        self.inputs[commit.sha] = commit
        if self._workers:
            k = min(self._count * len(self._workers) // max(self.total, 1), len(self._workers) - 1)
            self._workers[k].send(commit)
        self._count += 1

    def finish(self, commits: Sequence[CommitInput]) -> Found:
        """Items per SHA of ``commits`` (the whole window, oldest first); blocks until every
        worker is done, and scans here what a worker could not."""
        from commitdigest.analysis.radar.driver import WindowScanner

        results: Found = {}
        for worker in self._workers:
            worker.close()
        with BlobReader(self.root) as reader:
            for worker in self._workers:
                results.update(worker.result())
            scanner: WindowScanner | None = None
            for c in commits:
                if self._aborted:
                    break  # the run is over: nobody waits for the rest
                if c.sha not in results:  # no worker, or its worker failed
                    scanner = scanner or WindowScanner(reader, self.base)
                    results[c.sha] = scanner.scan(c)
        wanted = {c.sha for c in commits}
        return {sha: items for sha, items in results.items() if sha in wanted}

    def abort(self) -> None:
        """Stop the workers, and the scan of what they left (the run failed)."""
        self._aborted = True
        for worker in self._workers:
            worker.kill()


def scan_repository(root: Path, commits: Sequence[CommitInput], base: str | None = None) -> Found:
    """Radar items per SHA of ``commits`` (oldest first) of the repository at ``root``, a
    window that starts from ``base`` (default: the first commit's parent)."""
    from commitdigest.analysis.radar.driver import scan_window

    if not commits:
        return {}
    base = base or commits[0].parent or commits[0].sha
    if not workers_for(len(commits)):
        with BlobReader(root) as reader:
            return scan_window(reader, commits, base=base)
    stream = RadarStream(root, base, len(commits))
    for c in commits:
        stream.add(c)
    return stream.finish(commits)


_END = None  # what tells a worker its part is whole


class _Worker:
    """One worker process, the thread that writes its commits and the one that reads their
    items."""

    def __init__(self, proc: subprocess.Popen[bytes], on_items: OnItems) -> None:
        self.proc = proc
        self._on_items = on_items
        # the header (root, base), then commits, then the end mark
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._found: Found = {}
        self._writer = threading.Thread(target=self._write, name="radar-writer", daemon=True)
        self._reader = threading.Thread(target=self._read, name="radar-reader", daemon=True)
        self._writer.start()
        self._reader.start()

    @classmethod
    def start(cls, root: Path, base: str, on_items: OnItems) -> _Worker | None:
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "commitdigest.pipeline.radar_scan"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            return None
        worker = cls(proc, on_items)
        worker._queue.put((str(root), base))
        return worker

    def send(self, commit: CommitInput) -> None:
        self._queue.put(commit)

    def close(self) -> None:
        self._queue.put(_END)

    def _write(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            while True:
                item = self._queue.get()
                pickle.dump(item, stdin, protocol=pickle.HIGHEST_PROTOCOL)
                stdin.flush()
                if item is _END:
                    break
        except (OSError, ValueError, pickle.PicklingError):
            pass  # the worker is gone: what it did not answer is scanned here
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    def _read(self) -> None:
        """Each commit's items as the worker writes them, up to its end mark."""
        stdout = self.proc.stdout
        assert stdout is not None
        try:
            while (message := pickle.load(stdout)) is not _END:
                sha, items = message
                self._found[sha] = items
                self._on_items(sha, items)
        except (OSError, EOFError, ValueError, TypeError, AttributeError, pickle.PickleError):
            pass  # the worker failed: its answers so far stand, the rest is scanned here
        finally:
            stdout.close()

    def result(self) -> Found:
        """The items the worker found (of all its part, unless it failed)."""
        self._reader.join()
        self.proc.wait()
        self._writer.join()
        return self._found

    def kill(self) -> None:
        self.close()
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()
        self._writer.join(timeout=5)
        self._reader.join(timeout=5)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError, ValueError):
                    pipe.close()


def _work(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """The worker: the repository and the window's start, then commits until the end mark,
    from ``stdin``; each commit's ``(sha, items)`` to ``stdout`` once scanned, then the end
    mark."""
    from commitdigest.analysis.radar.driver import WindowScanner

    root, base = pickle.load(stdin)
    with BlobReader(Path(root)) as reader:
        scanner = WindowScanner(reader, base)
        while (commit := pickle.load(stdin)) is not _END:
            pickle.dump((commit.sha, scanner.scan(commit)), stdout, pickle.HIGHEST_PROTOCOL)
            stdout.flush()
    pickle.dump(_END, stdout)
    stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_work(sys.stdin.buffer, sys.stdout.buffer))
