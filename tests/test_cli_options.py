"""A command that takes its options as one object (cli.options.takes_options)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Annotated

import typer
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.cli.options import LangOption, takes_options
from commitdigest.cli.report import ReportArgs


@dataclass(frozen=True, kw_only=True)
class _Args:
    name: Annotated[str, typer.Argument(help="Who.")]
    times: Annotated[int, typer.Option(min=1, help="How often.")] = 1
    loud: Annotated[bool, typer.Option("--loud/--quiet", help="Shout.")] = False
    lang: LangOption = None


def _app(context: bool = False) -> tuple[typer.Typer, list[object]]:
    seen: list[object] = []
    sub = typer.Typer()

    if context:

        @sub.callback(invoke_without_command=True)
        @takes_options(_Args, context=True)
        def greet_ctx(ctx: typer.Context, args: _Args) -> None:
            """Say hello."""
            seen.extend([ctx.invoked_subcommand, args])

    else:

        @sub.command()
        @takes_options(_Args)
        def greet(args: _Args) -> None:
            """Say hello."""
            seen.append(args)

    return sub, seen


def test_the_command_gets_one_frozen_object_of_its_options() -> None:
    sub, seen = _app()
    result = CliRunner().invoke(sub, ["bob", "--times", "3", "--loud", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert seen == [_Args(name="bob", times=3, loud=True, lang="en")]
    result = CliRunner().invoke(sub, ["ann"])
    assert seen[-1] == _Args(name="ann")  # the fields' defaults
    assert CliRunner().invoke(sub, ["ann", "--times", "0"]).exit_code == 2  # min=1 holds
    assert CliRunner().invoke(sub, []).exit_code == 2  # the argument is required


def test_the_signature_is_the_fields_in_order_and_help_lists_them() -> None:
    sub, _ = _app()
    (command,) = sub.registered_commands
    callback = command.callback
    assert callback is not None and callback.__name__ == "greet"
    assert list(inspect.signature(callback).parameters) == ["name", "times", "loud", "lang"]
    text = CliRunner().invoke(sub, ["--help"], terminal_width=200).output
    assert "Say hello." in text and "How often." in text and "--loud" in text
    assert text.index("--times") < text.index("--loud") < text.index("--lang")


def test_a_context_comes_first_when_asked_for() -> None:
    sub, seen = _app(context=True)
    result = CliRunner().invoke(sub, ["bob"])
    assert result.exit_code == 0, result.output
    assert seen == [None, _Args(name="bob")]


def test_report_declares_each_option_once_as_a_field() -> None:
    (report,) = [
        c for c in app.registered_commands if c.callback and c.callback.__name__ == "report"
    ]
    assert report.callback is not None
    parameters = inspect.signature(report.callback).parameters
    assert list(parameters) == list(ReportArgs.__dataclass_fields__)
    assert {"repositories", "last", "downstream", "home"} <= set(parameters)
