"""Render a :class:`ReportContext` as one self-contained HTML page.

The page (``templates/report.html.j2``) holds the Markdown report's content and anchors,
plus a sticky summary bar, client-side filters and a search box. Its CSS and JS
(``templates/report.css``, ``templates/report.js``) are inlined, and a Content-Security-
Policy allows exactly those two (by hash) and nothing else: no fonts, images, scripts or
requests from anywhere.

Jinja2 autoescapes everything; the only markup that is not escaped is the view's
(:class:`~commitdigest.render.view.HtmlView`): analyser text passed through the same
sanitisers as the Markdown report and then rendered by markdown-it-py with raw HTML and
images disabled and links restricted to http(s) (:mod:`commitdigest.render.htmltext`).
Filter data goes into ``data-*`` attributes, never into script text. The same context
gives the same bytes.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from markupsafe import Markup

from commitdigest.models import ReportContext
from commitdigest.render.context import check_anchors
from commitdigest.render.jinja_env import csp_hash, template_environment
from commitdigest.render.labels import get_labels
from commitdigest.render.view import HtmlView, is_calendar_day, report_zone


@cache
def page_assets() -> tuple[str, str]:
    """The page's stylesheet and script, exactly as they are inlined."""
    folder = resources.files("commitdigest.render") / "templates"
    css = (folder / "report.css").read_text(encoding="utf-8")
    js = (folder / "report.js").read_text(encoding="utf-8")
    if "</style" in css.lower() or "</script" in js.lower():  # pragma: no cover
        raise ValueError("an inlined asset would close its own element")
    return css, js


FORM_SELF, FORM_NONE = "'self'", "'none'"


def content_security_policy(css: str, js: str, *, forms: bool = False) -> str:
    """Nothing but the page's own inline style and script; no requests at all (``forms``:
    but the archive's search form, a GET to this site)."""
    return (
        f"default-src 'none'; style-src {csp_hash(css)}; script-src {csp_hash(js)}; "
        f"base-uri 'none'; form-action {FORM_SELF if forms else FORM_NONE}"
    )


def render_html(context: ReportContext, *, site_root: str | None = None) -> str:
    """The HTML report for ``context``: one UTF-8 page with everything inline. In the
    archive site, ``site_root`` is the way to the site's root ("" or "../"): the header
    then has the archive's search form and a link home."""
    labels = get_labels(context.lang)
    check_anchors(context)
    zone = report_zone(context.window)
    css, js = page_assets()
    view = HtmlView(labels, zone)
    text = (
        template_environment("commitdigest.render")
        .get_template("report.html.j2")
        .render(
            ctx=context,
            L=labels,
            s=labels.s,
            v=view,
            is_day=is_calendar_day(context.window, zone),
            css=Markup(css),
            js=Markup(js),
            csp=content_security_policy(css, js, forms=site_root is not None),
            site_root=site_root,
        )
    )
    return text.rstrip("\n") + "\n"
