"""Blob reads for the radar: one ``git cat-file --batch`` process per window."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path


class BlobReader:
    """Reads ``rev:path`` blobs through one long-lived ``git cat-file --batch``."""

    def __init__(self, repo: Path) -> None:
        self._proc = subprocess.Popen(
            ["git", "cat-file", "--batch"], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
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
        self._proc.stdin.write("".join(k + "\n" for k in keys).encode("utf-8"))
        self._proc.stdin.flush()
        out: dict[str, str | None] = {}
        for key in keys:
            header = self._proc.stdout.readline().decode("utf-8", "replace").split()
            if len(header) < 3 or header[-1] == "missing":
                out[key] = None
                continue
            size = int(header[2])
            data = self._proc.stdout.read(size + 1)[:size]
            out[key] = None if header[1] != "blob" else data.decode("utf-8", "replace")
        return out

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
