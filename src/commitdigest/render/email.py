"""Render a :class:`ReportContext` as the HTML part of an e-mail.

Mail clients strip scripts, most of ``<style>`` and anything that loads: this page has
no script and no request, every style inline on its element, explicit text *and*
background colours on every block (a client that darkens the page inverts both together,
so text stays readable in light and dark mode), and commit text isolated in ``<bdi>``.
It carries what a reader acts on — the radar's items, the overview, the high and medium
commits with their summaries —, the period at a glance as a row of table-based bars
(:func:`~commitdigest.render.chart.email_bars`: a week's days, a day's repositories), and
one line per low-importance or automated commit, with a link to the full report when a
base URL is configured. It is kept within
:data:`EMAIL_MAX_BYTES` by showing less detail, never by cutting text in the middle.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo

from markupsafe import Markup

from commitdigest.i18n import DIGEST_STRINGS, WEEKLY_STRINGS, pick
from commitdigest.models import (
    Coverage,
    ReportContext,
    RepositoryEntry,
    WeeklyContext,
    WindowInfo,
)
from commitdigest.render.chart import email_bars, repository_columns, week_days
from commitdigest.render.context import check_anchors
from commitdigest.render.jinja_env import template_environment
from commitdigest.render.labels import Labels, get_labels
from commitdigest.render.plaintext import report_parts
from commitdigest.render.view import HtmlView, is_calendar_day, report_zone
from commitdigest.render.weekly import week_zone
from commitdigest.text import safe_url

EMAIL_MAX_BYTES = 100_000
# (detail, commits listed per group) tried in order until the page fits; a group cut short
# ends with "…and N more" and the link to the full report
DETAIL_LEVELS: tuple[tuple[str, int | None], ...] = (
    ("full", None),
    ("short", None),
    ("minimal", 150),
    ("minimal", 40),
)


class _EmailView(HtmlView):
    """The HTML report's helpers; a link to a commit's section points into the full
    report (when its address is known) instead of this page."""

    def __init__(self, labels: Labels, zone: tzinfo, report_url: str | None) -> None:
        super().__init__(labels, zone)
        self.report_url = report_url

    def with_link(self, item: Markup, anchor: str) -> Markup:
        if not self.report_url:
            return item
        return item + Markup(' <a href="{}#{}" style="color:#0969da">↗</a>').format(
            self.report_url, anchor
        )

    def section_url(self, anchor: str) -> str | None:
        return f"{self.report_url}#{anchor}" if self.report_url else None


def render_email_html(
    report: ReportContext | WeeklyContext, *, report_url: str | None = None
) -> str:
    """The e-mail's HTML for a day's report or a week's digest (at most
    :data:`EMAIL_MAX_BYTES` UTF-8 bytes unless even the minimal page is larger), linking to
    ``report_url`` when given."""
    context = _week_page(report) if isinstance(report, WeeklyContext) else report
    labels = get_labels(context.lang)
    check_anchors(context)
    zone = report_zone(context.window)
    url = safe_url(report_url)
    view = _EmailView(labels, zone, url)
    if isinstance(report, WeeklyContext):  # the week's days
        weekdays = pick(WEEKLY_STRINGS, report.lang)["weekdays"].split(",")
        bars = email_bars(week_days(report, weekdays, lambda day: None), labels)
    else:  # the day's repositories
        bars = email_bars(repository_columns(report), labels, title=labels.s["chart_repos_title"])
    act = view.act_on(context)  # the same at every level of detail
    template = template_environment("commitdigest.render").get_template("email.html.j2")
    page = ""
    for detail, cap in DETAIL_LEVELS:
        page = template.render(
            ctx=context,
            L=labels,
            s=labels.s,
            d=pick(DIGEST_STRINGS, context.lang),
            v=view,
            is_day=is_calendar_day(context.window, zone),
            report_url=url,
            detail=detail,
            cap=cap,
            bars=bars,
            act=act,
        )
        page = page.rstrip("\n") + "\n"
        if len(page.encode("utf-8")) <= EMAIL_MAX_BYTES:
            break
    return page


def _week_page(week: WeeklyContext) -> ReportContext:
    """What the e-mail page of a week shows, in the shape its template reads: each
    repository's commits of the week (newest first) and its overview of the week, under a
    window of the seven days labelled with the week. Only this page is made from it."""
    zone = week_zone(week)
    start = datetime.combine(date.fromisoformat(week.start), time(0), tzinfo=zone)
    entries = []
    for part, repo in zip(report_parts(week), week.repositories, strict=True):
        n = len(part.commits)
        entries.append(
            RepositoryEntry(
                name=repo.name,
                url=repo.url,
                anchor=repo.anchor,
                commits=list(part.commits),
                coverage=Coverage(total=n, analysed=n),
                overview=repo.overview,
            )
        )
    total = sum(len(e.commits) for e in entries)
    return ReportContext(
        generated_at=week.generated_at,
        lang=week.lang,
        window=WindowInfo(start=start, end=start + timedelta(days=7), tz=week.tz, label=week.week),
        repositories=entries,
        coverage=Coverage(total=total, analysed=total),
        usage=week.usage,
    )


__all__ = ["EMAIL_MAX_BYTES", "render_email_html"]
