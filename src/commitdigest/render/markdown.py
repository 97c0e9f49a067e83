"""Render a :class:`ReportContext` as Markdown with the one Jinja2 template.

The template (``templates/report.md.j2``) writes every heading and label; this module
gives it the labels of the report's language (``L``, ``s``) and the view ``v``
(:class:`~commitdigest.render.view.MarkdownView`), whose methods format times, group
commits and make commit and analyser text safe. Output depends on the context only: the
same context gives byte-identical Markdown.
"""

from __future__ import annotations

from commitdigest.models import ReportContext
from commitdigest.render.context import check_anchors
from commitdigest.render.jinja_env import template_environment
from commitdigest.render.labels import get_labels
from commitdigest.render.view import MarkdownView, is_calendar_day, report_zone


def render_markdown(context: ReportContext) -> str:
    """The Markdown report for ``context``."""
    labels = get_labels(context.lang)
    check_anchors(context)
    zone = report_zone(context.window)
    # Markdown, not HTML: every value is escaped by a filter
    environment = template_environment("commitdigest.render", autoescape=False)
    template = environment.get_template("report.md.j2")
    view = MarkdownView(labels, zone)
    text = template.render(
        ctx=context,
        L=labels,
        s=labels.s,
        v=view,
        is_day=is_calendar_day(context.window, zone),
    )
    return text.rstrip("\n") + "\n"
