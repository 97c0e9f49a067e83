"""What the radar may ask of a repository, and the window-level view of it.

The radar runs no git of its own: the source gives it a :class:`Blobs` (the git source's
``sources.blobs.BlobReader``: blobs by id or ``rev:path``, tree listings, the files that
name a word, ``git grep`` and tags), and :class:`RepoView` keeps what the window needs
once — the tags; the public surface of the packages at the window's start is
:func:`~.public.public_surface`'s, kept per view — so that neighbouring commits share it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from typing import Protocol

__all__ = ["Blobs", "RepoView"]


class Blobs(Protocol):
    """The repository's files at any revision (``sources.blobs.BlobReader``)."""

    def read_text(self, specs: Iterable[str]) -> dict[str, str | None]: ...

    def paths(self, rev: str) -> list[str]: ...

    def having(
        self,
        rev: str,
        words: Sequence[str],
        keep: Callable[[str], bool],
        globs: Iterable[str],
        among: tuple[str, ...],
    ) -> dict[str, str]: ...

    def matches(self, rev: str, pattern: str, globs: Iterable[str] = ()) -> list[str]: ...

    def tags(self) -> dict[str, list[str]]: ...

    def close(self) -> None: ...


class RepoView:
    """One window of one repository: its blobs, and what is computed once per window."""

    def __init__(self, blobs: Blobs, base: str | None) -> None:
        self.blobs = blobs
        self.base = base  # the first commit's parent (None: the window starts at the root)

    def text(self, rev: str | None, path: str) -> str | None:
        if not rev:
            return None
        return self.blobs.read_text([f"{rev}:{path}"])[f"{rev}:{path}"]

    def texts(self, rev: str | None, paths: Iterable[str]) -> dict[str, str | None]:
        paths = list(paths)
        if not rev:
            return dict.fromkeys(paths)
        got = self.blobs.read_text(f"{rev}:{p}" for p in paths)
        return {p: got[f"{rev}:{p}"] for p in paths}

    @cached_property
    def tags(self) -> dict[str, list[str]]:
        """Tag names by the commit each points at."""
        return self.blobs.tags()
