"""Progress bars for the pipeline's long stages, shown only on an interactive terminal."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

STAGE_LABELS = {"read": "reading git", "analyse": "analysing", "render": "writing reports"}


class RichProgress:
    """A :class:`commitdigest.progress.Progress` drawn with rich; silent when not a TTY."""

    def __init__(self, console: Console) -> None:
        self._enabled = console.is_terminal
        self._progress = Progress(
            TextColumn("{task.description:<16}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=not self._enabled,
        )
        self._tasks: dict[str, TaskID] = {}

    def __enter__(self) -> RichProgress:
        if self._enabled:  # a disabled display still writes a newline on exit (rich < 14.3)
            self._progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._enabled:
            self._progress.__exit__(None, None, None)

    def start(self, stage: str, total: int) -> None:
        label = STAGE_LABELS.get(stage, stage)
        if stage in self._tasks:
            self._progress.reset(self._tasks[stage], total=total, description=label)
        else:
            self._tasks[stage] = self._progress.add_task(label, total=total)

    def advance(self, stage: str, amount: int = 1) -> None:
        if stage in self._tasks:
            self._progress.advance(self._tasks[stage], amount)
