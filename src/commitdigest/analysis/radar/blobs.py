"""Blob reads for the radar: one ``git cat-file --batch`` process per window."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from commitdigest.errors import SourceError
from commitdigest.gitcmd import first_line, git_argv, git_env


class BlobReader:
    """Reads ``rev:path`` blobs through one long-lived ``git cat-file --batch``; a git that
    cannot start or stops answering is a :class:`SourceError` with git's own words."""

    def __init__(self, repo: Path) -> None:
        self._repo = repo
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        try:
            self._proc = subprocess.Popen(
                git_argv("cat-file", "--batch"),
                cwd=repo,
                env=git_env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
            )
        except OSError as exc:
            self._stderr.close()
            raise SourceError(f"cannot run git in {repo}: {exc.strerror or exc}") from None
        self._cache: dict[str, str | None] = {}

    def read(self, rev: str, path: str) -> str | None:
        key = f"{rev}:{path}"
        if key not in self._cache:
            self._cache[key] = self._read_many([key])[key]
        return self._cache[key]

    def read_many(self, keys: Iterable[str]) -> dict[str, str | None]:
        keys = list(keys)
        todo = [k for k in dict.fromkeys(keys) if k not in self._cache]
        if todo:
            self._cache.update(self._read_many(todo))
        return {k: self._cache[k] for k in keys}

    def _read_many(self, keys: list[str]) -> dict[str, str | None]:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        try:
            self._proc.stdin.write("".join(k + "\n" for k in keys).encode("utf-8"))
            self._proc.stdin.flush()
        except OSError:  # git is gone (a broken pipe): say why
            self._failed()
        out: dict[str, str | None] = {}
        for key in keys:
            line = self._proc.stdout.readline()
            if not line.endswith(b"\n"):
                self._failed()
            header = line.decode("utf-8", "replace").split()
            if len(header) < 3 or header[-1] == "missing":
                out[key] = None
                continue
            size = int(header[2])
            data = self._proc.stdout.read(size + 1)[:size]
            out[key] = None if header[1] != "blob" else data.decode("utf-8", "replace")
        return out

    def _failed(self) -> None:
        self._proc.kill()
        self._proc.wait()
        self._stderr.seek(0)
        message = first_line(self._stderr.read(4096))
        raise SourceError(f"git cat-file failed in {self._repo}: {message}")

    def close(self) -> None:
        if self._proc.stdin is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
        self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        self._stderr.close()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
