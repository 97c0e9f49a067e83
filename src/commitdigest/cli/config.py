"""``commitdigest config …`` (check and locate the settings file) and ``commitdigest repos …``
(add, remove and list the followed repositories, editing the file in place).

Mounted by :mod:`commitdigest.cli`::

    app.add_typer(config_app, name="config")
    app.add_typer(repos_app, name="repos")

Edits keep every other byte of the file (comments included), are validated before they
are written, and are written atomically as UTF-8.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from commitdigest.cli.console import err, guard, out
from commitdigest.cli.options import ConfigOption
from commitdigest.errors import EXIT_CODES_HELP

if TYPE_CHECKING:
    from commitdigest.config.subscriptions import Repository

config_app = typer.Typer(
    help="Check and locate the settings file (commitdigest.toml).",
    epilog=EXIT_CODES_HELP,
    no_args_is_help=True,
    rich_markup_mode=None,
)
repos_app = typer.Typer(
    help="Follow repositories: add, remove and list the [[repositories]] of commitdigest.toml.",
    epilog=EXIT_CODES_HELP,
    no_args_is_help=True,
    rich_markup_mode=None,
)


def focus_summary(repository: Repository) -> str:
    focus = repository.focus
    parts = [
        f"paths: {', '.join(focus.paths)}" if focus.paths else "",
        f"keywords: {', '.join(focus.keywords)}" if focus.keywords else "",
        f"emphasis: {focus.emphasis}" if focus.emphasis else "",
    ]
    return "\n".join(p for p in parts if p) or "—"


@config_app.command("check")
def check(config: ConfigOption = None) -> None:
    """Validate the settings file and print the effective settings (secrets masked).

    The analyser must be a registered one (rules, llm, an installed plugin's).
    Each [[deliver]] channel is checked too: every environment variable it names is set
    (the missing one is named, a value never shown), URLs are http(s), a password file
    exists; a warning says when SMTP credentials would travel without TLS.
    Exit 0 when valid, 2 with one line per problem (key path and problem) when not.
    """

    def action() -> str:
        import os

        from commitdigest.analysis.analysers import analysers
        from commitdigest.config.channels import channel_problems
        from commitdigest.config.edit import effective_toml
        from commitdigest.config.settings import LOCALE_VARIABLES, find_config, load_settings
        from commitdigest.errors import ConfigError

        path = find_config(config)
        settings = load_settings(path)
        where = str(path) if path else "none found: defaults and environment only"
        errors: list[str] = []
        known = analysers()
        if settings.analysis.analyser not in known:
            errors.append(
                f"analysis.analyser: unknown analyser {settings.analysis.analyser!r}: "
                f"choose from {', '.join(known)}"
            )
        for channel in settings.deliver:  # each channel's secrets and URL, never their values
            problems, warnings = channel_problems(channel, os.environ)
            errors += problems
            for warning in warnings:
                err.print(f"warning: {warning}", markup=False)
        for problem in errors[1:]:
            err.print(f"error: {problem}", markup=False)
        if errors:
            raise ConfigError(errors[0])
        notes: dict[str, str] = {}
        if "language" not in settings.model_fields_set:  # what reports are written in now
            settings = settings.model_copy(update={"language": settings.report_language()})
            locale = any(os.environ.get(n) for n in LOCALE_VARIABLES)
            notes["language"] = (
                "from the locale (LC_ALL, LC_MESSAGES, LANG): set it to choose"
                if locale
                else "no locale set (LC_ALL, LC_MESSAGES, LANG): set it to choose"
            )
        return f"# config file: {where}\n# valid\n\n{effective_toml(settings, notes)}"

    typer.echo(guard(action), nl=False)


@config_app.command("path")
def path(config: ConfigOption = None) -> None:
    """Print where the settings file is, or where `repos add` would create it."""
    from commitdigest.config.edit import target_path

    target = target_path(config)
    typer.echo(str(target))
    if not target.is_file():
        err.print("(does not exist yet; `commitdigest repos add` creates it)", markup=False)


@repos_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="owner/repo, a repository URL, or a local path.")],
    branch: Annotated[
        str | None, typer.Option(help="Branch to follow (default: the default branch).")
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(help="github or git (default: github for owner/repo, git for a path)."),
    ] = None,
    paths: Annotated[
        list[str] | None,
        typer.Option("--path", help="Focus glob, e.g. 'vllm/platforms/**' (repeatable)."),
    ] = None,
    keywords: Annotated[
        list[str] | None, typer.Option("--keyword", help="Focus keyword (repeatable).")
    ] = None,
    emphasis: Annotated[
        str | None, typer.Option(help="What matters, in words, for the LLM prompt.")
    ] = None,
    config: ConfigOption = None,
) -> None:
    """Follow a repository: append a [[repositories]] entry (creates the file if missing)."""

    def action() -> Path:
        from commitdigest.config.edit import add_subscription, target_path

        target = target_path(config)
        add_subscription(
            target,
            name,
            branch=branch,
            source=source,
            paths=paths or (),
            keywords=keywords or (),
            emphasis=emphasis,
        )
        return target

    target = guard(action)
    out.print(f"following {name.strip()} (in {target})", markup=False)


@repos_app.command("remove")
def remove(
    name: Annotated[str, typer.Argument(help="The repository, in any of its name forms.")],
    config: ConfigOption = None,
) -> None:
    """Stop following a repository: remove its entry, and the comment lines right above it."""

    def action() -> tuple[Path, str]:
        from commitdigest.config.edit import remove_subscription, target_path

        target = target_path(config)
        return target, remove_subscription(target, name)

    target, removed = guard(action)
    out.print(f"removed {removed} (from {target})", markup=False)


@repos_app.command("list")
def list_(config: ConfigOption = None) -> None:
    """List the followed repositories: name, source, branch, focus."""
    from rich.table import Table

    from commitdigest.config.settings import default_config_path, find_config, load_settings

    settings = guard(lambda: load_settings(find_config(config)))
    if not settings.repositories:
        where = settings.config_file or default_config_path()
        out.print(f"no repositories followed (add one: commitdigest repos add; {where})")
        return
    table = Table("name", "source", "branch", "focus", title=str(settings.config_file or ""))
    for repository in settings.repositories:
        table.add_row(
            repository.name, repository.source, repository.branch or "—", focus_summary(repository)
        )
    out.print(table)
