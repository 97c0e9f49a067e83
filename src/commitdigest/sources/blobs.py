"""Files of a local repository at any revision, for the radar: one long-lived
``git cat-file --batch`` per window (blobs by object id or ``rev:path``), the paths of a
tree (``git ls-tree``), the files that name a word (:meth:`BlobReader.having`: which blobs
hold a text is kept per blob, so each revision asked reads only its new blobs) and the
texts that match a pattern (``git grep``).

The reader never writes more requests than git can take while it is not being read: the
requests go in chunks of at most :data:`REQUEST_CHUNK` bytes (well under a pipe's
buffer), and each chunk's answers are read before the next is written, so git blocking on a
full stdout can never leave us blocked on a full stdin (the hang of a 103-day window). Every
object is read once per reader: answers are kept by object id and by ``rev:path``.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, NoReturn

from commitdigest.errors import SourceError
from commitdigest.gitcmd import first_line, git_argv, git_env

__all__ = ["REQUEST_CHUNK", "BlobReader"]

REQUEST_CHUNK = 8 * 1024  # bytes of requests in flight: a pipe holds 64 KiB on Linux
NULL_OID = "0" * 40


# text files only; one thread: the radar's workers keep every core busy already, and git's
# threads cost a quarter more CPU for the same search (vllm-ascend's tree: 0.058 s -> 0.076 s)
_GREP = ("--threads=1", "-I")


class BlobReader:
    """Reads blobs of the repository at ``root`` (a work tree or a bare repository)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        # each blob's text, decoded once: the same object for every spec that names it, so
        # the radar's caches keyed by text hash it once
        self._cache: dict[str, str | None] = {}
        # per text sought (:meth:`having`): whether each blob asked holds it, by blob id
        self._holds: dict[tuple[str, ...], dict[str, bool]] = {}

    def _process(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
            try:
                self._proc = subprocess.Popen(
                    git_argv("cat-file", "--batch", repo=self.root),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=self._stderr,
                    env=git_env(),
                )
            except OSError as exc:
                self._stderr.close()
                raise SourceError(f"cannot run git in {self.root}: {exc.strerror or exc}") from None
        return self._proc

    def _failed(self, proc: subprocess.Popen[bytes]) -> NoReturn:
        """git stopped answering: one line with what it said."""
        proc.kill()
        proc.wait()
        said = b""
        if self._stderr is not None:
            self._stderr.seek(0)
            said = self._stderr.read(4096)
        raise SourceError(f"git cat-file failed in {self.root}: {first_line(said)}")

    def read_text(self, specs: Iterable[str]) -> dict[str, str | None]:
        """``{spec: content}`` for object ids or ``rev:path`` specs, decoded as UTF-8
        (undecodable bytes replaced); ``None`` for what is missing, not a blob, or the null
        id (an absent side of an added or deleted file)."""
        specs = list(specs)
        todo = [s for s in dict.fromkeys(specs) if s not in self._cache]
        for spec in todo:
            if spec == NULL_OID or not spec or "\n" in spec:
                self._cache[spec] = None
        todo = [s for s in todo if s not in self._cache]
        chunk: list[str] = []
        size = 0
        for spec in todo:
            if chunk and size + len(spec) + 1 > REQUEST_CHUNK:
                self._exchange(chunk)
                chunk, size = [], 0
            chunk.append(spec)
            size += len(spec.encode("utf-8", "surrogateescape")) + 1
        if chunk:
            self._exchange(chunk)
        return {s: self._cache[s] for s in specs}

    def _exchange(self, specs: list[str]) -> None:
        proc = self._process()
        assert proc.stdin is not None and proc.stdout is not None
        request = "".join(s + "\n" for s in specs).encode("utf-8", "surrogateescape")
        try:
            proc.stdin.write(request)
            proc.stdin.flush()
        except OSError:  # git is gone (a broken pipe)
            self._failed(proc)
        try:
            for spec in specs:
                header = proc.stdout.readline()
                if not header.endswith(b"\n"):
                    self._failed(proc)
                parts = header.split()
                if len(parts) < 3 or parts[-1] == b"missing" or not parts[2].isdigit():
                    self._cache[spec] = None
                    continue
                size = int(parts[2])
                data = proc.stdout.read(size + 1)[:size]
                oid = parts[0].decode("ascii", "replace")
                if oid in self._cache:  # the same blob by another spec: the same text
                    self._cache[spec] = self._cache[oid]
                    continue
                text = data.decode("utf-8", "replace") if parts[1] == b"blob" else None
                self._cache[spec] = text
                if len(oid) == 40:  # known by its id too: another spec may name it
                    self._cache[oid] = text
        except OSError:
            self._failed(proc)

    def paths(self, rev: str) -> list[str]:
        """Every file path of the tree at ``rev`` (``git ls-tree -r``)."""
        out = self._git("ls-tree", "-r", "-z", "--name-only", rev)
        return [p for p in out.split("\0") if p]

    def having(
        self,
        rev: str,
        words: Sequence[str],
        keep: Callable[[str], bool],
        globs: Iterable[str],
        among: tuple[str, ...],
    ) -> dict[str, str]:
        """The files at ``rev`` that ``keep`` takes and whose text holds one of ``among`` (as
        written) and one of ``words`` as a whole word (ASCII word characters, as ``git grep
        -w`` reads them): their texts by path. ``globs``: pathspecs that hold every file
        ``keep`` takes.

        Which blobs hold one of ``among`` is known per blob, for every revision asked: one
        ``git grep -l`` of the first revision's tree, then the blobs each later one has that
        no revision asked had, read here (a ``git grep`` per revision inflated the whole
        tree each time: vllm-ascend's twelve weeks asked nine revisions, 0.2 s of git's
        CPU). Only the files that hold one of ``among`` are read for ``words``."""
        if not words:
            return {}
        listing = self._git("ls-tree", "-r", "-z", "--full-tree", rev, check=False)
        wanted: dict[str, str] = {}  # path -> blob id
        for entry in listing.split("\0"):
            meta, tab, path = entry.partition("\t")
            fields = meta.split()
            if (  # (a blob: not a submodule, not a symlink)
                tab and len(fields) == 3 and fields[1] == "blob" and fields[0] != "120000"
            ) and keep(path):
                wanted[path] = fields[2]
        holds = self._holds.setdefault(among, {})
        if not holds:  # the first revision asked: one search of its tree
            found = set(self._grep(rev, among, globs))
            for path, oid in wanted.items():  # (a blob at two paths: found at either)
                holds[oid] = holds.get(oid, False) or path in found
        new = [oid for oid in wanted.values() if oid not in holds]
        for oid, text in self.read_text(new).items():
            holds[oid] = (  # (a binary file holds no text: git grep -I skips it too)
                text is not None and "\0" not in text[:8000] and any(a in text for a in among)
            )
        candidates = {path: oid for path, oid in wanted.items() if holds[oid]}
        texts = self.read_text(candidates.values())
        word = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, words))})(?!\w)", re.ASCII)
        return {
            path: text
            for path, oid in candidates.items()
            if (text := texts[oid]) and any(w in text for w in words) and word.search(text)
        }

    def _grep(self, rev: str, among: Sequence[str], globs: Iterable[str]) -> list[str]:
        """Paths at ``rev`` (in ``globs``) whose content holds one of ``among``."""
        patterns = [arg for text in among for arg in ("-e", text)]
        out = self._git("grep", *_GREP, "-l", "-z", "-F", *patterns, rev, "--", *globs, check=False)
        prefix = rev + ":"
        return [p.removeprefix(prefix) for p in out.split("\0") if p]

    def matches(self, rev: str, pattern: str, globs: Iterable[str] = ()) -> list[str]:
        """The distinct texts matching the extended regex ``pattern`` in files at ``rev``
        (``git grep -o``), in the order first found."""
        out = self._git("grep", *_GREP, "-h", "-o", "-E", pattern, rev, "--", *globs, check=False)
        return list(dict.fromkeys(line for line in out.splitlines() if line))

    def resolve(self, ref: str) -> str | None:
        """The commit ``ref`` (a tag, branch or SHA) points at, peeled; None if unknown."""
        out = self._git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        sha = out.strip()
        return sha if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha) else None

    def is_ancestor(self, older: str, newer: str) -> bool:
        """Whether ``older`` is an ancestor of ``newer`` (or the same commit)."""
        try:
            done = subprocess.run(
                git_argv("merge-base", "--is-ancestor", older, newer, repo=self.root),
                capture_output=True, env=git_env(),
            )  # fmt: skip
        except OSError as exc:
            raise SourceError(f"cannot run git in {self.root}: {exc}") from None
        return done.returncode == 0

    def commit_time(self, sha: str) -> int:
        """A commit's committer time (seconds since the epoch)."""
        return int(self._git("show", "-s", "--format=%ct", sha).strip() or 0)

    def changed_paths(self, base: str, tip: str) -> list[tuple[str, str | None]]:
        """(path, old path when renamed) of every file that differs between two revisions."""
        out = self._git("diff", "--name-status", "-z", "-M", "--no-ext-diff", base, tip, "--")
        parts = out.split("\0")
        found: list[tuple[str, str | None]] = []
        i = 0
        while i < len(parts) and parts[i]:
            status = parts[i]
            if status[:1] in ("R", "C") and i + 2 < len(parts):
                found.append((parts[i + 2], parts[i + 1]))
                i += 3
            elif i + 1 < len(parts):
                found.append((parts[i + 1], None))
                i += 2
            else:
                break
        return found

    def tags_between(self, base: str, tip: str) -> list[str]:
        """Tags reachable from ``tip`` and not from ``base`` (the releases of a range)."""
        out = self._git("tag", "--merged", tip, "--no-merged", base, check=False)
        return [t for t in out.split() if t]

    def tags(self) -> dict[str, list[str]]:
        """Tag names by the commit each points at (annotated tags peeled)."""
        out = self._git(
            "for-each-ref", "--format=%(objectname) %(*objectname) %(refname:short)",
            "refs/tags", check=False,
        )  # fmt: skip
        found: dict[str, list[str]] = {}
        for line in out.splitlines():
            parts = line.split(" ")
            if len(parts) == 3:
                target = parts[1] or parts[0]
                found.setdefault(target, []).append(parts[2])
        return found

    def _git(self, *args: str, check: bool = True) -> str:
        try:
            done = subprocess.run(
                git_argv(*args, repo=self.root), capture_output=True, env=git_env()
            )
        except OSError as exc:
            raise SourceError(f"cannot run git in {self.root}: {exc}") from None
        if check and done.returncode != 0:
            raise SourceError(f"git {args[0]} failed in {self.root}: {first_line(done.stderr)}")
        return done.stdout.decode("utf-8", "surrogateescape")

    def forget(self) -> None:
        """In a process forked while this reader ran git: leave that git to the process
        that started it (close only this process's copies of its pipes, which would keep it
        from ever seeing its input end), and start one of its own at the next read; every
        text read so far stays."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for pipe in (proc.stdin, proc.stdout, self._stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        self._stderr = None
        proc.returncode = 0  # not this process's child: never waited for here

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
