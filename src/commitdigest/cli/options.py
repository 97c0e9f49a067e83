"""Every option shared by several commands, declared once with its one help text."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar, get_type_hints

import typer

_Args = TypeVar("_Args")

LANG_HELP = (
    "Report language: zh or en (default: the config's language, else the locale: "
    "LC_ALL/LC_MESSAGES/LANG starting with zh gives zh, anything else en)."
)

ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="The settings file (default: ./commitdigest.toml, else "
        "$COMMITDIGEST_HOME/commitdigest.toml).",
    ),
]
HomeOption = Annotated[
    Path | None,
    typer.Option(
        "--home",
        envvar="COMMITDIGEST_HOME",
        help="Folder of the store (cache, run records), the lock and the mirrors.",
    ),
]
TzOption = Annotated[
    str | None,
    typer.Option("--tz", help="IANA time zone, e.g. Asia/Shanghai (default: config, else local)."),
]
DateOption = Annotated[
    str | None, typer.Option("--date", help="One calendar day (YYYY-MM-DD) in the time zone.")
]
LangOption = Annotated[str | None, typer.Option("--lang", help=LANG_HELP)]
FormatOption = Annotated[
    str | None,
    typer.Option("--format", help="Comma-separated formats: md, json, html (default md)."),
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", help="Output folder (default: the config's output_dir, reports)."),
]
DownstreamOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--downstream",
        help="Your own checkout (repeatable): the radar's items it uses are listed first, "
        "as 'Affects you', with the path and line of each use.",
    ),
]
BranchOption = Annotated[
    str | None, typer.Option("--branch", help="Branch to read (default: the current HEAD).")
]
AnalyserOption = Annotated[
    str | None,
    typer.Option(
        "--analyser",
        help="rules (offline, default), llm (OpenAI-compatible endpoint) or a plugin's.",
    ),
]
ModelOption = Annotated[str | None, typer.Option("--model", help="LLM model name (llm.model).")]
RadarOption = Annotated[
    bool | None,
    typer.Option("--radar/--no-radar", help="The breaking-change radar (default on)."),
]


def takes_options(
    options: type[_Args], *, context: bool = False
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A command that takes its options as one object: ``options`` is a dataclass whose
    fields (``Annotated`` types with typer's declarations, and their defaults) are the
    command's arguments and options, in field order; the command is called with the
    ``options`` instance the command line gives (after a ``typer.Context`` first when
    ``context``). typer reads the parameters from the wrapper's ``__signature__``, so
    ``--help`` and parsing are as if each field were a parameter of the command."""
    hints = get_type_hints(options, include_extras=True)
    params = [
        inspect.Parameter(
            field.name,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=hints[field.name],
            default=inspect.Parameter.empty
            if field.default is dataclasses.MISSING
            else field.default,
        )
        for field in dataclasses.fields(options)  # type: ignore[arg-type]
    ]
    if context:
        ctx = inspect.Parameter(
            "ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context
        )
        params.insert(0, ctx)

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        def call(**given: Any) -> None:
            head = [given.pop("ctx")] if context else []
            command(*head, options(**given))

        call.__signature__ = inspect.Signature(params, return_annotation=None)  # type: ignore[attr-defined]
        for name in ("__module__", "__name__", "__qualname__", "__doc__"):
            setattr(call, name, getattr(command, name))
        return call

    return decorate
