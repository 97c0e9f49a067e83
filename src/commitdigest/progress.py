"""The progress protocol: how the library tells about long work (the CLI draws it)."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    """What the pipeline tells about long work (the CLI shows it as progress bars)."""

    def start(self, stage: str, total: int) -> None: ...

    def advance(self, stage: str, amount: int = 1) -> None: ...


class NoProgress:
    """A :class:`Progress` that shows nothing (the library's default)."""

    def start(self, stage: str, total: int) -> None:
        pass

    def advance(self, stage: str, amount: int = 1) -> None:
        pass
