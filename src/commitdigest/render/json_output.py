"""The JSON output: the render context itself, and reading it back.

``render_markdown(load_context(render_json(ctx))) == render_markdown(ctx)``: the JSON
holds everything the Markdown report is made of.
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError

from commitdigest.errors import CommitdigestError, OutputError
from commitdigest.models import ReportContext
from commitdigest.render.context import check_anchors
from commitdigest.render.labels import get_labels

SCHEMA_VERSION = 1
_SURROGATE = re.compile("[\ud800-\udfff]")


def render_json(context: ReportContext) -> str:
    """``context`` as pretty JSON: UTF-8 text (not ASCII-escaped), keys in the models'
    field order, ending with a newline. Lone surrogates (undecodable input) become
    U+FFFD so the text can always be written as UTF-8."""
    try:  # pydantic's own serialiser: the same text as json.dumps(indent=2), 5x faster
        return context.model_dump_json(indent=2) + "\n"
    except ValueError:  # lone surrogates, which it refuses: the slow path replaces them
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
