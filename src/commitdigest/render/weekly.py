"""Render a :class:`WeeklyContext` as Markdown or HTML.

One view (:class:`WeekView`) gives both templates (``weekly.md.j2``, ``weekly.html.j2``)
the week's figures and lists; the text is made safe by the daily report's own views (the
Markdown and HTML views of :mod:`.view`), so a weekly escapes
exactly as a daily does. Every commit links to its section in the daily report of its day
(``<day>.md#<anchor>`` next to the Markdown, ``<day>.html#<anchor>`` next to the HTML):
relative links that resolve where the dailies are written, and in the archive site.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Generic, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from markupsafe import Markup

from commitdigest.i18n import WEEKLY_STRINGS, pick
from commitdigest.models import (
    IMPORTANCE_ORDER,
    Importance,
    WeekCommit,
    WeeklyContext,
    WeeklyRepository,
)
from commitdigest.render.act_on import ActOn, act_on
from commitdigest.render.chart import chart_html, week_days
from commitdigest.render.headline import Headline, headline
from commitdigest.render.jinja_env import template_environment
from commitdigest.render.labels import get_labels
from commitdigest.render.view import HtmlView, MarkdownView, ReportView

T = TypeVar("T", bound=str)


class WeekView(Generic[T]):
    """The week's figures and lists for a template; ``v`` makes text safe for the format."""

    def __init__(self, v: ReportView[T], strings: Mapping[str, str], ext: str) -> None:
        self.v = v
        self.w = strings
        self.ext = ext

    # -- links -------------------------------------------------------------------------
    def day_href(self, day: str) -> str:
        return f"{day}.{self.ext}"

    def commit_href(self, commit: WeekCommit) -> str:
        report = f"{commit.report}.{self.ext}" if commit.report else self.day_href(commit.day)
        return f"{report}#{commit.entry.anchor}"

    # -- the week at a glance -----------------------------------------------------------------
    def weekday(self, day: str) -> str:
        return self.w["weekdays"].split(",")[date.fromisoformat(day).weekday()]

    def chart(self, ctx: WeeklyContext) -> Markup:
        """The week at a glance as an inline SVG (the HTML page): each day's commits stacked
        by importance, a mark on a day with breaking changes, each bar linking to its day."""
        days = week_days(ctx, self.w["weekdays"].split(","), self.day_href)
        return chart_html(days, self.v.labels, ident="week-chart")

    def total(self, ctx: WeeklyContext) -> int:
        return sum(len(r.commits) for r in ctx.repositories)

    def share(self, commits: list[WeekCommit]) -> list[str]:
        """ "🔴 High 8 (13%)" for each importance, high first."""
        n = len(commits) or 1
        labels = self.v.labels
        out = []
        for imp in IMPORTANCE_ORDER:
            count = sum(1 for c in commits if c.entry.analysis.importance is imp)
            out.append(
                self.w["share_item"].format(
                    label=labels.importance(imp), n=count, pct=round(100 * count / n)
                )
            )
        return out

    def all_commits(self, ctx: WeeklyContext) -> list[WeekCommit]:
        return [c for r in ctx.repositories for c in r.commits]

    # -- what forces action ------------------------------------------------------------------
    def act_on(self, ctx: WeeklyContext) -> tuple[ActOn, dict[str, WeekCommit]]:
        """The week's Act-on block (``render.act_on``) and each line's commit by SHA (its
        link goes into the daily report that holds it)."""
        found = act_on([(r.name, [c.entry for c in r.commits]) for r in ctx.repositories])
        by_sha = {c.entry.sha: c for r in ctx.repositories for c in r.commits}
        return found, by_sha

    def headline(self, repo: WeeklyRepository) -> Headline[WeekCommit]:
        """The week's radar items a reader sees first (``render.headline``)."""
        return headline(repo.commits, lambda c: c.entry.api_changes)

    def high(self, repo: WeeklyRepository) -> list[WeekCommit]:
        return [c for c in repo.commits if c.entry.analysis.importance is Importance.HIGH]

    def overview(self, repo: WeeklyRepository) -> list[tuple[str, list[tuple[T, str | None]]]]:
        """(label, [(safe item, link to the commit it cites or None)]) of the week's overview."""
        ov = repo.overview
        if ov is None:
            return []
        by_sha = {c.entry.short_sha: c for c in repo.commits}
        refs = ov.key_refs if len(ov.key_refs) == len(ov.key_changes) else []
        out: list[tuple[str, list[tuple[T, str | None]]]] = []
        for key, values, keyed in (
            ("themes", ov.themes, []),
            ("key_changes", ov.key_changes, refs),
            ("risks", ov.risks, []),
        ):
            items: list[tuple[T, str | None]] = []
            for i, value in enumerate(values):
                text = self.v.inline(value)
                cited = by_sha.get(keyed[i]) if i < len(keyed) else None
                if text:
                    items.append((text, self.commit_href(cited) if cited else None))
            if items:
                out.append((self.w[key], items))
        return out

    def by_day(self, repo: WeeklyRepository) -> list[tuple[str, list[WeekCommit]]]:
        days: dict[str, list[WeekCommit]] = {}
        for commit in repo.commits:
            days.setdefault(commit.day, []).append(commit)
        return list(days.items())


def week_zone(week: WeeklyContext) -> ZoneInfo:
    """The week's IANA zone (UTC for a name that is not one)."""
    try:
        return ZoneInfo(week.tz)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _render(
    context: WeeklyContext,
    template: str,
    v: ReportView[T],
    ext: str,
    site_root: str | None = None,
) -> str:
    labels = v.labels
    view = WeekView(v, pick(WEEKLY_STRINGS, context.lang), ext)
    environment = template_environment("commitdigest.render", autoescape=ext == "html")
    text = environment.get_template(template).render(
        ctx=context,
        L=labels,
        s=labels.s,
        w=view.w,
        v=v,
        wk=view,
        Markup=Markup,
        site_root=site_root,
    )
    return text.rstrip("\n") + "\n"


def render_weekly_json(context: WeeklyContext) -> str:
    """The weekly digest's JSON (``<week>.json``): the context itself."""
    return context.model_dump_json(indent=2) + "\n"


def render_weekly_markdown(context: WeeklyContext) -> str:
    """The weekly digest as Markdown, linking to the daily ``.md`` files."""
    labels = get_labels(context.lang)
    zone = week_zone(context)
    return _render(context, "weekly.md.j2", MarkdownView(labels, zone), "md")


def render_weekly_html(context: WeeklyContext, *, site_root: str | None = None) -> str:
    """The weekly digest as one HTML page (no script), linking to the daily ``.html``; in
    the archive site (``site_root``: the way to its root), with its search form."""
    labels = get_labels(context.lang)
    zone = week_zone(context)
    return _render(context, "weekly.html.j2", HtmlView(labels, zone), "html", site_root)
