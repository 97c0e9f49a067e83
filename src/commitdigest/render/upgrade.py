"""An upgrade's report (``commitdigest upgrade``) as JSON, Markdown and one HTML page.

The Markdown reads like a migration checklist: the verdict line first, then every place of
the user's code a breaking change reaches (``file:line`` — what changed — what to write
instead), the public breaking changes, the deprecations, the releases of the range with
what each announces, internal changes in one line, the files that could not be read and
the range's commits. Commit text and the project's words pass through ``mdtext``; the
HTML page is that Markdown through the safe renderer.
"""

from __future__ import annotations

import json
import re
from fnmatch import fnmatchcase

from commitdigest.i18n import UPGRADE_STRINGS, pick
from commitdigest.models import ApiChange, UpgradeContext
from commitdigest.render.day_index import simple_page
from commitdigest.render.htmltext import SafeMarkdown
from commitdigest.render.labels import get_labels
from commitdigest.render.mdtext import code_span, escape_text

__all__ = ["render_upgrade_html", "render_upgrade_json", "render_upgrade_markdown"]

NAMES_SHOWN = 3
PLACES_SHOWN = 8


def render_upgrade_json(context: UpgradeContext) -> str:
    """The report as pretty JSON (``from`` spelled as such), ending with a newline."""
    data = context.model_dump(mode="json", by_alias=True)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _code(text: str) -> str:
    return code_span(text)


def _text(text: str) -> str:
    return escape_text(" ".join(text.split()), "link")


def _item(item: ApiChange, labels_lang: str) -> str:
    labels = get_labels(labels_lang)
    text = f"**{labels.radar_kind(item)}** {_name(item)}"
    if change := labels.radar_change(item):
        text += f" — {change}"
    if item.detail:
        text += f" ({_code(labels.radar_detail(item))})"
    if item.release:
        text += f" · {_text(item.release)}"
    if item.path:
        text += f" · {_code(item.path + (f':{item.line}' if item.line else ''))}"
    return text


def _name(item: ApiChange) -> str:
    return _text(item.name) if item.kind.value == "announced" else _code(item.name)


def folded(changes: list[ApiChange]) -> set[int]:
    """Indexes of the announcements a code item already says: each name the entry writes
    as code is a changed item of the same weight, and every place it reaches is one of
    theirs (the entry stays in its release and in the JSON)."""
    out: set[int] = set()
    code = [i for i in changes if i.kind.value != "announced"]
    for n, item in enumerate(changes):
        if item.kind.value != "announced" or not item.symbols:
            continue
        same = [c for c in code if c.breaking == item.breaking]
        covered = [c for c in same if any(_says(c.name, s) for s in item.symbols)]
        named = all(any(_says(c.name, s) for c in same) for s in item.symbols)
        places = {(p.path, p.line) for c in covered for p in c.affects}
        if named and all((p.path, p.line) in places for p in item.affects):
            out.add(n)
    return out


def _says(name: str, symbol: str) -> bool:
    """Whether a code item's ``name`` is what an announcement's ``symbol`` names
    (``httpx.*(proxies)`` says ``httpx.Client.__init__(proxies)``; a bare ``verify`` says
    the deprecation kind's ``verify``)."""
    if fnmatchcase(name, symbol):
        return True
    tail = re.split(r"[.(]", symbol.rstrip(")"))[-1]
    return name == tail or name.endswith((f".{tail}", f"({tail})"))


def _shown(context: UpgradeContext) -> list[ApiChange]:
    hidden = folded(context.changes)
    return [i for n, i in enumerate(context.changes) if n not in hidden]


def verdict_line(context: UpgradeContext) -> str:
    """ "⚠️ 4 places in your code break: …" / "No breaking change reaches your code (3
    public changes, none used)" / "No breaking change"."""
    u = pick(UPGRADE_STRINGS, context.lang)
    breaking = [i for i in context.changes if i.breaking]
    if context.verdict == "affected":
        places = {(p.path, p.line) for i in breaking for p in i.affects}
        shown = [i for i in _shown(context) if i.breaking and i.affects]
        code = [i for i in shown if i.kind.value != "announced"]
        used, seen = [], set()
        for item in code or shown:  # the project's words only when no code item says it
            key = (item.name.rsplit(".", 1)[-1], tuple(item.affects))
            if key not in seen:  # ``flask._request_ctx_stack`` and its definition: one
                seen.add(key)
                used.append(item)
        names = u["sep"].join(_name(i) for i in used[:NAMES_SHOWN])
        if len(used) > NAMES_SHOWN:
            names += " " + u["more_names"].format(n=len(used) - NAMES_SHOWN)
        return u["affected" if len(places) != 1 else "n_places_one"].format(
            n=len(places), names=names
        )
    if context.verdict == "breaking":
        return u["breaking"].format(n=sum(1 for i in breaking if i.public))
    return u["safe"]


def checklist(context: UpgradeContext) -> list[tuple[str, list[ApiChange], str]]:
    """One entry per place of the user's code a breaking change reaches: (``path:line``,
    the changes used there — code items before announcements — and what to write instead,
    if the project says)."""
    by_place: dict[tuple[str, int], list[ApiChange]] = {}
    for item in context.changes:
        if not item.breaking:
            continue
        for place in item.affects:
            by_place.setdefault((place.path, place.line), []).append(item)
    out = []
    for (path, line), items in sorted(by_place.items()):
        items.sort(key=lambda i: i.kind.value == "announced")
        instead = next((i.replacement for i in items if i.replacement), "")
        out.append((f"{path}:{line}", items, instead))
    return out


def _instead(lang: str, replacement: str) -> str:
    return _text(get_labels(lang).replacement(replacement))


def render_upgrade_markdown(context: UpgradeContext) -> str:
    u = pick(UPGRADE_STRINGS, context.lang)
    lang = context.lang
    lines = [
        "# "
        + _text(
            u["title"].format(repo=context.repository, old=context.from_.ref, new=context.to.ref)
        ),
        "",
        "> "
        + u["range"].format(
            old_sha=context.from_.sha[:7],
            old_date=context.from_.date.date().isoformat(),
            new_sha=context.to.sha[:7],
            new_date=context.to.date.date().isoformat(),
            commits=u["n_commits_one" if len(context.commits) == 1 else "n_commits"].format(
                n=len(context.commits)
            ),
            releases=", ".join(r.version for r in context.releases) or "—",
        ),
        "",
        f"**{verdict_line(context)}**",
        "",
    ]
    shown = _shown(context)
    breaking = [i for i in shown if i.breaking and (i.public or i.affects)]
    places = checklist(context)
    if places:
        lines += [f"## {u['checklist']}", ""]
        for where, items, instead in places:
            said = _instead(lang, instead) if instead else u["no_replacement"]
            lines.append(f"- [ ] {_code(where)} — {_item(items[0], lang)} — {said}")
            for other in items[1:]:
                tail = other.name.rsplit(".", 1)[-1]
                same = other.kind == items[0].kind and tail == items[0].name.rsplit(".", 1)[-1]
                if not same and any(other is i for i in shown):  # said once, not twice
                    lines.append(f"  - {_item(other, lang)}")
        lines.append("")
    if breaking:
        lines += [f"## {u['changes'].format(n=len(breaking))}", ""]
        for item in breaking:
            extra = f" — {_instead(lang, item.replacement)}" if item.replacement else ""
            lines.append(f"- {_item(item, lang)}{extra}")
        lines.append("")
    deprecated = [i for i in shown if not i.breaking]
    if deprecated:
        lines += [f"## {u['deprecations'].format(n=len(deprecated))}", ""]
        lines += [f"- {_item(i, lang)}" for i in deprecated]
        lines.append("")
        used = [i for i in deprecated if i.affects]
        if used:
            lines += [f"**{u['used_deprecations']}**", ""]
            for item in used:
                at = ", ".join(_code(f"{p.path}:{p.line}") for p in item.affects[:PLACES_SHOWN])
                more = len(item.affects) - PLACES_SHOWN
                if more > 0:
                    at += " " + u["more_names"].format(n=more)
                instead = f" — {_instead(lang, item.replacement)}"
                lines.append(f"- {_name(item)} — {at}{instead if item.replacement else ''}")
            lines.append("")
    internal = [i for i in context.changes if i.breaking and not i.public and not i.affects]
    if internal:
        names = ", ".join(_code(i.name) for i in internal[:NAMES_SHOWN])
        more = len(internal) - NAMES_SHOWN
        lines += [
            f"**{u['internal'].format(n=len(internal))}**: {names}"
            + (f" {u['more_names'].format(n=more)}" if more > 0 else ""),
            "",
        ]
    if context.releases:
        lines += [f"## {u['releases'].format(n=len(context.releases))}", ""]
        for release in context.releases:
            lines += [f"### {_text(release.version)} ({release.date.date().isoformat()})", ""]
            announced = [
                i
                for i in context.changes
                if i.kind.value == "announced" and i.release == release.version
            ]
            if announced:
                lines += [f"- {_item(i, lang)}" for i in announced]
            else:
                lines.append(f"_{u['release_none']}_")
            lines.append("")
    if context.unreadable:
        lines += [f"## {u['unreadable'].format(n=len(context.unreadable))}", ""]
        lines += [f"- {_code(path)}" for path in context.unreadable]
        lines.append("")
    if context.commits:
        labels = get_labels(lang)
        lines += [
            f"## {u['commits'].format(n=len(context.commits))}",
            "",
            f"| {u['col_date']} | {u['col_sha']} | {u['col_importance']} | {u['col_title']} |",
            "|---|---|---|---|",
        ]
        for c in context.commits:
            lines.append(
                f"| {c.date.date().isoformat()} | `{c.sha[:7]}` | {labels.importance(c.importance)}"
                f" | {escape_text(c.title, 'table')} |"
            )
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def render_upgrade_html(context: UpgradeContext) -> str:
    """One self-contained HTML page: the Markdown through the safe renderer."""
    u = pick(UPGRADE_STRINGS, context.lang)
    labels = get_labels(context.lang)
    body = SafeMarkdown().enable("table").render(render_upgrade_markdown(context))
    title = u["title"].format(repo=context.repository, old=context.from_.ref, new=context.to.ref)
    return simple_page(title, labels.s["html_lang"], body)
