"""The JSON output: the render context itself, and reading it back.

``render_markdown(load_context(render_json(ctx))) == render_markdown(ctx)``: the JSON
holds everything the Markdown report is made of.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from commitdigest.errors import CommitdigestError, OutputError
from commitdigest.models import Coverage, ReportContext
from commitdigest.render.labels import get_labels
from commitdigest.render.markdown import check_anchors

SCHEMA_VERSION = 1
_SURROGATE = re.compile("[\ud800-\udfff]")


def render_json(context: ReportContext) -> str:
    """``context`` as pretty JSON: UTF-8 text (not ASCII-escaped), keys in the models'
    field order, ending with a newline. Lone surrogates (undecodable input) become
    U+FFFD so the text can always be written as UTF-8."""
    data = context.model_dump(mode="json")
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return _SURROGATE.sub("\ufffd", text) + "\n"


def load_context(text: str) -> ReportContext:
    """A :class:`ReportContext` from JSON made by :func:`render_json`.

    Raises :class:`OutputError` with a one-line message for invalid JSON, a wrong
    shape, an unsupported schema version or language, or unusable anchors.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise OutputError(
            f"invalid JSON report context: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    if not isinstance(data, dict):
        raise OutputError(
            f"invalid report context: expected a JSON object, got {type(data).__name__}"
        )
    version = data.get("schema_version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise OutputError(
            f"unsupported report context schema_version {version!r} (expected {SCHEMA_VERSION})"
        )
    try:
        context = ReportContext.model_validate(data)
    except ValidationError as exc:
        raise OutputError(f"invalid report context: {_first_error(exc)}") from None
    try:
        get_labels(context.lang)
        check_anchors(context)
    except (CommitdigestError, ValueError) as exc:
        raise OutputError(f"invalid report context: {exc}") from None
    return context


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False)
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top level)"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    message = " ".join(str(first["msg"]).split())
    return f"{where}: {message}{more}"


@dataclass(frozen=True)
class DayUnits:
    """A day of separate reports: all of it as one context, each repository's unit folder,
    and each unit's own report."""

    context: ReportContext
    folders: dict[str, str]  # repository name -> unit folder
    reports: dict[str, ReportContext]  # unit folder -> its report


SITE_MARKER = ".manifest.json"  # a site built inside the reports folder is not a report


def unit_folders(out_dir: Path) -> list[Path]:
    """The folders of separate reports (``<unit>/<day>.json``) in ``out_dir``, sorted."""
    try:
        return sorted(p for p in out_dir.iterdir() if p.is_dir() and not (p / SITE_MARKER).exists())
    except OSError:
        return []


def load_units(out_dir: Path, day: str) -> DayUnits | None:
    """The day's separate reports (``<out>/<unit>/<day>.json``, whoever wrote them: a run,
    or the shards of one) and the combined context made from them; None when the day has
    none. Repositories in name order; counts and costs summed."""
    contexts: list[tuple[str, ReportContext]] = []
    for folder in unit_folders(out_dir):
        path = folder / f"{day}.json"
        try:
            contexts.append((folder.name, load_context(path.read_text(encoding="utf-8"))))
        except (OSError, UnicodeDecodeError, CommitdigestError):
            continue
    if not contexts:
        return None
    units: dict[str, str] = {}
    repos = []
    for unit, context in contexts:
        for repo in context.repositories:
            if repo.name not in units:
                units[repo.name] = unit
                repos.append(repo)
    repos.sort(key=lambda r: r.name.lower())
    first = contexts[0][1]
    usage = [c.usage for _, c in contexts if c.usage is not None]
    total_usage = None
    for u in usage:
        total_usage = u if total_usage is None else total_usage + u
    merged = ReportContext(
        generated_at=max(c.generated_at for _, c in contexts),
        lang=first.lang,
        window=first.window,
        repositories=repos,
        coverage=Coverage(
            total=sum(r.coverage.total for r in repos),
            analysed=sum(r.coverage.analysed for r in repos),
            by_llm=sum(r.coverage.by_llm for r in repos),
            by_rules=sum(r.coverage.by_rules for r in repos),
            fallback=sum(r.coverage.fallback for r in repos),
        ),
        usage=total_usage,
    )
    return DayUnits(merged, units, dict(contexts))
