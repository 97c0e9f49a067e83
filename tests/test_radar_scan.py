"""The radar's plumbing: the blob reader never hangs however much is asked at once, and a
long window scanned on two processes gives exactly what one process gives."""

from __future__ import annotations

import ast
import json
import os
import pickle
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo
from radarscan import scan_log

from commitdigest.analysis.radar.commit import CommitInput
from commitdigest.analysis.radar.models import NOT_SHIPPED_PATHSPECS, is_test_or_docs
from commitdigest.models import ApiChange, ApiChangeType, RadarKind
from commitdigest.pipeline import radar_scan
from commitdigest.sources.blobs import REQUEST_CHUNK, BlobReader


def test_thousands_of_large_blobs_in_one_request_come_back(tmp_path: Path) -> None:
    """More request bytes than a pipe holds, each answer bigger than the request: the old
    reader wrote every request before reading any answer and hung forever."""
    n = 2500
    files = {f"data/deep/folder/name/file_{i:05d}_with_a_long_name.txt": f"{i}\n" * 700
             for i in range(n)}  # fmt: skip
    shas = build_repo(tmp_path / "repo", [CommitSpec("many", "2026-01-10T10:00:00+00:00",
                                                     files=files)])  # fmt: skip
    specs = [f"{shas[0]}:{path}" for path in files]
    assert sum(len(s) + 1 for s in specs) > 4 * REQUEST_CHUNK * 2  # far more than a pipe
    got: dict[str, str | None] = {}

    def read() -> None:
        with BlobReader(tmp_path / "repo") as reader:
            got.update(reader.read_text(specs))

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the blob reader hangs"
    assert len(got) == n
    assert all(got[s] == f"{i}\n" * 700 for i, s in enumerate(specs))


def test_a_missing_blob_is_none_and_the_reader_goes_on(tmp_path: Path) -> None:
    shas = build_repo(tmp_path / "repo", [CommitSpec("one", "2026-01-10T10:00:00+00:00",
                                                     files={"a.py": "A = 1\n"})])  # fmt: skip
    with BlobReader(tmp_path / "repo") as reader:
        got = reader.read_text([f"{shas[0]}:nope.py", f"{shas[0]}:a.py", "0" * 40])
    assert got == {f"{shas[0]}:nope.py": None, f"{shas[0]}:a.py": "A = 1\n", "0" * 40: None}


def test_the_not_shipped_pathspecs_leave_out_only_what_is_not_shipped(tmp_path: Path) -> None:
    # the search for a variable read elsewhere skips tests and docs in git already: every
    # file the pathspecs leave out is one is_test_or_docs() says is not shipped
    paths = [
        "pkg/env.py", "pkg/sub/test_env.py", "pkg/sub/env_test.py", "pkg/tests/env.py",
        "tests/env.py", "tests/unit/env.py", "docs/env.py", "docs_src/tutorial/env.py",
        "examples/app/env.py", "example_app/env.py", "benchmarks/env.py", ".github/env.py",
        "pkg/testing/env.py", "testing/env.py", "conftest.py", "pkg/contest.py",
        "pkg/tested/env.py",
        "tutorials/env.py", "pkg/doc_utils.py", "tools/env.py",
        "crates/extract/test_vectors/generate.py", "pkg/testdata/env.py",
    ]  # fmt: skip
    files = dict.fromkeys(paths, "import os\nX = os.getenv('APP_X')\n")
    shas = build_repo(
        tmp_path / "repo", [CommitSpec("one", "2026-01-10T10:00:00+00:00", files=files)]
    )
    with BlobReader(tmp_path / "repo") as reader:  # (the first search of a tree, by git)
        kept = reader._grep(shas[0], ("getenv",), ["*.py", *NOT_SHIPPED_PATHSPECS])
    assert sorted(kept) == [
        "pkg/contest.py", "pkg/doc_utils.py", "pkg/env.py", "pkg/tested/env.py",
        "pkg/testing/env.py",  # a package's testing helpers are its users' (sphinx.testing)
        "tools/env.py",
    ]  # fmt: skip
    assert all(not is_test_or_docs(p) for p in kept if not p.startswith("tools/"))
    assert all(is_test_or_docs(p) for p in set(paths) - set(kept))


def _reader_repo(tmp_path: Path) -> list[str]:
    files = {
        "pkg/a.py": "import os\nX = os.getenv('APP_X')\n",
        "pkg/b.py": "import os\nY = os.getenv('APP_XY') or 'MY_APP_X' + 'APP_X2'\n",  # no APP_X
        "pkg/c.py": "import os\n# reads APP_Y\nos.environ\n",
        "pkg/d.txt": "os.getenv('APP_X')\n",
        "pkg/f.py": "APP_X = 1  # names it, reads nothing\n",
        "tests/t.py": "os.getenv('APP_X')\n",
    }
    shas = build_repo(tmp_path / "repo", [
        CommitSpec("one", "2026-01-10T10:00:00+00:00", files=files),
        CommitSpec("two", "2026-01-11T10:00:00+00:00", files={
            "pkg/e.py": "import os\nZ = os.environ['APP_X']\n",
            "pkg/f.py": "import os\nAPP_X = os.getenv('APP_X')\n",  # now reads it
        }),
    ])  # fmt: skip
    os.symlink("a.py", tmp_path / "repo" / "pkg" / "link.py")  # a symlink: no file's text
    subprocess.run(["git", "add", "-A"], cwd=tmp_path / "repo", check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "link"],
        cwd=tmp_path / "repo", check=True,
    )  # fmt: skip
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path / "repo", check=True,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    return [*shas, head]


_PY = ["*.py", *NOT_SHIPPED_PATHSPECS]
_READS = ("getenv", "environ")


def _shipped_py(path: str) -> bool:
    return path.endswith(".py") and not is_test_or_docs(path)


@pytest.mark.parametrize("first", [0, 1])
def test_the_files_that_read_the_environment_and_name_a_word(tmp_path: Path, first: int) -> None:
    """``having``: the files ``keep`` takes whose text holds one of ``among`` and one of the
    words as a whole word (as ``git grep -w`` reads it), with their texts; the same answer
    whichever revision is asked first (the first is searched by ``git grep``, the blobs a
    later one adds are read here)."""
    one, two, three = _reader_repo(tmp_path)
    with BlobReader(tmp_path / "repo") as reader:
        if first:  # the later revision searched by git, the earlier from what it knew
            reader.having(three, ["NONE"], _shipped_py, _PY, _READS)
        assert reader.having(one, ["APP_X"], _shipped_py, _PY, _READS) == {
            "pkg/a.py": "import os\nX = os.getenv('APP_X')\n"
        }
        assert sorted(reader.having(two, ["APP_X", "APP_Y"], _shipped_py, _PY, _READS)) == [
            "pkg/a.py", "pkg/c.py", "pkg/e.py", "pkg/f.py"
        ]  # fmt: skip
        assert sorted(reader.having(three, ["APP_X"], _shipped_py, _PY, _READS)) == [
            "pkg/a.py", "pkg/e.py", "pkg/f.py"
        ]  # fmt: skip
        others = reader.having(two, ["APP_X"], lambda p: _shipped_py(p) and p < "pkg/e", _PY,
                               _READS)  # fmt: skip
        assert sorted(others) == ["pkg/a.py"]
        assert reader.having(two, [], _shipped_py, _PY, _READS) == {}


def test_a_binary_file_holds_no_text_whichever_revision_is_asked_first(tmp_path: Path) -> None:
    """``git grep -I`` skips a binary file at the first revision searched; a blob read here
    for a later one is skipped alike (a reviewer's: the answer hung on the order)."""
    shas = build_repo(tmp_path / "repo", [
        CommitSpec("one", "2026-01-10T10:00:00+00:00",
                   files={"pkg/a.py": "import os\nX = os.getenv('PKG_A')\n"}),
        CommitSpec("two", "2026-01-11T10:00:00+00:00",
                   files={"pkg/bin.py": "\0import os\nX = os.getenv('PKG_A')\n"}),
    ])  # fmt: skip
    for order in (shas, shas[::-1]):
        with BlobReader(tmp_path / "repo") as reader:
            found = [reader.having(sha, ["PKG_A"], _shipped_py, _PY, _READS) for sha in order]
        assert all(sorted(f) == ["pkg/a.py"] for f in found)


def test_the_files_are_read_once_for_every_revision_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later revision's search reads only the blobs it has that no revision searched had,
    and only the files that read the environment for the words (a ``git grep`` of the whole
    tree for the words, at every revision asked, inflated each file again)."""
    one, two, _ = _reader_repo(tmp_path)
    asked: list[str] = []
    real = BlobReader._exchange
    monkeypatch.setattr(
        BlobReader, "_exchange", lambda self, specs: asked.extend(specs) or real(self, specs)
    )
    greps: list[tuple[str, ...]] = []
    real_grep = BlobReader._grep
    monkeypatch.setattr(
        BlobReader, "_grep", lambda self, *a: greps.append(a[1]) or real_grep(self, *a)
    )
    with BlobReader(tmp_path / "repo") as reader:
        reader.having(one, ["APP_Q"], _shipped_py, _PY, _READS)
        first = len(asked)
        reader.having(two, ["APP_Q"], _shipped_py, _PY, _READS)
    assert greps == [_READS]  # one search of a tree, the first revision's
    assert first == 3  # the three files that read the environment (not f.py, d.txt, the test)
    assert len(asked) == first + 2  # e.py and f.py's new version, read once each


def _history(repo: Path) -> list[str]:
    base = "class Client:\n    def __init__(self, url, proxies=None, timeout=5):\n        pass\n"
    specs = [CommitSpec("init", "2026-01-10T10:00:00+00:00", files={
        "pkg/__init__.py": "from pkg.client import Client\n",
        "pkg/client.py": base,
        "pkg/env.py": "import os\nA = os.getenv('PKG_A')\nB = os.getenv('PKG_B')\n",
    })]  # fmt: skip
    text = base
    for n in range(12):
        if n == 3:
            text = text.replace(", proxies=None", "")
        if n == 7:
            text += f"\n\ndef helper{n}(x):\n    return x\n"
        files: dict[str, str | None] = {"pkg/client.py": text + f"\n# {n}\n"}
        if n == 9:
            files["pkg/env.py"] = "import os\nA = os.getenv('PKG_A')\n"
        specs.append(CommitSpec(f"change {n}", f"2026-01-11T1{n % 10}:0{n // 10}:00+00:00",
                                files=files))  # fmt: skip
    return build_repo(repo, specs)


def _spawns(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The command lines of the processes the radar starts from now on (they still start)."""
    spawned: list[list[str]] = []
    real = subprocess.Popen

    def spy(args: list[str], *a: object, **kw: object) -> object:
        spawned.append(list(args))
        return real(args, *a, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr(radar_scan.subprocess, "Popen", spy)
    return spawned


def _radar_processes(spawned: list[list[str]]) -> list[list[str]]:
    return [a for a in spawned if "commitdigest.pipeline.radar_scan" in a]


def _parallel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, cores: int
) -> tuple[Path, list[CommitInput], dict[str, list[ApiChange]], list[list[str]]]:
    """The fixture history's window, its items scanned in one process, and the processes
    started from now on, on a machine of ``cores`` cores where the window is long."""
    from commitdigest.analysis.radar.driver import scan_window

    repo = tmp_path / "repo"
    _history(repo)
    inputs = _inputs(repo)
    with BlobReader(repo) as reader:
        serial = scan_window(reader, inputs)
    monkeypatch.setattr(radar_scan, "PARALLEL_FROM", 2)
    monkeypatch.setattr(radar_scan.os, "cpu_count", lambda: cores)
    return repo, inputs, serial, _spawns(monkeypatch)


def test_a_worker_process_starts_without_pydantic() -> None:
    """A radar worker imports what it scans with (the driver, every kind, the public
    surface) and no pydantic: its import and the models' schemas cost each worker 0.2 s of
    CPU before its first commit, beside the read on a two-core machine. Its items are plain
    dataclasses, which the report's pydantic models take as they are."""
    code = (
        "import sys; "
        "import commitdigest.pipeline.radar_scan; "
        "from commitdigest.analysis.radar.driver import WindowScanner; "
        "from commitdigest.analysis.radar.public import public_surface; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'pydantic_core'}), "
        "'commitdigest.models' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["[]", "False"]
    from pydantic import TypeAdapter

    item = ApiChange(kind="env_var", change="removed", name="APP_X", path="a.py", line=3)
    assert item.kind is RadarKind.ENV_VAR and item.change is ApiChangeType.REMOVED
    assert pickle.loads(pickle.dumps(item)) == item
    items = TypeAdapter(list[ApiChange])  # (as the store and the report write and read them)
    written = items.dump_json([item])
    assert written.startswith(b'[{"kind":"env_var","change":"removed","name":"APP_X"')
    assert items.validate_json(written) == [item]
    assert json.loads(written)[0] == item.as_json()


def test_two_processes_find_what_one_finds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    shas = _history(repo)
    import asyncio
    from datetime import UTC, datetime

    from commitdigest.analysis.radar.commit import CommitInput
    from commitdigest.sources.git import read_commits
    from commitdigest.sources.repo_info import resolve_repository_sync

    window = datetime(2026, 1, 11, tzinfo=UTC), datetime(2026, 1, 12, tzinfo=UTC)
    commits = asyncio.run(read_commits(resolve_repository_sync(repo), *window))
    inputs = [CommitInput.from_commit(c) for c in sorted(commits, key=lambda c: c.committed_at)]
    serial = radar_scan.scan_repository(repo, inputs)
    monkeypatch.setattr(radar_scan, "PARALLEL_FROM", 2)
    starts = _spawns(monkeypatch)
    parallel = radar_scan.scan_repository(repo, inputs)
    assert any("commitdigest.pipeline.radar_scan" in a for a in starts)  # a second process
    assert parallel == serial
    names = {i.name for items in serial.values() for i in items}
    assert {"pkg.client.Client.__init__(proxies)", "PKG_B"} <= names
    assert serial == scan_log(repo, f"{shas[0]}..{shas[-1]}")


def _inputs(repo: Path) -> list[CommitInput]:
    import asyncio
    from datetime import UTC, datetime

    from commitdigest.sources.git import read_commits
    from commitdigest.sources.repo_info import resolve_repository_sync

    window = datetime(2026, 1, 11, tzinfo=UTC), datetime(2026, 1, 12, tzinfo=UTC)
    commits = asyncio.run(read_commits(resolve_repository_sync(repo), *window))
    return [CommitInput.from_commit(c) for c in sorted(commits, key=lambda c: c.committed_at)]


def test_a_stream_fed_as_git_reads_finds_what_one_process_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report feeds the radar newest first while it reads; each worker process scans its
    part as the commits arrive, this process what they left once the read is over, and the
    environment variable kind needs no order."""
    repo, inputs, serial, spawned = _parallel(tmp_path, monkeypatch, cores=3)
    base = inputs[0].parent or ""
    stream = radar_scan.RadarStream(repo, base, len(inputs))
    assert len(stream._workers) == 3  # two processes, and the late helper one forks
    assert len(_radar_processes(spawned)) == 1  # one process: it forks the other (imports
    # made once)
    for c in reversed(inputs):
        stream.add(c)
    assert stream.finish(inputs) == serial
    assert "PKG_B" in {i.name for items in serial.values() for i in items}
    with pytest.raises(ProcessLookupError):  # the process and those it forked are gone
        os.killpg(stream._workers[0].proc.pid, 0)


def test_a_helper_forked_after_the_read_scans_what_the_worker_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On two cores one worker process scans the window as it is read (``git log`` and the
    read take the other core); the late helper writes nothing before the read is over,
    then has the worker fork it and takes the oldest commits the worker has not taken. This
    process reads no public surface and makes no scanner: the items are the same."""
    import time

    from commitdigest.analysis.radar import driver, public

    repo, inputs, serial, spawned = _parallel(tmp_path, monkeypatch, cores=2)
    monkeypatch.setattr(radar_scan, "CHUNK", 1)  # (a few commits at a time: some are left)
    monkeypatch.setattr(radar_scan, "AHEAD", 1)
    made_here: list[str] = []  # public surfaces read and scanners made in this process
    real_at = public.PublicSurface.at.__func__  # type: ignore[attr-defined]
    real_init = driver.WindowScanner.__init__

    def spy_at(cls: type[public.PublicSurface], repo: object, rev: str | None) -> object:
        made_here.append("surface")
        return real_at(cls, repo, rev)

    def spy_init(self: driver.WindowScanner, *a: object, **kw: object) -> None:
        made_here.append("scanner")
        real_init(self, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(public.PublicSurface, "at", classmethod(spy_at))
    monkeypatch.setattr(driver.WindowScanner, "__init__", spy_init)
    stream = radar_scan.RadarStream(repo, inputs[0].parent or "", len(inputs))
    worker, late = stream._workers
    assert len(_radar_processes(spawned)) == 1
    assert isinstance(worker, radar_scan._Worker) and worker.part == 0
    assert isinstance(late, radar_scan._Worker) and late.part is None

    def wait_for(done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 60
        while not done() and time.monotonic() < deadline:
            time.sleep(0.01)

    newest, *older = reversed(inputs)  # newest first, as git log reads them
    stream.add(newest)
    wait_for(lambda: bool(worker._found))
    os.kill(worker.proc.pid, signal.SIGSTOP)  # the worker stalls, the read goes on
    try:
        for c in older:
            stream.add(c)
        time.sleep(0.2)
        assert late._sent == 0 and not late._found  # no help yet: the read goes on
        stream.close()  # the read is over: the helper asks for its fork, the oldest first
        wait_for(lambda: late._sent > 0)
    finally:
        os.kill(worker.proc.pid, signal.SIGCONT)
    assert stream.finish(inputs) == serial
    assert inputs[0].sha in late._found  # from the oldest on
    assert not worker._found.keys() & late._found.keys()  # each scanned once
    assert worker._found.keys() | late._found.keys() == {c.sha for c in inputs}
    assert made_here == []  # the worker process's surface and scanner, not made again here


# the worker process's loop (``_serve``) on pipes of its own, in a fresh interpreter (a fork
# of this one, whose threads may hold locks, could hang): its part's commits, and the late
# helper's pipe given the mark and two commits at ``LATE`` ("first": before its first
# commit, "end": once its part is done, "never": closed unasked); each answer names the
# process that scanned it
_PIPE = """
def pipe():  # (read end, write end)
    r, w = os.pipe()
    return os.fdopen(r, "rb"), os.fdopen(w, "wb")
"""
_SERVE = (
    """
import os, pickle, sys, threading
from commitdigest.analysis.radar.commit import CommitInput
from commitdigest.pipeline import radar_scan

class Scanner:
    def scan(self, c):
        return [os.getpid()]

class Reader:
    def forget(self):
        pass
    def close(self):
        pass
"""
    + _PIPE
    + """
own_rq, own_rq_w = pipe()
own_an_r, own_an = pipe()
late_rq, late_rq_w = pipe()
late_an_r, late_an = pipe()
when = sys.argv[1]
commit = lambda n: CommitInput(f"{n:040x}", None, "c", "", ())

def ask_late():
    late_rq_w.write(radar_scan._GO)
    for n in (10, 11):
        pickle.dump(commit(n), late_rq_w)
    pickle.dump(radar_scan._END, late_rq_w)
    late_rq_w.close()

if when == "first":
    ask_late()
elif when == "never":
    late_rq_w.close()
for n in range(3):
    pickle.dump(commit(n), own_rq_w)
pickle.dump(radar_scan._END, own_rq_w)
own_rq_w.close()

def answers(f, out):
    try:
        while (m := pickle.load(f)) is not radar_scan._END:
            out.append(m[1][0])
        out.append("end")
    except EOFError:
        out.append("eof")

got = {"own": [], "late": []}
readers = [threading.Thread(target=answers, args=(own_an_r, got["own"])),
           threading.Thread(target=answers, args=(late_an_r, got["late"]))]
for t in readers:
    t.start()
if when == "end":
    threading.Timer(0.5, ask_late).start()
forked = radar_scan._serve(Scanner(), Reader(), own_rq, own_an, (late_rq, late_an))
own_an.close()
readers[0].join()
for pid in forked:
    os.waitpid(pid, 0)
readers[1].join(10)
me = os.getpid()
print((forked, [a if a in ("end", "eof") else a == me for a in got["own"]],
       [a if a in ("end", "eof") else ("here" if a == me else a) for a in got["late"]]))
"""
)


@pytest.mark.parametrize(
    ("when", "forked", "late"),
    [
        ("first", True, None),  # asked while it scans: a child answers it
        ("end", False, ["here", "here", "end"]),  # asked once its part is done: itself
        ("never", False, ["eof"]),  # no commit was left for it: no fork, its pipe closes
    ],
)
def test_the_worker_process_forks_the_late_helper_when_asked_while_it_scans(
    when: str, forked: bool, late: list[str] | None
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", _SERVE, when], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    pids, own, answered = ast.literal_eval(run.stdout.strip().splitlines()[-1])
    assert own == [True, True, True, "end"]  # its own part, by itself
    assert bool(pids) == forked
    if forked:
        assert answered == [pids[0], pids[0], "end"]  # by the forked child
    else:
        assert answered == late


_FORGET = """
import os, sys
from pathlib import Path
from commitdigest.sources.blobs import BlobReader

reader = BlobReader(Path(sys.argv[1]))
first = reader.read_text(["HEAD:a.txt"])["HEAD:a.txt"]  # (its git runs)
pid = os.fork()
if pid == 0:
    reader.forget()  # the parent's git is left to it; this one starts its own
    got = reader.read_text(["HEAD:b.txt", "HEAD:a.txt"])
    ok = got == {"HEAD:b.txt": "b\\n", "HEAD:a.txt": "a\\n"}
    reader.close()
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
again = reader.read_text(["HEAD~1:a.txt"])["HEAD~1:a.txt"]
reader.close()  # (no copy of its pipes is left open in the child: its git ends)
print(first, os.waitstatus_to_exitcode(status), again)
"""


def test_a_forked_reader_starts_its_own_git_and_leaves_its_parents(tmp_path: Path) -> None:
    """The late helper is forked while its parent's blob reader runs git: the child reads
    with a git of its own (and every text read before), the parent's git answers the parent
    still, and ends when the parent closes it (no copy of its input left open)."""
    repo = tmp_path / "repo"
    build_repo(
        repo,
        [
            CommitSpec("one", "2026-01-10T10:00:00+00:00", files={"a.txt": "old\n"}),
            CommitSpec("two", "2026-01-10T11:00:00+00:00", files={"a.txt": "a\n", "b.txt": "b\n"}),
        ],
    )
    run = subprocess.run(
        [sys.executable, "-c", _FORGET, str(repo)], capture_output=True, text=True, timeout=30
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["a", "0", "old"]


def test_a_worker_started_before_the_window_is_listed_is_taken_or_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``prestart`` starts the worker process while the run starts up: the long window's
    stream takes it (no second start) and finds the same; one no window takes ends."""
    repo, inputs, serial, spawned = _parallel(tmp_path, monkeypatch, cores=2)
    try:
        radar_scan.prestart()
        radar_scan.prestart()  # (one is enough)
        assert len(_radar_processes(spawned)) == 1 and len(radar_scan._SPARES) == 1
        spare = radar_scan._SPARES[0][0]
        stream = radar_scan.RadarStream(repo, inputs[0].parent or "", len(inputs))
        assert len(_radar_processes(spawned)) == 1 and not radar_scan._SPARES  # taken
        assert stream._workers[0].proc is spare  # type: ignore[union-attr]
        for c in reversed(inputs):
            stream.add(c)
        assert stream.finish(inputs) == serial
        radar_scan.prestart()  # a window that turns out short takes none: it is ended
        unused = radar_scan._SPARES[0][0]
        radar_scan.discard()
        assert unused.poll() is not None and not radar_scan._SPARES
    finally:
        radar_scan.discard()  # (none left for another test's stream to take)


# the worker process's start (``_work``) in a fresh interpreter, on pipes of its own: told
# of a window (a hint: repository, start, end), then of the run's (root, base), then the
# window's commits; prints the revisions it read a public surface at and what it answered
_AHEAD = (
    """
import os, pickle, sys, threading
from pathlib import Path
from commitdigest.analysis.radar import public
from commitdigest.pipeline import radar_scan
from commitdigest.sources.repo_info import resolve_repository_sync

read_at = []
real = public.PublicSurface.at.__func__
def at(cls, repo, rev):
    read_at.append(rev)
    return real(cls, repo, rev)
public.PublicSurface.at = classmethod(at)

repo, start, end, base, inputs = sys.argv[1:6]
inputs = pickle.loads(Path(inputs).read_bytes())
"""
    + _PIPE
    + """
rq, rq_w = pipe()
an_r, an = pipe()
late_rq, late_rq_w = pipe()
late_an_r, late_an = pipe()
late_rq_w.close()  # (no late helper asked)
pickle.dump((radar_scan._HINT, repo, None, float(start), float(end)), rq_w)
pickle.dump((str(resolve_repository_sync(Path(repo)).root), base), rq_w)
for c in inputs:
    pickle.dump(c, rq_w)
pickle.dump(radar_scan._END, rq_w)
rq_w.close()
found = {}
def answers():
    while (m := pickle.load(an_r)) is not radar_scan._END:
        found[m[0]] = m[1]
reader = threading.Thread(target=answers)
reader.start()
code = radar_scan._work([(rq, an), (late_rq, late_an)])
an.close()
reader.join()
print(repr((code, read_at, {sha: [i.name for i in items] for sha, items in found.items()})))
"""
)


@pytest.mark.parametrize(
    ("hinted", "reads"),
    [
        ("2026-01-11T00:00:00", 1),  # the run's window: its surface is read once, ahead
        ("2026-01-11T10:30:00", 2),  # a window that starts elsewhere: read again, told
        ("2020-01-01T00:00:00", 1),  # (a window of no commit: nothing is read ahead)
    ],
)
def test_a_worker_told_of_the_window_early_reads_its_surface_once_and_finds_the_same(
    tmp_path: Path, hinted: str, reads: int
) -> None:
    """``prestart(hint)``: the worker lists the window the command line names and reads the
    public surface at its start before the run tells it where the window starts; it keeps
    that reading when the start is the same, and reads the surface at the start it is told
    otherwise. Either way it answers what a process told only the run's window finds."""
    from datetime import datetime

    from commitdigest.analysis.radar.driver import scan_window

    repo = tmp_path / "repo"
    _history(repo)
    inputs = _inputs(repo)
    base = inputs[0].parent or ""
    with BlobReader(repo) as reader:
        serial = scan_window(reader, inputs)
    start = datetime.fromisoformat(hinted + "+00:00").timestamp()
    end = datetime.fromisoformat("2026-01-12T00:00:00+00:00").timestamp()
    if hinted.startswith("2020"):
        end = datetime.fromisoformat("2020-02-01T00:00:00+00:00").timestamp()
    (tmp_path / "inputs.pkl").write_bytes(pickle.dumps(inputs))
    run = subprocess.run(
        [sys.executable, "-c", _AHEAD, str(repo), str(start), str(end), base,
         str(tmp_path / "inputs.pkl")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    code, read_at, found = ast.literal_eval(run.stdout.strip().splitlines()[-1])
    assert code == 0
    assert len(read_at) == reads and read_at[-1] == base  # the run's start, in the end
    assert found == {sha: [i.name for i in items] for sha, items in serial.items()}
    assert "PKG_B" in {n for names in found.values() for n in names}


def test_a_hint_too_long_for_the_pipe_is_not_told(tmp_path: Path) -> None:
    """A hint is written to the worker's pipe before the worker reads it: one longer than an
    empty pipe takes at once (a branch name of kilobytes, from the command line) is not
    told, so the run never waits for the worker's imports to write it."""
    import select

    short = (str(tmp_path), "main", 0.0, 1.0)
    told = radar_scan._told(short)
    assert told is not None and len(told) <= select.PIPE_BUF
    assert pickle.loads(told) == (radar_scan._HINT, *short)
    assert radar_scan._told((str(tmp_path), "b" * select.PIPE_BUF, 0.0, 1.0)) is None


def test_the_command_line_names_the_window_before_it_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cli.early`` reads ``report``'s window from ``sys.argv`` as typer will parse it:
    both forms of an option, a value is never a repository (``--downstream`` and ``--out``
    name folders too), the program's ``-v`` before the command; another command, or a
    count that is no number, is left to typer. A long window of one local repository
    starts the worker told of that window (``--tz``, else the machine's zone); of two, or
    ``--last``, without a window."""
    from commitdigest.cli import early

    repo, other = tmp_path / "repo", tmp_path / "mine"
    for folder in (repo, other):
        folder.mkdir()
    argv = ["-v", "report", "--format", "json", "--out", str(other), str(repo),
            "--since=2026-05-01", "--until", "2026-08-01", "--no-overview",
            "--downstream", str(other), "--tz", "Asia/Shanghai", "--no-radar"]  # fmt: skip
    read = early.window_args(argv)
    assert read == early.WindowArgs(
        repositories=[str(repo)], radar=False, since="2026-05-01", until="2026-08-01",
        tz="Asia/Shanghai",
    )  # fmt: skip
    assert early.window_args(["report", "--", "--odd-name"]) == early.WindowArgs(
        repositories=["--odd-name"]
    )
    assert early.window_args(["site", str(repo), "--since", "2026-05-01"]) is None
    assert early.window_args(["report", str(repo), "--days", "many"]) is None

    hints: list[object] = []
    monkeypatch.setattr(radar_scan, "prestart", hints.append)
    early.start_early(argv[:-1])  # (with the radar)
    assert hints == [(str(repo), None, 1777564800.0, 1785513600.0)]  # Shanghai's midnights
    early.start_early(["report", str(repo), "--days", "30", "--branch", "dev", "--tz", "UTC"])
    assert hints[-1][:2] == (str(repo), "dev")  # type: ignore[index]
    early.start_early(["report", str(repo), str(other), "--since", "2026-05-01"])
    early.start_early(["report", str(repo), "--last", "500"])
    assert hints[-2:] == [None, None]  # a worker, told of no window
    early.start_early(["report", str(repo), "--since", "2026-07-10", "--until", "2026-07-11"])
    early.start_early(["report", str(repo), "--since", "2026-05-01", "--no-radar"])
    assert len(hints) == 4  # a short window, no radar: no worker


def test_the_options_read_before_parsing_take_a_value_as_typer_says() -> None:
    """:data:`cli.early.FLAGS` are exactly the options of ``report`` (and of the program)
    that take no value: an option added later that takes none is listed, or its next word
    would be skipped as its value."""
    import typer

    from commitdigest.cli import app
    from commitdigest.cli.early import COMMAND, FLAGS

    group = typer.main.get_command(app)  # (typer's own click: read as click documents it)
    report = group.commands[COMMAND]  # type: ignore[attr-defined]
    options = [
        p for params in (group.params, report.params) for p in params
        if p.param_type_name == "option"
    ]  # fmt: skip
    assert {"--since", "--tz", "--downstream", "--no-radar"} <= {
        name for p in options for name in (*p.opts, *p.secondary_opts)
    }
    flags = {
        name
        for p in options
        if (getattr(p, "is_flag", False) or getattr(p, "count", False)) and not p.is_eager
        for name in (*p.opts, *p.secondary_opts)
    }
    assert flags | {"--help"} == FLAGS


def test_the_script_starts_the_worker_before_it_imports_typer(tmp_path: Path) -> None:
    """``commitdigest report`` starts a long window's worker before typer and the commands
    are imported (0.15-0.3 s): ``cli.script`` reads the command line first."""
    code = (
        "import os, sys; from commitdigest.pipeline import radar_scan; "
        "radar_scan.prestart = lambda hint=None: (print('typer' in sys.modules, hint), "
        "sys.stdout.flush(), os._exit(0)); "
        "from commitdigest.cli import script; "
        f"sys.argv = ['commitdigest', 'report', {str(tmp_path)!r}, '--days', '30']; script()"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    imported, hint = run.stdout.split(" ", 1)
    assert imported == "False" and hint.startswith(f"({str(tmp_path)!r}, None, ")


@pytest.mark.parametrize(
    ("argv", "long"),
    [
        (["--since", "2026-05-20", "--until", "2026-08-12"], True),
        (["--since", "2026-07-10", "--until", "2026-07-11"], False),
        (["--date", "2026-07-10"], False),
        (["--days", "30"], True),
        (["--last", "20"], False),
        (["--last", "500"], True),
        (["--since", "2026-05-20", "--until", "2026-08-12", "--no-radar"], False),
    ],
)
def test_the_worker_starts_early_only_for_a_window_that_may_be_long(
    tmp_path: Path, argv: list[str], long: bool
) -> None:
    """Whether the options as parsed, and as :mod:`cli.early` reads them from the command
    line before it is parsed, name a window long enough for the worker process."""
    from commitdigest.cli.early import long_local_window, window_args
    from commitdigest.cli.report import ReportArgs

    fields = dict.fromkeys(ReportArgs.__dataclass_fields__)
    fields["repositories"] = [str(tmp_path)]
    flags = iter(argv)
    for flag in flags:
        name = flag.lstrip("-").replace("-", "_")
        if name == "no_radar":
            fields["radar"] = False
        else:
            value = next(flags)
            fields[name] = int(value) if name in ("days", "last") else value
    assert long_local_window(ReportArgs(**fields)) is long  # type: ignore[arg-type]
    read = window_args(["report", "--format", "json", str(tmp_path), *argv])
    assert read is not None and long_local_window(read) is long
    fields["repositories"] = ["owner/name"]  # no local repository: no radar workers
    assert long_local_window(ReportArgs(**fields)) is False  # type: ignore[arg-type]
    read = window_args(["report", "owner/name", *argv])
    assert read is not None and long_local_window(read) is False


def test_a_short_window_is_scanned_on_a_thread_here_as_its_commits_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below PARALLEL_FROM no process starts: a thread of this process scans each commit as it
    is added (beside git log, which leaves the run idle), not all of them after the read."""
    import time

    from commitdigest.analysis.radar.driver import scan_window

    repo = tmp_path / "repo"
    _history(repo)
    inputs = _inputs(repo)
    assert len(inputs) < radar_scan.PARALLEL_FROM
    with BlobReader(repo) as reader:
        serial = scan_window(reader, inputs)
    spawned = _spawns(monkeypatch)
    answered: list[str] = []
    stream = radar_scan.RadarStream(
        repo, inputs[0].parent or "", len(inputs), lambda sha, items: answered.append(sha)
    )
    for c in reversed(inputs):  # newest first, as the source reads them
        stream.add(c)
    deadline = time.monotonic() + 60
    while len(answered) < len(inputs) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sorted(answered) == sorted(c.sha for c in inputs)  # before finish() was called
    assert not any("commitdigest.pipeline.radar_scan" in a for a in spawned)  # no process
    assert stream.finish(inputs) == serial


def test_a_scan_that_fails_on_the_thread_fails_the_run_not_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the thread could not scan is scanned again by finish(), whose error the run sees:
    no commit is left without its items."""
    from commitdigest.analysis.radar import driver

    repo = tmp_path / "repo"
    _history(repo)
    inputs = _inputs(repo)

    def broken(self: object, commit: CommitInput) -> list[object]:
        raise RuntimeError(f"cannot scan {commit.sha}")

    monkeypatch.setattr(driver.WindowScanner, "scan", broken)
    stream = radar_scan.RadarStream(repo, inputs[0].parent or "", len(inputs))
    [here] = stream._workers
    assert isinstance(here, radar_scan._Here)  # the thread scanned (and failed) first
    for c in inputs:
        stream.add(c)
    with pytest.raises(RuntimeError, match="cannot scan"):
        stream.finish(inputs)
    assert here.gone and not here.result()  # it answered nothing: finish() scanned them


def test_two_repositories_threads_scan_one_commit_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Short windows of two repositories read at once each get a thread; their scans take
    turns (the radar's caches are shared by every repository whose texts are the same, and
    written for one scanner at a time), and each finds what a scan alone finds."""
    import time

    from commitdigest.analysis.radar import driver

    repos = [tmp_path / "a", tmp_path / "b"]
    for repo in repos:
        _history(repo)  # the same texts in both
    inputs = [_inputs(repo) for repo in repos]
    alone = [radar_scan.scan_repository(repo, i) for repo, i in zip(repos, inputs, strict=True)]
    real = driver.WindowScanner.scan
    running: list[int] = []
    most = [0]

    def counted(self: driver.WindowScanner, commit: CommitInput) -> list[object]:
        running.append(1)
        most[0] = max(most[0], len(running))
        time.sleep(0.01)
        try:
            return real(self, commit)  # type: ignore[return-value]
        finally:
            running.pop()

    monkeypatch.setattr(driver.WindowScanner, "scan", counted)
    streams = [
        radar_scan.RadarStream(r, i[0].parent or "", len(i))
        for r, i in zip(repos, inputs, strict=True)
    ]
    for stream, commits in zip(streams, inputs, strict=True):
        for c in commits:
            stream.add(c)
    found = [s.finish(i) for s, i in zip(streams, inputs, strict=True)]
    assert most[0] == 1
    assert found == alone


def test_the_thread_ends_with_the_read_and_an_abort_does_not_wait_for_its_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """close() (the source's read is over) lets the thread end once it scanned what it took,
    closing its git process, before finish(); abort() returns at once, not after the commit
    the thread is scanning (it waited for it, with the run's event loop)."""
    import time

    from commitdigest.analysis.radar import driver

    repo = tmp_path / "repo"
    _history(repo)
    inputs = _inputs(repo)
    stream = radar_scan.RadarStream(repo, inputs[0].parent or "", len(inputs))
    [here] = stream._workers
    assert isinstance(here, radar_scan._Here)
    for c in inputs:
        stream.add(c)
    stream.close()
    deadline = time.monotonic() + 60
    while not here.gone and time.monotonic() < deadline:
        time.sleep(0.02)
    assert here.gone and len(here.result()) == len(inputs)  # all scanned, before finish()

    real = driver.WindowScanner.scan

    def slow(self: driver.WindowScanner, commit: CommitInput) -> list[object]:
        time.sleep(3)
        return real(self, commit)  # type: ignore[return-value]

    monkeypatch.setattr(driver.WindowScanner, "scan", slow)
    stream = radar_scan.RadarStream(repo, inputs[0].parent or "", len(inputs))
    for c in inputs:
        stream.add(c)
    time.sleep(0.5)  # the thread is in its first scan
    began = time.monotonic()
    stream.abort()
    assert time.monotonic() - began < 1


def _two_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cores: int = 2
) -> tuple[list[CommitInput], radar_scan.Found, radar_scan.RadarStream]:
    """The history's commits, their items scanned here, and a stream with two workers (on
    two cores: one process and the late helper; on three, two processes and the helper)."""
    repo = tmp_path / "repo"
    _history(repo)
    inputs = _inputs(repo)
    serial = radar_scan.scan_repository(repo, inputs)
    monkeypatch.setattr(radar_scan, "PARALLEL_FROM", 2)
    monkeypatch.setattr(radar_scan.os, "cpu_count", lambda: cores)
    return inputs, serial, radar_scan.RadarStream(repo, inputs[0].parent or "", len(inputs))


def test_a_worker_that_dies_leaves_its_part_to_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs, serial, stream = _two_workers(tmp_path, monkeypatch)
    stream._workers[0].proc.kill()
    for c in inputs:
        stream.add(c)
    assert stream.finish(inputs) == serial


def test_when_the_first_worker_dies_after_forking_its_part_goes_to_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forked workers hold no pipe of the first: its death is seen at once (its reader
    ends), its commits go to the others or to this process, and every item is found."""
    import signal
    import time

    inputs, serial, stream = _two_workers(tmp_path, monkeypatch, cores=3)
    first, second, late = stream._workers
    for c in inputs[: len(inputs) // 2 + 1]:  # the first's part, and one of the second's
        stream.add(c)
    deadline = time.monotonic() + 20
    while not (first._found or second._found) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert first._found or second._found  # an answer: the first forked the second before
    os.kill(first.proc.pid, signal.SIGKILL)  # the first alone, not its group
    while not first.gone and time.monotonic() < deadline:
        time.sleep(0.02)
    assert first.gone and not second.gone
    while not late.gone and time.monotonic() < deadline:
        time.sleep(0.02)
    assert late.gone  # (the first would have forked it: its pipes went with the first)
    for c in inputs[len(inputs) // 2 + 1 :]:
        stream.add(c)
    assert stream.finish(inputs) == serial


def test_a_worker_takes_its_part_as_it_answers_then_the_far_end_of_another(
    tmp_path: Path,
) -> None:
    """Each worker has a contiguous part: with AHEAD unanswered it takes nothing (a slow
    worker takes fewer, so all finish together), then the next CHUNK of its part in the
    order read; with its part done it takes the last commits of the part with the most
    left (next to its own); once every commit was taken after the last came, None."""
    import threading
    from collections import deque
    from dataclasses import dataclass

    from commitdigest.analysis.radar.commit import CommitInput

    @dataclass
    class Busy:
        part: int | None
        unanswered: int = 0
        gone: bool = False

    chunk = radar_scan.CHUNK
    commits = [CommitInput(f"{n:040x}", None, f"c{n}", "", ()) for n in range(4 * chunk)]
    stream = radar_scan.RadarStream(tmp_path, "base", len(commits))  # no processes: the queue
    stream._workers[0].stop()  # (the thread a short window gets; fake workers instead)
    first, second = Busy(0, unanswered=radar_scan.AHEAD), Busy(1)
    stream._workers = [first, second]  # type: ignore[list-item]
    stream._parts = [deque(), deque()]
    for c in commits:
        stream.add(c)
    got: list[object] = []
    waiting = threading.Thread(target=lambda: got.append(stream.take(first)))  # type: ignore[arg-type]
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive() and not got  # too many unanswered: it waits
    first.unanswered = radar_scan.AHEAD - 1
    stream.changed()  # its reader saw an answer
    waiting.join(5)
    assert got == [commits[:chunk]]  # the start of its half
    assert stream.take(second) == commits[2 * chunk : 3 * chunk]  # type: ignore[arg-type]
    assert stream.take(second) == commits[3 * chunk :]  # type: ignore[arg-type]
    assert stream.take(second) == commits[chunk : 2 * chunk]  # type: ignore[arg-type]  # stolen
    stream._closed = True
    assert stream.take(first) is None  # type: ignore[arg-type]
    second.gone = True
    stream._closed = False
    stream.add(commits[0])
    assert stream.take(second) is None  # type: ignore[arg-type]  # a worker that ended takes nothing
    # the late helper (no part of its own) waits until the read is over, then takes the
    # last commits of the part with the most left
    helper = Busy(None)
    stream._parts = [deque(commits[:chunk]), deque(commits[chunk:])]
    stream._closed = False
    later: list[object] = []

    def helps() -> None:
        stream.wait_read()
        later.append(stream.take(helper))  # type: ignore[arg-type]

    waiting = threading.Thread(target=helps)
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive() and not later  # the read goes on: it waits
    stream.close()
    waiting.join(5)
    assert later == [commits[-chunk:]]


def test_a_late_helper_left_nothing_forks_nothing_and_one_stopped_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The late helper waits for the read's end alone: with every commit taken by then it
    writes nothing (its pipe closes: no process is forked for it, and the worker ends); one
    whose run failed before the read was over ends too."""
    inputs, serial, stream = _two_workers(tmp_path, monkeypatch)
    worker, late = stream._workers
    assert isinstance(late, radar_scan._Worker) and late.part is None
    for c in reversed(inputs):
        stream.add(c)
    import time

    deadline = time.monotonic() + 60
    while len(worker._found) < len(inputs) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert stream.finish(inputs) == serial
    assert late._sent == 0 and not late._found and late.gone
    stopped = _two_workers(tmp_path / "again", monkeypatch)[2]
    other = stopped._workers[1]
    assert isinstance(other, radar_scan._Worker)
    stopped.abort()  # (the run failed) before the read was over
    other._reader.join(5)
    assert not other._writer.is_alive() and not other._reader.is_alive()


def test_a_window_given_newest_first_starts_at_its_oldest_commits_parent(tmp_path: Path) -> None:
    """``scan_window`` takes a window's commits in any order: the public surface is read
    where the window starts (the parent of its oldest commit), not at the parent of the
    first commit given. ``helper`` was re-exported there, so its removal is public."""
    import asyncio
    from datetime import UTC, datetime

    from commitdigest.analysis.radar.driver import scan_window
    from commitdigest.sources.git import read_commits
    from commitdigest.sources.repo_info import resolve_repository_sync

    repo = tmp_path / "repo"
    build_repo(repo, [
        CommitSpec("init", "2026-01-10T10:00:00+00:00", files={
            "pkg/__init__.py": "from pkg._mod import helper\n",
            "pkg/_mod.py": "def helper(a):\n    return a\n\n\ndef other():\n    pass\n"}),
        CommitSpec("stop re-exporting", "2026-01-11T10:00:00+00:00",
                   files={"pkg/__init__.py": "\n"}),
        CommitSpec("remove helper", "2026-01-11T11:00:00+00:00",
                   files={"pkg/_mod.py": "def other():\n    pass\n"}),
    ])  # fmt: skip
    window = datetime(2026, 1, 11, tzinfo=UTC), datetime(2026, 1, 12, tzinfo=UTC)
    commits = asyncio.run(read_commits(resolve_repository_sync(repo), *window))
    inputs = [CommitInput.from_commit(c) for c in commits]  # newest first, as git reads them
    assert [c.title for c in inputs] == ["remove helper", "stop re-exporting"]
    with BlobReader(repo) as reader:
        found = scan_window(reader, inputs)
    assert [(i.name, i.public) for i in found[inputs[0].sha]] == [("pkg.helper", True)]
