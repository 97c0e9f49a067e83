"""Every option shared by several commands, declared once with its one help text."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

LANG_HELP = (
    "Report language: zh or en (default: the config's lang, else the locale: "
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
