"""Pictures of a period, drawn at build time: commits per day (or per repository) stacked
by importance, the days with breaking changes marked.

* :func:`chart_html` — an inline SVG for the HTML weekly and the archive's index and
  repository pages: each bar links to its day's report, the picture has a title and a
  description (``aria-labelledby``/``aria-describedby``), each bar's link is named by its
  figures (its SVG ``<title>``), and a table of the same numbers follows for screen
  readers (``class="sr-only"``: the page's stylesheet hides it from the eye). No script;
  colours are SVG presentation attributes (a page's stylesheet may restyle them by class,
  for dark mode), never ``style`` attributes, which a strict Content-Security-Policy
  refuses.
* :func:`email_bars` — the same figures as a small row of table-based bars for the
  e-mail: no image, no SVG, every style inline.

Every word comes from :mod:`commitdigest.i18n`; every number from the reports. Nothing of
a commit's text is drawn; a repository's name (an e-mail column) is escaped like any text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from markupsafe import Markup

from commitdigest.models import (
    IMPORTANCE_ORDER,
    CommitEntry,
    Importance,
    ReportContext,
    WeeklyContext,
)
from commitdigest.render.headline import headline
from commitdigest.render.labels import Labels
from commitdigest.text import shorten_title

__all__ = [
    "COLOURS",
    "ChartDay",
    "breaking_count",
    "chart_html",
    "counted",
    "email_bars",
    "repository_columns",
    "week_days",
]

COLOURS = {Importance.HIGH: "#cf222e", Importance.MEDIUM: "#9a6700", Importance.LOW: "#1a7f37"}
"""Each importance's colour, as the reports draw it (light background)."""

PLOT_HEIGHT = 96  # px of the tallest bar
TOP = 18  # room above the bars for the breaking-change mark
BOTTOM = 20  # room below for the axis labels
LEFT = 30  # room for the scale's top figure
EMAIL_HEIGHT = 48  # px of the tallest bar in the e-mail
EMAIL_COLUMNS = 14  # bars an e-mail shows at most


@dataclass(frozen=True)
class ChartDay:
    """One bar: a day (or, in the e-mail of a day, a repository) and its figures."""

    day: str  # what the bar is: "2026-03-02" (or a repository's name)
    axis: str  # the short label under it: "Mon", "03-02"
    href: str | None = None  # its report (None: no link)
    high: int = 0
    medium: int = 0
    low: int = 0
    breaking: int = 0  # public breaking changes and those a downstream uses
    known: bool = True  # False: no figures for it (no report, or one without its JSON)

    @property
    def total(self) -> int:
        return self.high + self.medium + self.low

    def count(self, importance: Importance) -> int:
        value: int = getattr(self, importance.value)
        return value


def breaking_count(commits: Iterable[CommitEntry]) -> int:
    """The radar's items a reader sees first among ``commits``: those a downstream uses
    and the public breaking ones (``render.headline``)."""
    return headline(commits, lambda c: c.api_changes).public_count


def counted(
    day: str, axis: str, commits: Sequence[CommitEntry], href: str | None = None
) -> ChartDay:
    """The bar of ``commits``: their number by importance and their breaking items."""

    def n(importance: Importance) -> int:
        return sum(1 for c in commits if c.analysis.importance is importance)

    return ChartDay(
        day=day,
        axis=axis,
        href=href,
        high=n(Importance.HIGH),
        medium=n(Importance.MEDIUM),
        low=n(Importance.LOW),
        breaking=breaking_count(commits),
    )


def week_days(
    week: WeeklyContext, weekdays: Sequence[str], href: Callable[[str], str | None]
) -> list[ChartDay]:
    """The seven bars of a week: each day's figures (its commits across the repositories),
    labelled with its weekday, linking to ``href(day)``; a day without a report has
    none."""
    by_day: dict[str, list[CommitEntry]] = {}
    for repo in week.repositories:
        for commit in repo.commits:
            by_day.setdefault(commit.day, []).append(commit.entry)
    out = []
    for day in week.days:
        weekday = weekdays[date.fromisoformat(day.day).weekday()]
        if day.missing:
            out.append(ChartDay(day=day.day, axis=weekday, known=False))
            continue
        out.append(counted(day.day, weekday, by_day.get(day.day, []), href(day.day)))
    return out


def repository_columns(context: ReportContext) -> list[ChartDay]:
    """A day's figures per repository (the bars of a day's e-mail), in report order."""
    return [
        counted(
            repo.name,
            shorten_title(repo.name.rpartition("/")[2] or repo.name, 14, 12),
            repo.commits,
        )
        for repo in context.repositories
        if not repo.error
    ]


def _parts(labels: Labels, counts: ChartDay) -> str:
    s = labels.s
    return s["chart_parts_sep"].join(
        s["chart_part"].format(name=labels.importance_names[imp], n=counts.count(imp))
        for imp in IMPORTANCE_ORDER
    )


def bar_text(labels: Labels, day: ChartDay) -> str:
    """A bar's figures in words (its link's name): ``2026-03-02 — commits: 6 (High 1,
    Medium 2, Low 3); breaking changes: 1``."""
    s = labels.s
    if not day.known:
        return s["chart_no_figures_day"].format(day=day.day)
    text = s["chart_bar"].format(day=day.day, n=day.total, parts=_parts(labels, day))
    if day.breaking:
        text += s["chart_bar_breaking"].format(n=day.breaking)
    return text


def description(labels: Labels, days: Sequence[ChartDay]) -> str:
    """What the whole picture shows, in one sentence."""
    known = [d for d in days if d.known]
    total = ChartDay(
        day="",
        axis="",
        high=sum(d.high for d in known),
        medium=sum(d.medium for d in known),
        low=sum(d.low for d in known),
    )
    return labels.s["chart_desc"].format(
        first=days[0].day if days else "",
        last=days[-1].day if days else "",
        n=total.total,
        parts=_parts(labels, total),
        days=sum(1 for d in known if d.breaking),
    )


def _number(value: float) -> str:
    """A coordinate as short as it can be written (``12``, ``12.5``)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def chart_html(
    days: Sequence[ChartDay], labels: Labels, *, ident: str = "chart", title: str = ""
) -> Markup:
    """``<figure>`` with the SVG bar chart of ``days`` (oldest first) and its table;
    ``ident`` makes the page's ids unique, ``title`` replaces the default caption."""
    s = labels.s
    caption = title or s["chart_title"]
    slot = 40 if len(days) <= 14 else 22
    bar = slot - (10 if slot > 30 else 6)
    width = LEFT + slot * max(len(days), 1) + 4
    height = TOP + PLOT_HEIGHT + BOTTOM
    base = TOP + PLOT_HEIGHT
    top = max((d.total for d in days if d.known), default=0)
    scale = PLOT_HEIGHT / top if top else 0.0
    every = 1 if len(days) <= 14 else 7  # axis labels: each day, or each week's and the last
    out = [
        Markup(
            '<figure class="chart" id="{id}">\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            'viewBox="0 0 {w} {h}" role="group" aria-labelledby="{id}-title" '
            'aria-describedby="{id}-desc">\n'
            '<title id="{id}-title">{caption}</title>\n<desc id="{id}-desc">{desc}</desc>\n'
            '<text class="scale" x="{x}" y="{ty}" text-anchor="end" font-size="11" '
            'fill="currentColor">{top}</text>\n'
            '<line class="axis" x1="{left}" y1="{base}" x2="{w}" y2="{base}" '
            'stroke="currentColor" stroke-opacity="0.4"/>\n'
        ).format(
            id=ident,
            w=width,
            h=height,
            caption=caption,
            desc=description(labels, days),
            x=LEFT - 4,
            ty=TOP + 8,
            top=top,
            left=LEFT,
            base=base,
        )
    ]
    for i, day in enumerate(days):
        x = LEFT + i * slot + (slot - bar) / 2
        out.append(_bar(day, labels, x, bar, base, scale))
        if i % every == 0 or i == len(days) - 1:
            out.append(
                Markup(
                    '<text class="day" x="{x}" y="{y}" text-anchor="middle" '
                    'font-size="11" fill="currentColor"{dim}>{axis}</text>\n'
                ).format(
                    x=_number(x + bar / 2),
                    y=height - 5,
                    dim=Markup(' fill-opacity="0.5"') if not day.known else "",
                    axis=day.axis,
                )
            )
    out.append(Markup("</svg>\n"))
    out.append(_legend(labels, any(d.breaking for d in days if d.known)))
    out.append(_table(days, labels, caption))
    out.append(Markup("</figure>\n"))
    return Markup("").join(out)


def _bar(day: ChartDay, labels: Labels, x: float, bar: int, base: int, scale: float) -> Markup:
    """One day's stacked bar (high at the bottom), its mark, its link."""
    if not day.known:
        return Markup("")
    rects = []
    y = float(base)
    for imp in IMPORTANCE_ORDER:
        n = day.count(imp)
        if not n:
            continue
        h = max(n * scale, 1.5)
        y -= h
        rects.append(
            Markup(
                '<rect class="bar-{imp}" x="{x}" y="{y}" width="{w}" height="{h}" fill="{c}"/>'
            ).format(imp=imp.value, x=_number(x), y=_number(y), w=bar, h=_number(h), c=COLOURS[imp])
        )
    mark = Markup("")
    if day.breaking:
        cx, tip = x + bar / 2, y - 4
        mark = Markup(
            '<path class="breaking" d="M{l} {t}L{r} {t}L{cx} {tip}Z" fill="{c}"/>'
        ).format(
            l=_number(cx - 5),
            r=_number(cx + 5),
            t=_number(tip - 8),
            cx=_number(cx),
            tip=_number(tip),
            c=COLOURS[Importance.HIGH],
        )
    hit = Markup(
        '<rect class="hit" x="{x}" y="{y}" width="{w}" height="{h}" fill="#000" fill-opacity="0"/>'
    ).format(x=_number(x), y=TOP - 14, w=bar, h=base - TOP + 14)
    inner = Markup("<title>{}</title>").format(bar_text(labels, day)) + hit
    inner += Markup("").join(rects) + mark
    if day.href:
        return Markup('<a class="bar" href="{}">{}</a>\n').format(day.href, inner)
    return Markup('<g class="bar">{}</g>\n').format(inner)


def _legend(labels: Labels, breaking: bool) -> Markup:
    """What the colours (and the mark) mean, for the eye; the table says it in numbers."""
    keys = [
        Markup('<span class="key imp-{imp}">■</span> {name}').format(
            imp=imp.value, name=labels.importance_names[imp]
        )
        for imp in IMPORTANCE_ORDER
    ]
    if breaking:
        keys.append(
            Markup('<span class="key imp-high">▼</span> {}').format(labels.s["chart_col_breaking"])
        )
    return Markup('<figcaption class="legend" aria-hidden="true">{}</figcaption>\n').format(
        Markup(" · ").join(keys)
    )


def _table(days: Sequence[ChartDay], labels: Labels, caption: str) -> Markup:
    """The chart's numbers as a table, for screen readers (in a box the page's stylesheet
    shrinks to nothing: a table itself cannot be narrower than its content)."""
    s = labels.s
    head = [s["chart_col_day"], s["chart_col_total"]]
    head += [labels.importance_names[imp] for imp in IMPORTANCE_ORDER]
    head.append(s["chart_col_breaking"])
    rows = []
    for day in days:
        if day.known:
            cells = [day.total, *(day.count(imp) for imp in IMPORTANCE_ORDER), day.breaking]
            row = Markup("").join(Markup("<td>{}</td>").format(c) for c in cells)
        else:
            row = Markup('<td colspan="5">{}</td>').format(s["chart_no_figures"])
        # no link here: the bars have them, and a hidden table takes no keyboard stop
        rows.append(Markup('<tr><th scope="row">{}</th>{}</tr>\n').format(day.day, row))
    return Markup(
        '<div class="sr-only">\n<table>\n<caption>{caption}</caption>\n'
        "<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n</div>\n"
    ).format(
        caption=caption,
        head=Markup("").join(Markup('<th scope="col">{}</th>').format(h) for h in head),
        rows=Markup("").join(rows),
    )


def email_bars(columns: Sequence[ChartDay], labels: Labels, *, title: str = "") -> Markup:
    """The figures as one small row of bars for an e-mail: a table whose cells hold
    coloured blocks (heights in pixels), the total above each bar, its label below and
    ⚠ beside a day with breaking changes; at most :data:`EMAIL_COLUMNS` columns."""
    shown = [c for c in columns if c.known][:EMAIL_COLUMNS]
    if not shown:
        return Markup("")
    top = max(c.total for c in shown) or 1
    text = "color:#1f2328;background-color:#ffffff"
    muted = "color:#59636e;background-color:#ffffff"
    cells = []
    for column in shown:
        blocks = []
        for imp in reversed(IMPORTANCE_ORDER):  # drawn top-down: low first, high at the bottom
            n = column.count(imp)
            if n:
                px = max(round(n * EMAIL_HEIGHT / top), 2)
                blocks.append(
                    Markup(
                        '<div style="height:{px}px;line-height:{px}px;font-size:1px;'
                        'background-color:{c}">&nbsp;</div>'
                    ).format(px=px, c=COLOURS[imp])
                )
        mark = " ⚠" if column.breaking else ""
        cells.append(
            Markup(
                '<td valign="bottom" align="center" title="{tip}" style="padding:0 3px;'
                'vertical-align:bottom;{text}">'
                '<div style="font-size:11px;{text}">{n}</div>'
                '<div style="width:22px;margin:0 auto">{blocks}</div>'
                '<div style="font-size:11px;white-space:nowrap;{muted}">{axis}{mark}</div></td>'
            ).format(
                tip=bar_text(labels, column),
                text=text,
                muted=muted,
                n=column.total,
                blocks=Markup("").join(blocks),
                axis=column.axis,
                mark=mark,
            )
        )
    legend = Markup(" ").join(
        Markup('<span style="color:{c};background-color:#ffffff">■</span> {name}').format(
            c=COLOURS[imp], name=labels.importance_names[imp]
        )
        for imp in IMPORTANCE_ORDER
    )
    return Markup(
        '<p style="margin:8px 0 4px 0;font-size:12px;{muted}">{caption} · {legend}</p>\n'
        '<table role="presentation" cellpadding="0" cellspacing="0" border="0" '
        'style="margin:0 0 12px 0;border-collapse:collapse;{text}"><tr>{cells}</tr></table>\n'
    ).format(
        text=text,
        muted=muted,
        caption=title or labels.s["chart_title"],
        legend=legend,
        cells=Markup("").join(cells),
    )
