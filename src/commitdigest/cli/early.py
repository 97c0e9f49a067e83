"""What ``report`` starts before its command line is parsed: the radar's worker process for
a long window of a local repository, told which window that is.

Parsing the command line takes typer, rich and every command's module (0.15-0.3 s), and the
run then imports its stages and reads its configuration before it lists the window (another
0.3-0.5 s); a worker started once the options are parsed was ready about when the run told
it where the window starts, and only then read the window's public surface (0.1-0.9 s on
real repositories, most of a long window's fixed cost) while ``git log`` and the read took
both cores. Started here, from a reading of ``sys.argv`` that only looks for what names the
window, the worker lists it and reads that surface while this process starts up.

What is read here is a guess, never a decision: typer parses the command line as ever, the
configuration applies, and the worker keeps what it read only when the window the run tells
it starts at the same commit (``pipeline.radar_scan.prestart``). Every option that is not
one of :data:`FLAGS` takes a value, so a value is never read as a repository.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from commitdigest.pipeline.radar_scan import Hint

__all__ = ["FLAGS", "WindowArgs", "long_local_window", "start_early", "window_args"]

COMMAND = "report"
# the options of ``report`` (and the program's own, before it) that take no value
FLAGS = frozenset(
    {"--overview", "--no-overview", "--radar", "--no-radar", "--help", "--verbose", "-v"}
)
PARALLEL_DAYS = 7  # a window of this many days may hold enough commits for the workers


class _Window(Protocol):
    @property
    def repositories(self) -> Sequence[str]: ...
    @property
    def radar(self) -> bool | None: ...
    @property
    def last(self) -> int | None: ...
    @property
    def days(self) -> int | None: ...
    @property
    def since(self) -> str | None: ...
    @property
    def until(self) -> str | None: ...


@dataclass(frozen=True)
class WindowArgs:
    """What ``report``'s command line says of its window, read before it is parsed."""

    repositories: list[str] = field(default_factory=list)
    radar: bool | None = None
    last: int | None = None
    days: int | None = None
    since: str | None = None
    until: str | None = None
    date: str | None = None
    tz: str | None = None
    branch: str | None = None


def window_args(argv: Sequence[str]) -> WindowArgs | None:
    """``report``'s window as ``argv`` (without the program) names it; None for another
    command, or a command line this reading cannot tell (typer says what is wrong)."""
    args = list(argv)
    while args and args[0] in FLAGS:  # the program's own flags
        args.pop(0)
    if not args or args[0] != COMMAND:
        return None
    values: dict[str, str] = {}
    repositories: list[str] = []
    radar: bool | None = None
    rest = iter(args[1:])
    for token in rest:
        if token == "--":
            repositories.extend(rest)
        elif token in ("--radar", "--no-radar"):
            radar = token == "--radar"
        elif token in FLAGS:
            continue
        elif token.startswith("-") and token != "-":
            name, eq, value = token.partition("=")
            if not eq:
                value = next(rest, "")
            values[name] = value
        else:
            repositories.append(token)
    try:
        last = int(values["--last"]) if "--last" in values else None
        days = int(values["--days"]) if "--days" in values else None
    except ValueError:
        return None
    return WindowArgs(
        repositories=repositories,
        radar=radar,
        last=last,
        days=days,
        since=values.get("--since"),
        until=values.get("--until"),
        date=values.get("--date"),
        tz=values.get("--tz"),
        branch=values.get("--branch"),
    )


def long_local_window(args: _Window) -> bool:
    """Whether the window may hold enough commits of a local repository for the radar's
    worker process (``PARALLEL_FROM``): ``--last`` of as many, or ``--since``/``--days``
    spanning a week or more. Then the process starts before anything else (see
    ``radar_scan.prestart``); a window that turns out short ends it."""
    from commitdigest.pipeline.radar_scan import PARALLEL_FROM

    if args.radar is False or not any(_local(r) for r in args.repositories):
        return False
    if args.last is not None:
        return args.last >= PARALLEL_FROM
    if args.days is not None:
        return args.days >= PARALLEL_DAYS
    try:
        since = date.fromisoformat(args.since[:10]) if args.since else None
        until = date.fromisoformat(args.until[:10]) if args.until else date.today()
    except ValueError:
        return False  # (the window's own parsing says what is wrong)
    return since is not None and (until - since).days >= PARALLEL_DAYS


def _local(named: str) -> bool:
    """Whether ``named`` is a folder here (a local repository, as the run will open it)."""
    try:
        return Path(named).expanduser().is_dir()
    except (OSError, RuntimeError):  # (``~nobody``: the run says what is wrong)
        return False


def start_early(argv: Sequence[str]) -> None:
    """Start the radar's worker for the long local window ``argv`` names, if it names one,
    told of that window when it names one repository (see the module)."""
    args = window_args(argv)
    if args is None or not long_local_window(args):
        return
    from commitdigest.pipeline.radar_scan import prestart

    prestart(_hint(args))


def _hint(args: WindowArgs) -> Hint | None:
    """The repository, branch, start and end of the window, if ``args`` name one local
    repository and days (``--last`` is counted in commits: listed once the run starts). The
    time zone is ``--tz``, else the machine's: the configuration's is not read yet."""
    from commitdigest.errors import UsageError
    from commitdigest.window import plan_windows

    local = [r for r in args.repositories if _local(r)]
    if len(args.repositories) != 1 or len(local) != 1 or args.last is not None:
        return None
    try:
        windows = plan_windows(
            tz=args.tz, on_date=args.date, since=args.since, until=args.until, days=args.days
        )
    except (UsageError, ValueError, OverflowError):
        return None
    if not windows:
        return None
    return local[0], args.branch, windows[0].start.timestamp(), windows[-1].end.timestamp()
