"""``commitdigest llm check``: probe the configured LLM endpoint once and say what works.

Mounted by :mod:`commitdigest.cli` as ``app.add_typer(llm_app, name="llm")``. The probe
and its findings are the library's (:mod:`commitdigest.analysis.llm.check`); this module
prints them and exits 8 when analyses would fail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from commitdigest.cli.console import err, exit_with, out
from commitdigest.cli.options import ConfigOption, ModelOption
from commitdigest.errors import EXIT_CODES_HELP

if TYPE_CHECKING:
    from commitdigest.analysis.llm.check import EndpointCheck

llm_app = typer.Typer(
    help="The LLM endpoint: check what works before a run relies on it.",
    epilog=EXIT_CODES_HELP,
    no_args_is_help=True,
    rich_markup_mode=None,
)


def _yes(flag: bool | None, yes: str, no: str, unknown: str = "not known") -> str:
    return unknown if flag is None else yes if flag else no


def print_check(report: EndpointCheck) -> None:
    """The findings, one per line, then the settings that describe the endpoint."""
    rows = [
        ("endpoint", f"{report.url} — provider {report.provider}"),
        ("reachable", _yes(report.reachable, "yes", "no")),
        ("key", _yes(report.key_accepted, f"accepted ({report.key})", f"refused ({report.key})")),
        (
            "model",
            f"{report.model}: "
            + _yes(
                report.model_listed,
                "listed by the server",
                "not listed by the server",
                "the server lists no models",
            ),
        ),
    ]
    if report.ok:
        rows += [
            ("structured", report.mode + (" (strict)" if report.strict else "")),
            ("tokens", report.token_param),
            ("temperature", "sent" if report.temperature else "not sent (the model refuses it)"),
            (
                "reasoning",
                "the model thinks first: requests get room for it"
                if report.reasoning
                else "none seen",
            ),
        ]
        if report.answer_in_reasoning:
            rows.append(("warning", "the answer comes back in the reasoning field, content empty"))
        rows += [
            ("learnt", "; ".join(report.learnt) or "nothing: the profile fits"),
            ("latency", f"{report.latency_s:.2f} s" if report.latency_s is not None else "-"),
            (
                "rate limits",
                ", ".join(f"{k}: {v}" for k, v in sorted(report.rate_limits.items()))
                or "none sent",
            ),
        ]
    for name, value in rows:
        out.print(f"{name:<12} {value}", markup=False)
    if report.ok:
        out.print("\nsettings for commitdigest.toml:", markup=False)
        for line in report.config_lines():
            out.print(f"  {line}", markup=False)
    else:
        err.print(f"error: {report.error}", markup=False)


@llm_app.command(epilog=EXIT_CODES_HELP)
def check(model: ModelOption = None, config: ConfigOption = None) -> None:
    """Send one short probe to the configured endpoint (OPENAI_BASE_URL, OPENAI_API_KEY,
    [llm]) and print what works: reachable, key, model, structured output, token parameter,
    reasoning, latency, rate-limit headers; then the settings to use. Exit code 8 when
    analyses would fail."""

    def action() -> int:
        from commitdigest.aio import run_sync
        from commitdigest.analysis.llm.check import check_endpoint
        from commitdigest.analysis.llm.client import build_chat_client
        from commitdigest.config import find_config, load_settings
        from commitdigest.errors import LLMEndpointError

        settings = load_settings(find_config(config)).llm
        if model:
            settings = settings.model_copy(update={"model": model})
        client = build_chat_client(settings)

        async def probe() -> EndpointCheck:
            async with client:
                return await check_endpoint(
                    client,
                    settings.model,
                    temperature=settings.temperature,
                    extra_body=dict(settings.extra_body),
                )

        report = run_sync(probe())
        print_check(report)
        return 0 if report.ok else LLMEndpointError.exit_code

    exit_with(action)
