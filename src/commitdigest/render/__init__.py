"""The render stage: commits + analyses -> ReportContext -> Markdown / JSON / HTML."""

from commitdigest.render.context import RepositoryInput, build_context, coverage
from commitdigest.render.html import render_html
from commitdigest.render.json_output import load_context, render_json
from commitdigest.render.labels import SUPPORTED_LANGS, Labels, get_labels
from commitdigest.render.markdown import render_markdown

__all__ = [
    "SUPPORTED_LANGS",
    "Labels",
    "RepositoryInput",
    "build_context",
    "coverage",
    "get_labels",
    "load_context",
    "render_html",
    "render_json",
    "render_markdown",
]
