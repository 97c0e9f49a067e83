"""The radar over one repository's window, on every core when the window is long, and
while the source is still reading it.

A short window is scanned on a thread of this process as its commits are read (``git log``
leaves the process idle while it works). A long window is scanned by one worker process per
core but one (at most :data:`MAX_WORKERS`), and by one more once the read is over (the read
and ``git log`` take a core until then): one ``python -m commitdigest.pipeline.radar_scan``
reads the window's start, reads the public surface there, and forks one process for each
other part (POSIX; without ``fork``, a thread of this process scans the window), so the
imports and the surface are paid once, not once per core. The last one, the late helper,
it forks when this process first writes to it, after the read: it starts with every text its
parent read and parsed so far (the window's start among them, read for the surface). It was
a thread of this process until the thirty-first session, which imported the radar's kinds
and read and parsed those texts again: 0.3-0.4 s of CPU on the core the run's own work
needs, and few commits scanned. This process imports no kind of the radar then.

Each worker gets commits pickled on a pipe of its own and sends each commit's items back on
another as soon as they are found; each has a blob reader of its own. So the scan runs
beside ``git log`` instead of after it, and what waits for a commit's items can start on it
then. Every kind looks at one commit only, so the workers need nothing of each other.

Each worker has a contiguous part of the window (neighbouring commits share file versions:
each is read and parsed once, and made from its neighbour where it can be, whichever way
the part runs), fed in the order the source reads it (newest first); it takes the next
:data:`CHUNK` commits of its part whenever it has fewer than :data:`AHEAD` unanswered. A
worker whose part is done (or not yet read), and the late helper, take the last commits of
the part with the most left, the ones next to its own: so the workers finish together
(fixed parts alone left one worker scanning by itself for a second or more on real
windows). A worker that cannot start or fails leaves what it did not answer to this
process: the result is the same, only slower.

A plain subprocess rather than ``multiprocessing``: spawning with it re-imports the
caller's main module, which a library must not do to its caller; and the fork happens in
that fresh process, which runs no thread, never in the caller (whose threads may hold locks).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from commitdigest.sources.blobs import BlobReader

if TYPE_CHECKING:  # the radar's kinds are imported when a window is scanned, not to plan it
    from commitdigest.analysis.radar.commit import CommitInput
    from commitdigest.analysis.radar.driver import WindowScanner
    from commitdigest.models import ApiChange

__all__ = [
    "AHEAD",
    "CHUNK",
    "MAX_WORKERS",
    "PARALLEL_FROM",
    "SCANNING",
    "OnItems",
    "RadarStream",
    "discard",
    "prestart",
    "scan_repository",
    "workers_for",
]

# commits: below, the workers cost more than they save (measured: pip's 117 and vllm-ascend's
# 92 commits were about 10 % faster with them once they shared one start-up; a generated day
# of 45 small commits was slower, its scan costing less than their start)
PARALLEL_FROM = 80
MAX_WORKERS = 4
CHUNK = 8  # commits a worker takes at a time
AHEAD = 2 * CHUNK  # a worker takes more once it has fewer unanswered commits than this

Found = dict[str, list["ApiChange"]]
OnItems = Callable[[str, list["ApiChange"]], None]


def workers_for(total: int) -> int:
    """How many worker processes scan a window of ``total`` commits (0: this one alone):
    one per core but the one this process reads the window on (with ``git log``), which
    scans what the workers have left once the read is over."""
    cores = os.cpu_count() or 1
    if total < PARALLEL_FROM or cores < 2 or not hasattr(os, "fork"):
        return 0  # a short window, one core, or no fork (then this process scans it all)
    return min(cores - 1, MAX_WORKERS)


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
        self.inputs: dict[str, CommitInput] = {}  # what was added, by SHA
        self._changed = threading.Condition()  # a commit came, one was answered, or the end
        self._closed = False  # every commit was added
        # for the late helper's writer, which waits for it alone (woken by each commit added
        # and answered, it cost this process a switch of threads each time): the read is
        # over, the run failed, or the helper was stopped
        self._over = threading.Event()
        self._aborted = False
        self._workers: list[_Worker | _Here] = []
        # each worker's part of the window, not yet taken
        self._parts: list[deque[CommitInput]] = [deque() for _ in range(workers_for(total))]
        if self._parts:
            self._workers = [*_Worker.start(root, base, on_items, self, len(self._parts))]
        if not self._workers:  # a short window, or no process could start: a thread here
            self._parts = [deque()]
            self._workers = [_Here(self, on_items)]

    def add(self, commit: CommitInput) -> None:
        """Queue ``commit`` in its worker's part (never blocks)."""
        k = min(len(self.inputs) * len(self._parts) // max(self.total, 1), len(self._parts) - 1)
        with self._changed:
            # a worker waits for commits only when every part is empty (else it takes from
            # the longest, or waits for its answers): no other commit wakes the waiters
            starved = not any(self._parts)
            self._parts[k].append(commit)
            if starved:
                self._changed.notify_all()
        self.inputs[commit.sha] = commit

    def take(self, worker: _Worker | _Here) -> list[CommitInput] | None:
        """The next commits for ``worker``, once it has fewer than :data:`AHEAD`
        unanswered (blocks until then); None when there are no more for it (all were taken
        after the last one came, the worker is gone, or the run is over). The late helper
        (no part of its own) asks only once :meth:`wait_read` returned."""
        with self._changed:
            own = self._parts[worker.part] if worker.part is not None else deque()
            while True:
                if worker.gone or self._aborted:
                    return None
                other = max(self._parts, key=len)
                if other and worker.unanswered < AHEAD:
                    if own:
                        return [own.popleft() for _ in range(min(CHUNK, len(own)))]
                    taken = [other.pop() for _ in range(min(CHUNK, len(other)))]
                    return taken[::-1]
                if self._closed and not other:
                    return None
                self._changed.wait()

    def close(self) -> None:
        """Every commit was added (the source's read is over): a worker whose part is done
        ends, and its blob reader with it, without waiting for :meth:`finish`."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self.release()

    def wait_read(self) -> None:
        """Block until every commit was added, the run failed or :meth:`release` was
        called (the late helper's wait: it is not even forked while this process reads)."""
        self._over.wait()

    def release(self) -> None:
        """End :meth:`wait_read`."""
        self._over.set()

    def changed(self) -> None:
        """A worker answered a commit or ended: the others may take more."""
        with self._changed:
            self._changed.notify_all()

    def finish(self, commits: Sequence[CommitInput]) -> Found:
        """Items per SHA of ``commits`` (the whole window, oldest first); blocks until every
        worker is done, and scans here what a worker could not (only then are the radar's
        kinds imported in this process)."""
        results: Found = {}
        self.close()
        with BlobReader(self.root) as reader:
            for worker in self._workers:
                results.update(worker.result())
            scanner: WindowScanner | None = None
            for c in commits:
                if self._aborted:
                    break  # the run is over: nobody waits for the rest
                if c.sha not in results:  # no worker, or its worker failed
                    if scanner is None:
                        from commitdigest.analysis.radar.driver import WindowScanner

                        scanner = WindowScanner(reader, self.base)
                    with SCANNING:
                        results[c.sha] = scanner.scan(c)
        wanted = {c.sha for c in commits}
        return {sha: items for sha, items in results.items() if sha in wanted}

    def abort(self) -> None:
        """Stop the workers, and the scan of what they left (the run failed)."""
        with self._changed:
            self._aborted = True
            self._changed.notify_all()
        self.release()
        for worker in self._workers:
            if isinstance(worker, _Worker):
                _kill(worker.proc)  # the one process, and those it forked
                break
        for worker in self._workers:
            worker.stop()


def scan_repository(root: Path, commits: Sequence[CommitInput], base: str | None = None) -> Found:
    """Radar items per SHA of ``commits`` (oldest first) of the repository at ``root``, a
    window that starts from ``base`` (default: the first commit's parent)."""
    from commitdigest.analysis.radar.driver import scan_window

    if not commits:
        return {}
    base = base or commits[0].parent or commits[0].sha
    if not workers_for(len(commits)):
        with BlobReader(root) as reader, SCANNING:
            return scan_window(reader, commits, base=base)
    stream = RadarStream(root, base, len(commits))
    for c in commits:
        stream.add(c)
    return stream.finish(commits)


_END = None  # what tells a worker its part is whole

# one scan at a time in this process: the radar's caches (a module version's reading, its
# API model) are shared by every repository whose text is the same, and were written for one
# scanner at a time; threads of one process share one core anyway (the GIL)
SCANNING = threading.Lock()


class _Here:
    """The worker of a short window (or of one whose processes could not start): a thread of
    this process, with a blob reader of its own, that reads the window's public surface while
    ``git log`` starts, then scans each commit as the source reads it (git's work leaves this
    process idle). A scan that raises leaves the rest to :meth:`RadarStream.finish`, which
    raises it again there."""

    unanswered = 0  # it answers each commit it takes before it takes more

    def __init__(self, stream: RadarStream, on_items: OnItems) -> None:
        self.part: int | None = 0
        self._stream = stream
        self._on_items = on_items
        self._found: Found = {}
        self.gone = False
        self._thread = threading.Thread(target=self._run, name="radar-here", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        from commitdigest.analysis.radar.driver import WindowScanner
        from commitdigest.analysis.radar.public import public_surface

        stream = self._stream
        try:
            with BlobReader(stream.root) as reader:
                scanner = WindowScanner(reader, stream.base)
                with SCANNING:
                    public_surface(scanner.repo)  # what every kind asks first
                while not self.gone and (commits := stream.take(self)) is not None:
                    for commit in commits:
                        if self.gone:
                            return
                        with SCANNING:
                            items = scanner.scan(commit)
                        self._found[commit.sha] = items
                        self._on_items(commit.sha, items)
        except Exception:  # scanned again by finish(), which raises it there
            pass
        finally:
            self.gone = True
            stream.changed()

    def result(self) -> Found:
        self._thread.join()
        return self._found

    def stop(self) -> None:
        """Stop after the commit it scans, without waiting for it (a run's failure must not
        wait for a scan; the thread closes its blob reader as it ends)."""
        self.gone = True
        self._stream.changed()


class _Worker:
    """One worker (a process, or a process forked by it), the thread that writes it the
    commits it takes from the stream and the one that reads their items. ``part`` None: the
    late helper, which writes nothing before the read is over and then the mark that has it
    forked (:data:`_GO`) before its first commits, or closes its pipe when none are left."""

    def __init__(
        self, proc: subprocess.Popen[bytes], pipes: tuple[IO[bytes], IO[bytes]],
        header: tuple[str, str], stream: RadarStream, part: int | None, on_items: OnItems,
    ) -> None:  # fmt: skip
        self.proc = proc  # the process it runs in, or the one that forked it
        self._to, self._from = pipes
        self.part = part  # the index of its part of the window
        self._header = header
        self._stream = stream
        self._on_items = on_items
        self._found: Found = {}
        self._sent = 0
        self.gone = False  # the worker ended or failed: it takes nothing more
        self._writer = threading.Thread(target=self._write, name="radar-writer", daemon=True)
        self._reader = threading.Thread(target=self._read, name="radar-reader", daemon=True)
        self._writer.start()
        self._reader.start()

    @classmethod
    def start(
        cls, root: Path, base: str, on_items: OnItems, stream: RadarStream, parts: int
    ) -> list[_Worker]:
        """Workers for ``parts`` parts and the late helper: one process that serves the
        first part and forks one more for each other part (so they share its imports and
        the window's public surface, read once) and the helper once asked, each on a pipe
        pair of its own (the process :func:`prestart` started, if it did); [] if it cannot
        start."""
        started = _spare(parts) or _spawn(parts)
        if started is None:
            return []
        proc, ends = started
        header = (str(root), base)
        numbers: list[int | None] = [*range(parts), None]
        return [
            cls(proc, end, header, stream, part, on_items)
            for part, end in zip(numbers, ends, strict=True)
        ]

    @property
    def unanswered(self) -> int:
        return self._sent - len(self._found)

    def _write(self) -> None:
        """The header (the late helper: the mark that has it forked, once the read is over
        and if any commit is left), then the commits the worker takes, then the end mark."""
        stdin = self._to
        try:
            first: list[CommitInput] | None = []
            if self.part is None:
                self._stream.wait_read()
                first = None if self.gone else self._stream.take(self)
                if first is None:
                    return  # none left: its pipe closes, and no process is forked for it
                stdin.write(_GO)
            else:
                pickle.dump(self._header, stdin, protocol=pickle.HIGHEST_PROTOCOL)
                stdin.flush()
            while (commits := first or self._stream.take(self)) is not None:
                first = []
                for commit in commits:
                    pickle.dump(commit, stdin, protocol=pickle.HIGHEST_PROTOCOL)
                    self._sent += 1
                stdin.flush()
            pickle.dump(_END, stdin, protocol=pickle.HIGHEST_PROTOCOL)
            stdin.flush()
        except (OSError, ValueError, pickle.PicklingError):
            pass  # the worker is gone: what it did not answer is scanned here
        finally:
            self._end()
            with contextlib.suppress(OSError):
                stdin.close()

    def _read(self) -> None:
        """Each commit's items as the worker writes them, up to its end mark."""
        stdout = self._from
        try:
            while (message := pickle.load(stdout)) is not _END:
                sha, items = message
                self._found[sha] = items
                self._on_items(sha, items)
                if self.unanswered < AHEAD:  # its writer may take more now (no other waiter
                    self._stream.changed()  # waits for its answers)
        except (OSError, EOFError, ValueError, TypeError, AttributeError, pickle.PickleError):
            pass  # the worker failed: its answers so far stand, the rest is scanned here
        finally:
            self._end()
            stdout.close()

    def _end(self) -> None:
        self.gone = True
        self._stream.changed()

    def result(self) -> Found:
        """The items the worker found (of all it took, unless it failed)."""
        self._reader.join()
        self.proc.wait()
        self._writer.join()
        return self._found

    def stop(self) -> None:
        """Stop its threads once its process was killed, and close its pipes."""
        self._end()
        self.proc.wait()
        self._writer.join(timeout=5)
        self._reader.join(timeout=5)
        _close_pipes((self._to, self._from))


_Started = tuple[subprocess.Popen[bytes], list[tuple[IO[bytes], IO[bytes]]]]
# the window a worker started early is told of (:func:`prestart`): the repository as the
# command line names it, the branch (None: HEAD), the start and the end (POSIX seconds)
Hint = tuple[str, str | None, float, float]
_HINT = "\0hint"  # what a hint's message starts with (a header's, a path: never a NUL)


def _spawn(parts: int, hint: Hint | None = None) -> _Started | None:
    """The worker process for ``parts`` parts and the late helper, and our ends of their
    pipe pairs (requests, answers; the helper's last); None if it cannot start. It waits
    for the repository and the window's start on the first part's pipe (after ``hint``,
    written there first)."""
    pipes: list[tuple[tuple[int, int], tuple[int, int]]] = []  # (requests, answers)
    try:
        for _ in range(parts + 1):
            pipes.append((os.pipe(), os.pipe()))
    except OSError:  # out of file descriptors: this process scans it all
        _close([fd for requests, answers in pipes for fd in (*requests, *answers)])
        return None
    theirs = [fd for requests, answers in pipes for fd in (requests[0], answers[1])]
    ours = [fd for requests, answers in pipes for fd in (requests[1], answers[0])]
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "commitdigest.pipeline.radar_scan", *map(str, theirs)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=theirs,
            start_new_session=True,  # the forked ones are killed with it
        )
    except (OSError, ValueError):
        _close(ours)
        return None
    finally:
        _close(theirs)
    ends: list[tuple[IO[bytes], IO[bytes]]] = [
        (os.fdopen(rq[1], "wb"), os.fdopen(an[0], "rb")) for rq, an in pipes
    ]
    told = _told(hint) if hint is not None else None
    if told is not None:
        try:
            ends[0][0].write(told)
            ends[0][0].flush()
        except OSError:  # (it ended already)
            _end_started((proc, ends))
            return None
    return proc, ends


def _told(hint: Hint) -> bytes | None:
    """The message that tells a worker of ``hint``; None when it is longer than an empty
    pipe takes without waiting (a branch name of kilobytes): the worker is not told, and
    waits for the run's header as without a hint."""
    told = pickle.dumps((_HINT, *hint), pickle.HIGHEST_PROTOCOL)
    return told if len(told) <= getattr(select, "PIPE_BUF", 512) else None  # (POSIX: 512+)


_SPARES: list[_Started] = []  # started by prestart(), not yet taken by a window
_spares_lock = threading.Lock()


def prestart(hint: Hint | None = None) -> None:
    """Start a long window's worker process now, before the window is listed: its
    interpreter and the radar's imports (about a quarter second of CPU) then run while this
    process is still starting up, on the core that leaves idle, instead of beside ``git log``
    and the read. The first long window's stream takes it; :func:`discard` ends it when none
    does (a short window is scanned on a thread here).

    ``hint``: the window the command line names, before this process has read its
    configuration: the worker lists it and reads the public surface at its start at once
    (the longest part of a window's fixed cost, 0.1-0.9 s on real ones), and keeps it when
    the window the run tells it starts at the same commit; else (a time zone from the
    configuration that moves the window's first commit, another repository) it reads the
    surface there, as without a hint."""
    parts = workers_for(PARALLEL_FROM)
    with _spares_lock:
        if not parts or _SPARES:
            return
        started = _spawn(parts, hint)
        if started is not None:
            _SPARES.append(started)


def _spare(parts: int) -> _Started | None:
    with _spares_lock:
        return _SPARES.pop() if _SPARES and len(_SPARES[-1][1]) == parts + 1 else None


def discard() -> None:
    """End the worker process :func:`prestart` started that no window took."""
    with _spares_lock:
        spares = _SPARES[:]
        _SPARES.clear()
    for started in spares:
        _end_started(started)


def _end_started(started: _Started) -> None:
    """Close our ends of a worker process's pipes and kill it (and what it forked)."""
    proc, ends = started
    for end in ends:
        _close_pipes(end)
    _kill(proc)


atexit.register(discard)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill a worker process and those it forked (its session's group)."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _close(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _work(pipes: Sequence[tuple[IO[bytes], IO[bytes]]]) -> int:
    """The worker process: the repository and the window's start, from the first part's
    requests (after the window :func:`prestart` was told of, if it was: its surface is read
    while the run starts, and kept when the start is the same); the window's public surface
    is read and a process is forked for each other part (each starts its own blob reader);
    then each process serves its part (:func:`_serve`), the first with the late helper's
    pipe (the last), and the first waits for those it forked."""
    from commitdigest.analysis.radar.driver import WindowScanner
    from commitdigest.analysis.radar.public import public_surface

    *parts, late = pipes
    header = pickle.load(parts[0][0])
    ahead = None
    if header[0] == _HINT:
        ahead = _read_ahead(header[1:])
        header = pickle.load(parts[0][0])
    root, base = header
    if ahead is not None and ahead[0].repo.base == base and ahead[2] == root:
        scanner, reader, _ = ahead  # the window it was told of: its surface is read
    else:
        if ahead is not None:
            ahead[1].close()
        reader = BlobReader(Path(root))
        scanner = WindowScanner(reader, base)
        public_surface(scanner.repo)  # once, for every part
    reader.close()  # no git process is shared across a fork: each starts its own
    gc.freeze()  # what is read so far stays shared: no collection copies its pages
    forked: list[int] = []
    mine = 0
    for part in range(1, len(parts)):
        pid = os.fork()
        if pid == 0:
            forked, mine = [], part
            break
        forked.append(pid)
    try:
        for part, ends in enumerate(parts):
            if part != mine:  # only its own pipes: the others' end when their worker ends
                for end in ends:
                    end.close()
        requests, answers = parts[mine]
        if mine:
            for end in late:
                end.close()
            pickle.load(requests)  # the header, read above by the first
            _serve(scanner, reader, requests, answers)
        else:
            forked += _serve(scanner, reader, requests, answers, late)
    except BaseException:
        if mine:
            os._exit(1)  # a forked worker: nothing of the first's exit to run twice
        raise
    finally:
        reader.close()
        for pid in forked:
            os.waitpid(pid, 0)
    if mine:
        os._exit(0)
    return 0


def _read_ahead(hint: Hint) -> tuple[WindowScanner, BlobReader, str] | None:
    """A scanner of the window ``hint`` names, its public surface read, its blob reader and
    the repository's root as the run names it (see :func:`prestart`); None when it cannot
    be listed."""
    from datetime import UTC, datetime

    from commitdigest.analysis.radar.driver import WindowScanner
    from commitdigest.analysis.radar.public import public_surface
    from commitdigest.errors import SourceError
    from commitdigest.sources.repo_info import resolve_repository_sync
    from commitdigest.sources.window_plan import window_base, window_commits

    named, branch, start, end = hint
    try:
        info = resolve_repository_sync(Path(named).expanduser(), branch)
        listed = window_commits(
            info, datetime.fromtimestamp(start, UTC), datetime.fromtimestamp(end, UTC)
        )
    except (SourceError, OSError, ValueError):
        return None
    if not listed:
        return None
    reader = BlobReader(info.root)
    scanner = WindowScanner(reader, window_base(listed))
    try:
        public_surface(scanner.repo)
    except Exception:  # (read again, where it raises as it would have, once told)
        reader.close()
        return None
    return scanner, reader, str(info.root)


COLLECT_EVERY = 1024  # commits a worker scans between two collections of reference cycles
_GO = b"G"  # what the late helper's pipe says first: fork it


def _serve(
    scanner: WindowScanner,
    reader: BlobReader,
    requests: IO[bytes],
    answers: IO[bytes],
    late: tuple[IO[bytes], IO[bytes]] | None = None,
) -> list[int]:
    """Commits until the end mark from ``requests``; each commit's ``(sha, items)`` to
    ``answers`` once scanned, then the end mark.

    ``late``: the late helper's pipes. After each commit, if this process was asked to
    fork it (:data:`_GO`, written once the window's read is over), it forks: the child
    serves the helper's pipes, the parent goes on with its own. If it was not asked by the
    end of its own part, it serves what the helper's pipe asks itself. The forked
    process's id, if any.

    The worker collects reference cycles itself, every :data:`COLLECT_EVERY` commits, not
    whenever enough objects were made: the scan makes millions of short-lived lists and
    tuples but next to no cycles (132 objects over vllm-ascend's 12 weeks), and the
    automatic collections cost a tenth of its time."""
    gc.disable()
    served = 0
    forked: list[int] = []
    while (commit := pickle.load(requests)) is not _END:
        pickle.dump((commit.sha, scanner.scan(commit)), answers, pickle.HIGHEST_PROTOCOL)
        answers.flush()
        served += 1
        if served % COLLECT_EVERY == 0:
            gc.collect()
        if late is not None and select.select([late[0]], [], [], 0)[0]:
            if os.read(late[0].fileno(), 1) == _GO:
                forked.append(_fork_late(scanner, reader, (requests, answers), late))
            _close_pipes(late)
            late = None
    pickle.dump(_END, answers)
    answers.flush()
    if late is not None:  # not asked while it scanned its own part: asked now, or never
        if os.read(late[0].fileno(), 1) == _GO:
            _serve(scanner, reader, *late)
        _close_pipes(late)
    return forked


def _fork_late(
    scanner: WindowScanner,
    reader: BlobReader,
    own: tuple[IO[bytes], IO[bytes]],
    late: tuple[IO[bytes], IO[bytes]],
) -> int:
    """Fork the late helper: the child serves ``late`` with every text and reading of this
    process so far (``reader``'s too, with a git process of its own), and ends; the parent
    gets its id."""
    pid = os.fork()
    if pid:
        return pid
    try:
        _close_pipes(own)
        reader.forget()  # (its parent's git answers its parent)
        _serve(scanner, reader, *late)
        reader.close()
    except BaseException:
        os._exit(1)
    os._exit(0)


def _close_pipes(pipes: tuple[IO[bytes], IO[bytes]]) -> None:
    """Close a pipe pair's ends, whatever state a worker that died left them in."""
    for pipe in pipes:
        with contextlib.suppress(OSError, ValueError):
            pipe.close()


if __name__ == "__main__":
    _fds = [int(fd) for fd in sys.argv[1:]]
    _pipes = [
        (os.fdopen(r, "rb"), os.fdopen(w, "wb")) for r, w in zip(_fds[::2], _fds[1::2], strict=True)
    ]
    # every answer is written and flushed: no interpreter teardown (it freed the window's
    # texts and readings one by one, about 30 ms the run waited for at its end)
    os._exit(_work(_pipes))
