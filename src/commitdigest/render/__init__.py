"""The render stage: commits + analyses -> ReportContext -> Markdown / JSON / HTML.

The names below are loaded on first use, so a run that writes only Markdown never imports
the HTML renderer (markdown-it) and vice versa.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from commitdigest.lazy import lazy_getattr

if TYPE_CHECKING:
    from commitdigest.render.context import RepositoryInput, build_context, coverage
    from commitdigest.render.folder import ReportsFolder
    from commitdigest.render.html import render_html
    from commitdigest.render.json_output import load_context, render_json
    from commitdigest.render.labels import SUPPORTED_LANGS, Labels, get_labels
    from commitdigest.render.markdown import render_markdown

_WHERE = {
    "RepositoryInput": ".context",
    "build_context": ".context",
    "coverage": ".context",
    "ReportsFolder": ".folder",
    "render_html": ".html",
    "load_context": ".json_output",
    "render_json": ".json_output",
    "SUPPORTED_LANGS": ".labels",
    "Labels": ".labels",
    "get_labels": ".labels",
    "render_markdown": ".markdown",
}

__all__ = [
    "SUPPORTED_LANGS",
    "Labels",
    "ReportsFolder",
    "RepositoryInput",
    "build_context",
    "coverage",
    "get_labels",
    "load_context",
    "render_html",
    "render_json",
    "render_markdown",
]


__getattr__ = lazy_getattr(__name__, _WHERE)
