"""What the authors announce, in their own words.

* A commit message marker: ``feat!:`` / ``type(scope)!:``, ``BREAKING CHANGE:``, "this is a
  breaking change", "can be considered breaking", 破坏性变更, 不兼容变更.
* The entries a commit adds to a changelog (Markdown or reStructuredText; ``changelog``)
  that announce a break, a removal or a deprecation — by the heading they sit under or by
  their own words under any heading. An entry counts once: one already in the file before
  the commit (compared by its plain words, so re-wrapping announces nothing) is not new.
* A release: the commit a version tag points at, or (untagged) the commit that gives a
  changelog version section its release date. It announces every entry of that version's
  section that announces something, however long ago it was written, marked with the
  version (``release``).

Each item's name is the entry's plain text (its bold lead when it has one); what it writes
as code becomes ``symbols`` that a downstream checkout is searched for like code items of
the repository's packages: "The deprecated `proxies` argument has now been removed" in
httpx gives ``httpx.*(proxies)`` (a keyword at any call of the package), "Remove
``soft_unicode``" in markupsafe gives ``markupsafe.soft_unicode``.
"""

from __future__ import annotations

import builtins
import keyword
import re
from bisect import bisect_left
from collections.abc import Callable
from datetime import date
from functools import cache, lru_cache, partial

from commitdigest.analysis.radar.changelog import (
    Edit,
    Entry,
    Section,
    announces,
    announcing,
    both,
    code_spans,
    fragment_entries,
    is_changelog,
    normalise_version,
    numbered_as_git,
    plain_entry,
    plain_text,
    sections,
    shown_text,
    without_past_deprecation,
)
from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_own_python,
    is_test_or_docs,
    is_vendored,
)
from commitdigest.analysis.radar.public import public_surface
from commitdigest.analysis.radar.reads import is_fragment
from commitdigest.facts import ApiChangeType

__all__ = ["change_named", "detect", "entry_item", "is_changelog", "symbols_of"]

_TITLE_BANG = re.compile(r"^(\w+)(?:\(([^)]*)\))?!:\s*(.+)")
# a marker's type or scope that says the commit is the project's own housekeeping
# (litestar's "docs(conf)!: drop update_html_context", "chore(docs)!: update sphinx version")
_HOUSEKEEPING = frozenset({"docs", "doc", "ci", "test", "tests", "style"})
_BODY = re.compile(
    # a footer's value goes on over the lines below it, to a blank line, a bullet or
    # another footer ("Closes #12", "Co-authored-by: …")
    r"^BREAKING[ -]CHANGES?:\s*(.+(?:\n(?![-*+]\s|[\w-]+(?::\s|\s#))[^\n\s][^\n]*)*)$"
    r"|(this is a breaking change|can be considered (?:a )?breaking|破坏性变更|不兼容变更)",
    re.I | re.M,
)
_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d"
    r"|\d(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
    r"|\breleased\b",  # 2022-02-17, Feb 17 2022, 17 Feb 2022, httpx's "28th November, 2024"
    re.I,
)
_STAMP_LINES = re.compile(  # (litestar's ``.. changelog:: 2.24.0`` over ``:date: 2026-06-11``)
    r"^#|^[=\-~^]{3,}|released|^[vV]?\d+\.\d+[^\n]*$|^\*[^*\n]+\*$|^\.\. changelog::|^\s+:date:",
    re.M | re.I,
)
# (an entry of the changelog extension is indented under its version: litestar's
# ``    .. change:: Remove …`` over paragraphs)
_ENTRY_LINES = re.compile(r"^\s*[-*+]\s|^#|^[=\-~^]{3,}|^\S|^\s+\.\. change::", re.M)
_PARAM_WORDS = re.compile(r"\b(?:argument|parameter|keyword|kwarg|option)s?\b", re.I)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_REPLACEMENT = re.compile(r"(?i)use|using|to|by|of|favou?r|with|see|instead")
# what an entry adds beside what goes ("Deprecate ``params.Dependency``, introduce
# ``di.NamedDependency`` and ``params.SkipValidation``"): no symbol of it either
_ADDED = re.compile(r"(?i)add|adds|added|adding|introduces?|introduced|introducing|new")
# where what an entry names before goes from ("Remove `x()` from `starlette.routing`",
# "`foo` in `Client.get()`"): no symbol itself, its other names are (every use of the module
# read as one of the removed function)
_LOCATION = re.compile(r"(?i)from|in|on|inside|within")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _module_like(span: str) -> bool:
    """Whether a code span reads as a module (``werkzeug.wrappers``), not a class or its
    member (``Response.foo``)."""
    return all(part.islower() or part.startswith("_") for part in span.split("."))


def _key(name: str) -> str:
    return re.sub(r"[\W_]+", " ", name).strip().lower()


def detect(view: CommitView) -> list[ApiChange]:
    packages = sorted(public_surface(view.repo).packages) if view.repo is not None else []
    items = [*_message_items(view), *_body_removals(view.body, packages)]
    # the version a date in its changelog gives (pydantic's release commits also carry a
    # "core-v2.43.0" tag of its Rust core), else a tag on it, else a tag it merges
    replaced = cache(lambda: _replaced(view))  # (read once, if a changelog is new)
    dated = _dated_here(view, replaced)
    tags = [] if dated else _release_tags(view, (view.sha,)) or _release_tags(view, view.merged)
    release = dated or (normalise_version(tags[0]) if tags else None)
    after_texts, before_texts = view.after, view.before
    untouched: list[str] = []
    if release and view.repo is not None and tags:  # a release tag on a commit that does not
        # touch its changelog (a version bump, a merge): the changelogs as they are at it
        untouched = [
            p
            for p in view.repo.blobs.paths(view.sha)
            if p not in view.paths and _project_changelog(p, tags)
        ]
        after_texts = {**view.after, **view.repo.texts(view.sha, untouched)}
        before_texts = {**view.before, **{p: after_texts[p] for p in untouched}}
    for path in (*view.paths, *untouched):
        after = after_texts.get(path)
        if not is_changelog(path) or after is None:
            continue
        if not release and not view.touches(path, _ENTRY_LINES):
            continue  # no entry and no heading changed: nothing new to announce
        before = _compared_with(before_texts.get(path), replaced, view, path)
        edit = _edit(view, path)
        old_sections, new_sections = both(before, after, edit)
        prior = {s.title: s for s in old_sections}
        titles = {s.title for s in new_sections}
        gone = _all_written([s for s in old_sections if s.title not in titles])  # (no longer here)
        seen: set[str] = set()
        released = next((s for s in new_sections if release and s.version == release), None)
        if path in untouched and (released is None or _DATE.search(_stamp(released))):
            continue  # not this version's, or dated: the commit that dated it released it
        added = sorted(edit[1]) if edit is not None and numbered_as_git(after) else None
        latest = cache(partial(_latest_date, old_sections))  # (read once, if asked)
        for at, section in enumerate(new_sections):
            in_release = section is released
            if not in_release and added is not None and not _adds_to(section, added):
                continue  # the commit adds no line to it: nothing new in it
            if not in_release and _long_released(section, latest):
                continue  # history corrected: what it says was released long ago
            old_section = prior.get(section.title)
            if old_section is None and at < len(old_sections):  # the section in its place,
                # retitled (Sphinx's "Retarget to Sphinx 9.0": "Release 8.3.0 (in
                # development)" became "Release 9.0.0 …", and an entry's "pre-8.3" "pre-9.0")
                old_section = old_sections[at] if old_sections[at].title not in titles else None
            if not in_release and old_section is not None and old_section.body == section.body:
                continue  # the section reads as before: nothing new in it
            written = _written(old_section) if old_section is not None else frozenset()
            for entry in section.entries:
                if entry.text in written and not in_release:
                    continue  # the same words as before: nothing new (the cheap test first)
                found = announces(entry)
                if found is None:
                    continue
                key = _key(plain_entry(entry.text))
                if not key or key in seen:
                    continue
                if not in_release and (
                    key in _keys(written)
                    or (len(key) >= 20 and _was_written(key, before))
                    # (a short one a section gone had: Sphinx's "Add titles to version-specific
                    # changes files" put "Sphinx 1.0" over each old file, and its "Python",
                    # "C" … came under a new title, 36 times; one a section still there has
                    # is written again)
                    or (len(key) < 20 and bool(gone) and key in _keys(gone))
                    # (an entry still there was not edited into this one)
                    or _edited(entry.text, key, written - _written(section))
                ):
                    continue  # re-worded or re-wrapped, or moved from another section
                seen.add(key)
                items.append(
                    entry_item(path, entry, found, packages, (release or "") if in_release else "")
                )
    items = _one_copy(items)
    items += _fragment_items(view, packages)
    return items


def _one_copy(items: list[ApiChange]) -> list[ApiChange]:
    """``items`` without the entries a docs copy of a changelog repeats from the changelog
    itself in the same commit (Celery writes each release's list into ``Changelog.rst``
    and ``docs/history/changelog-5.6.rst``: every entry was announced twice)."""
    kept = {(i.name, i.change, i.release) for i in items if not is_test_or_docs(i.path or "")}
    return [
        i
        for i in items
        if not is_test_or_docs(i.path or "") or (i.name, i.change, i.release) not in kept
    ]


def _fragment_items(view: CommitView, packages: list[str]) -> list[ApiChange]:
    """What the news fragments the commit adds or edits announce (``changelog/14434.
    deprecation.rst``: "The ``--pastebin`` option is now deprecated."): on the day they are
    written, as a changelog's new entries are; the release that gathers them announces them
    again from its changelog."""
    fragments = [p for p in view.paths if is_fragment(p)]
    if not fragments:
        return []
    items: list[ApiChange] = []
    # what the fragments it deletes said: a fragment moved or renamed is no news (SQLAlchemy
    # moves unreleased_21/10662.rst to unreleased_20/ when it backports a change)
    gone = {
        _key(plain_entry(e.text))
        for path in fragments
        if view.after.get(path) is None
        for e in fragment_entries(
            path, _linked(view, path, view.before.get(path), view.parent) or ""
        )
    }
    told: set[str] = set()  # what a fragment of the commit already announced (links last)
    for path in sorted(fragments, key=lambda p: _link_target(view.after.get(p)) is not None):
        after = _linked(view, path, view.after.get(path), view.sha)
        if after is None or is_vendored(path):
            continue
        if _NOT_THE_PROJECTS.intersection(path.split("/")[:-1]):
            continue
        before = _linked(view, path, view.before.get(path), view.parent)
        old = fragment_entries(path, before) if before else []
        entries = fragment_entries(path, after)
        if len(old) == len(entries) == 1 and announces(old[0]) is not None:
            continue  # its one entry edited (pytest's 14004.deprecation.rst got a sentence
            # and more code two days after it was written): announced when written
        was = frozenset(e.text for e in old)
        had = set(_keys(was))
        for entry in entries:
            found = announces(entry)
            key = _key(plain_entry(entry.text))
            if found is None or not key or key in had or key in gone or key in told:
                continue  # no news, moved, or said by another fragment of the commit
            if _edited(entry.text, key, was):
                continue  # the fragment only re-worded
            had.add(key)
            told.add(key)
            items.append(entry_item(path, entry, found, packages, ""))
    return items


def _link_target(text: str | None) -> str | None:
    """The file name a symbolic link's text is (one word, no folder), if it is one."""
    target = (text or "").strip()
    if not target or "/" in target or any(c.isspace() for c in target):
        return None
    return target


def _linked(view: CommitView, path: str, text: str | None, rev: str | None) -> str | None:
    """A fragment's text, or, for a link to a fragment beside it (its text is the target's
    name: aiohttp links ``CHANGES/7319.breaking.rst`` to ``7319.feature.rst``), the
    target's text, read under the link's own type."""
    target = _link_target(text)
    if text is None or target is None or view.repo is None or not rev:
        return text
    folder = path.rpartition("/")[0]
    beside = f"{folder}/{target}" if folder else target
    return (view.repo.text(rev, beside) or text) if is_fragment(beside) else text


def _compared_with(
    before: str | None, replaced: Callable[[], str], view: CommitView, path: str
) -> str:
    """What a changelog's new text is compared with, entries and dated sections: its text
    before the commit; for a new changelog, or one that only included another (uvicorn's
    ``--8<-- "CHANGELOG.md"``), also what the commit's changelogs said before
    (``replaced()``, :func:`_replaced`): what one the commit deletes said is not news; for
    another, also what the changelogs the commit deletes or renames in its folder said
    (aiohttp's "Merge HISTORY into CHANGES" appended ``HISTORY.rst``'s 2,300 lines to
    ``CHANGES.rst`` and deleted it: a hundred entries back to 2016 read as news; another
    package's deleted changelog is not this one's history). Its own sections come last,
    where they win."""
    if before is None or _no_entries(before):
        return f"{replaced()}\n\n{before or ''}"
    gone = [
        text
        for gone_path, text in view.before.items()
        if text
        and gone_path in view.after
        and view.after[gone_path] is None
        and is_changelog(gone_path)
        and gone_path.rpartition("/")[0] == path.rpartition("/")[0]
    ]
    return "\n\n".join([*gone, before]) if gone else before


def _no_entries(text: str) -> bool:
    """Whether a short changelog text holds no version and no entry (a title, an include
    line, a pointer to another file)."""
    return len(text) < 2000 and not any(s.entries or s.version for s in sections(text))


def _replaced(view: CommitView) -> str:
    """The changelogs there were before the commit, together (those it touches, deletes or
    renames, then a few it keeps): what a new one copies from them announces nothing
    (click's "Move changes to markdown" rewrote ``CHANGES.rst`` as ``CHANGES.md``, and 40
    entries back to Click 2.0 read as news; uv's "Archive the 0.10.x changelog" moved them
    to ``changelogs/0.10.x.md``: 16, and dated 0.10.x sections read as a release)."""
    texts = [  # (every one it touches: one it edits down to a pointer, "See
        # docs/release-notes.md", or moves a series out of, uv's "Archive the 0.10.x
        # changelog" into changelogs/0.10.x.md)
        text
        for path, text in view.before.items()
        if text and is_changelog(path)
    ]
    if view.repo is not None and view.parent:
        kept = [
            p
            for p in view.repo.blobs.paths(view.parent)
            if p not in view.paths and is_changelog(p) and not is_vendored(p)
        ]
        texts += [t for t in view.repo.texts(view.parent, kept[:_KEPT_READ]).values() if t]
    return "\n\n".join(texts)


_KEPT_READ = 8  # changelogs the commit keeps, read beside a new one (a monorepo has many)


_TEXT_SUFFIXES = (".md", ".rst", ".txt", ".markdown")  # a changelog with a dot in its name
_NOT_THE_PROJECTS = frozenset({"tests", "test", "testing", "examples", "node_modules"})


def _project_changelog(path: str, tags: list[str]) -> bool:
    """Whether ``path`` is a changelog of the project that the release ``tags`` (on the
    commit) name: a text file, not another project's copy nor a test's or an example's;
    in a monorepo whose tags name a package (``create-vite@9.0.7``), one under a folder of
    that name."""
    folders, _, name = path.rpartition("/")
    parts = folders.split("/") if folders else []
    if not is_changelog(path) or is_vendored(path) or _NOT_THE_PROJECTS.intersection(parts):
        return False
    if "." in name and not name.lower().endswith(_TEXT_SUFFIXES):
        return False  # history.py, news.py: code
    packages = {t.rpartition("@")[0].lstrip("@") for t in tags if "@" in t.lstrip("@")}
    return not packages or any(p.rpartition("/")[2] in parts for p in packages)


def _edit(view: CommitView, path: str) -> Edit | None:
    """The lines the commit changes in the changelog (from its diff), when its text before
    the commit is known too: a long changelog is then not read whole again."""
    return view.numbers.get(path) if view.before.get(path) is not None else None


def _adds_to(section: Section, added: list[int]) -> bool:
    """Whether any of the (sorted, 1-based) ``added`` lines is the section's heading or one
    of its lines."""
    at = bisect_left(added, section.line)
    return at < len(added) and added[at] <= section.end


def _written(section: Section) -> frozenset[str]:
    """A section's entries exactly as written."""
    return frozenset(e.text for e in section.entries)


def _all_written(sections: list[Section]) -> frozenset[str]:
    """Every entry of ``sections`` exactly as written."""
    return frozenset(e.text for s in sections for e in s.entries)


@lru_cache(maxsize=64)
def _keys(written: frozenset[str]) -> frozenset[str]:
    """The keys of entries as written (a re-worded entry keeps its key)."""
    return frozenset(_key(plain_entry(text)) for text in written)


REWORDED = 0.75  # the share of its words an entry keeps when it is only re-worded
_REFERENCE = re.compile(r"(?<![\w&])#\d+\b")  # an issue or pull request: #5272


def _edited(text: str, key: str, gone: frozenset[str]) -> bool:
    """Whether the entry ``text`` (its words ``key``) is one of ``gone`` (its section's
    entries before the commit that are not there after it) edited, not news: it writes the
    code, or less of it, and either most of its words are that entry's, or it names the same issues
    or pull requests and half its words are that entry's or it writes code. In vllm-ascend's
    release notes long out, "torch-npu" became "TorchNPU", "quantinized" "quantized", and
    "`VLLM_ASCEND_ENABLE_DENSE_OPTIMIZE` is removed and … is recommend to replace … #5272"
    "… has been removed. … is recommended as a replacement … #5272": each opened a report
    as breaking news. An entry that writes more code ("Remove `old_api` and `older_api`")
    is news; so is a short one re-worded (five words or fewer must be the same)."""
    if not gone:
        return False
    words, refs, spans = _marks(text, key)
    for old in gone:
        old_words, old_refs, old_spans = _marks(old)
        if not spans <= old_spans:
            continue  # it writes code the entry did not (news); less is an edit (Sphinx's
            # "#13637: Deprecate `set_application`" lost its sentence on `config`, `env`)
        if spans != old_spans and change_named(text) is not change_named(old):
            continue  # less code, and another change: "Deprecate `a` and `b`" made
            # "Remove `a`" is news
        shared = len(words & old_words) / max(len(words | old_words), 1)
        if refs and old_refs == refs and (spans or shared >= 0.5):
            return True
        if len(words) >= 5 and len(old_words) >= 5 and shared >= REWORDED:
            return True
    return False


@lru_cache(maxsize=1024)
def _marks(text: str, key: str = "") -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """An entry's words, the issues and pull requests it names, and the code it writes."""
    words = frozenset((key or _key(plain_entry(text))).split())
    refs = frozenset(_REFERENCE.findall(text)) if "#" in text else frozenset()
    return words, refs, frozenset(code_spans(text))


def _was_written(key: str, text: str | None) -> bool:
    """Whether the entry's words ``key`` are in the changelog's text before the commit
    (:func:`_text_key`). The text's key is made only where every number the entry names
    is in the text as written (a new entry names a new pull request: the key cost 14 ms
    for vllm-ascend's release notes, made for most of its entries; a word is not looked
    for, which the markup ``plain_text`` takes out of it may split: ``created__gte``)."""
    if not text:
        return False
    numbers = {word for word in key.split() if word.isdigit()}
    return all(number in text for number in numbers) and key in _text_key(text)


@lru_cache(maxsize=32)
def _text_key(text: str) -> str:
    """A changelog's whole text as a key: an entry re-wrapped into new lines, or moved from
    another section, was there before too. Made paragraph by paragraph, each kept for the
    next version of the file, which changes few of them (Scrapy's 400 KB ``news.rst``,
    touched by 29 commits in five months: its key cost 0.06 s each time, half the radar)."""
    return " ".join(key for paragraph in text.split("\n\n") if (key := _paragraph_key(paragraph)))


@lru_cache(maxsize=16384)
def _paragraph_key(paragraph: str) -> str:
    return _key(plain_text(paragraph))


NAME_LIMIT = 400  # an entry's words, cut at a word with "…" past this


def entry_item(
    path: str,
    entry: Entry,
    found: tuple[ApiChangeType | None, bool],
    packages: list[str],
    release: str,
) -> ApiChange:
    change, breaking = found
    name = shown_text(plain_entry(entry.text))
    return ApiChange(
        kind=RadarKind.ANNOUNCED,
        change=change or change_named(entry.text, breaking=breaking, under=entry.under),
        name=name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1].rsplit(" ", 1)[0] + "…",
        breaking=breaking,
        path=path,
        line=entry.line,
        release=release,
        symbols=symbols_of(entry.text, packages),
    )


# a sentence of a commit message that says a name written as code is gone: "The former
# top-level `enable_x` option has also been removed" (passive only: "removes `x` from y"
# describes what the code does, not what users lose)
_GONE = re.compile(
    r"`[^`\n]+`[^.;:\n]*?\b(?:has|have|had|is|are|was|were)\s+(?:\w+\s+){0,2}?"
    r"(?:been\s+)?(?:removed|dropped|deleted)\b",
    re.I,
)

_GONE_WORDS = ("removed", "dropped", "deleted")  # what every _GONE match holds


# what users set or pass: a removal of one of these is theirs to act on
_USER_FACING = re.compile(
    r"\b(?:options?|arguments?|parameters?|config(?:uration)?s?|settings?|flags?|fields?|"
    r"keys?|environment variables?|env vars?|public API)\b",
    re.I,
)
_SETTING = re.compile(r"--?[A-Za-z][\w-]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+")  # a flag, an env var
# a removal the sentence only supposes, undoes, or tells as a bug now fixed ("`is_eager` was
# silently dropped for arguments; now forwarded": huggingface_hub's new CLI framework)
_NOT_SAID = re.compile(
    r"^(?:restor|revert)|\b(?:if|unless|when|accidentally)\b"
    r"|\bsilently\s+(?:dropped|ignored|discarded|lost)\b"
    r"|\bnow\s+(?:correctly\s+|properly\s+)?"
    r"(?:forwarded|passed|kept|respected|honou?red|preserved|propagated|applied)\b",
    re.I,
)


def _body_removals(body: str, packages: list[str]) -> list[ApiChange]:
    """What a commit message's own sentences say is removed, as announced items (the
    names it writes as code are their symbols)."""
    if "`" not in body:
        return []  # no name written as code
    low = body.lower()  # (the words first: a case-blind regex over a long body is slow)
    if not any(word in low for word in _GONE_WORDS):
        return []  # no sentence can say it is gone
    items: list[ApiChange] = []
    for paragraph in _prose(body):
        for sentence in re.split(r"(?<=[.!?。])\s+", paragraph):
            if len(sentence) > NAME_LIMIT or "|" in sentence or not _GONE.search(sentence):
                continue  # too long for a sentence, or a (wrapped) table's row
            symbols = symbols_of(sentence, packages)
            user = _USER_FACING.search(sentence) or any(_SETTING.fullmatch(s) for s in symbols)
            if not symbols or not user or _NOT_SAID.search(sentence):
                continue  # an internal helper, or a removal the sentence only supposes
            items.append(
                ApiChange(
                    kind=RadarKind.ANNOUNCED,
                    change=ApiChangeType.REMOVED,
                    name=sentence,
                    symbols=symbols,
                )
            )
    return items


def _prose(body: str) -> list[str]:
    """A message's paragraphs of prose, each on one line: no code blocks, tables or
    headings (a bullet starts a paragraph of its own)."""
    out: list[str] = []
    current: list[str] = []
    fenced = False
    for line in [*body.splitlines(), ""]:
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        table = stripped.startswith("|") or stripped.count(" | ") >= 2
        prose = stripped and not fenced and not table and not stripped.startswith(("#", ">"))
        if not prose or re.match(r"[-*+]\s|\d+[.)]\s", stripped):
            if current:
                out.append(" ".join(current))
            current = [stripped] if prose else []
            continue
        current.append(stripped)
    return out


def _message_items(view: CommitView) -> list[ApiChange]:
    items: list[ApiChange] = []
    m = _TITLE_BANG.match(view.title)
    if m and not _housekeeping(m.group(1), m.group(2) or "", view.paths):
        items.append(
            ApiChange(
                kind=RadarKind.ANNOUNCED, change=change_named(m.group(3)), name=m.group(3).strip()
            )
        )
    low = view.body.lower()  # the words first: the regex alone is slow on long bodies
    said = "breaking" in low or "破坏性变更" in low or "不兼容变更" in low
    for bm in _BODY.finditer(view.body) if said else ():
        what = " ".join((bm.group(1) or view.title).split())  # (a footer's lines, one text)
        items.append(ApiChange(kind=RadarKind.ANNOUNCED, change=change_named(what), name=what))
    return items


def _housekeeping(kind: str, scope: str, paths: tuple[str, ...]) -> bool:
    """Whether a ``type(scope)!:`` marker is on the project's own housekeeping: its type or
    a word of its scope is docs, CI, tests or style, and the commit touches no module of the
    code users get (litestar's five "docs(conf)!:" commits of a day changed ``docs/conf.py``;
    "docs!: remove the deprecated `render` helper" that deletes ``pkg/render.py`` breaks)."""
    words = {kind.lower(), *(w.lower() for w in re.split(r"[\s,/|]+", scope) if w)}
    return not words.isdisjoint(_HOUSEKEEPING) and not any(is_own_python(p) for p in paths)


def _release_tags(view: CommitView, commits: tuple[str, ...]) -> list[str]:
    """The version tags on ``commits``: the commit itself, or those it merges (a release
    tagged on a branch comes into the first-parent history there: click's 8.2.0); not a
    development tag (pytest tags ``9.2.0.dev0`` where 9.2 starts)."""
    if view.repo is None:
        return []
    tags = view.repo.tags
    return [
        t
        for sha in commits
        for t in tags.get(sha, [])
        if (version := normalise_version(t)) and "dev" not in version
    ]


def _dated_here(view: CommitView, replaced: Callable[[], str]) -> str | None:
    """The version a commit releases by its changelog: a version section that gets its
    release date (or "Released" line) in it; not one that had a date before (pydantic's
    "Fix CI release job" moved "v2.13.0b1 (2026-02-21)" to "(2026-02-23)" after "Prepare
    release" had dated it). ``replaced()``: the changelogs before the commit
    (:func:`_replaced`), what a new one is compared with."""
    for path in view.paths:
        after = view.after.get(path)
        if not is_changelog(path) or after is None or not view.touches(path, _STAMP_LINES):
            continue
        before = _compared_with(view.before.get(path), replaced, view, path)
        old_sections, new_sections = both(before, after, _edit(view, path))
        newest = new_sections[:3]
        wanted = {s.version for s in newest if s.version}
        old = {s.version: _stamp(s) for s in old_sections if s.version in wanted}
        for section in newest:
            if not section.version:
                continue
            stamp, was = _stamp(section), old.get(section.version, "")
            if was != stamp and _dated(stamp) and not _dated(was):
                return section.version
    return None


def _dated(stamp: str) -> bool:
    """Whether a version heading (and the line under it) gives a release date."""
    return _DATE.search(stamp) is not None and not _NOT_YET.search(stamp)


# a date a version heading gives that is not its release's: "Unreleased", "(expected
# 2026-09-01)", Django's "*Expected August 2024*", "planned for …"
_NOT_YET = re.compile(r"unreleased|未发布|expected|planned|under\s+development|upcoming", re.I)


# the line under a version's title that says when: "Released 2022-02-17", "Unreleased",
# ``:released: June 27, 2026`` (litestar's ``:date: 2026-06-11``), Django's "*August 7, 2024*"
# (and "*Expected August 2024*")
_UNDER_TITLE = re.compile(r":?(?:un)?released|:date:|\*[^*]+\*$", re.I)


# a release date as changelogs write it: 2024-11-18, November 18, 2024, 18 Nov 2024
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_NAMED_DATE = re.compile(
    r"\b(?:(?P<m1>[a-z]{3})[a-z]*\.?\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y1>\d{4})"
    r"|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m2>[a-z]{3})[a-z]*\.?,?\s+(?P<y2>\d{4}))\b",
    re.I,
)
HISTORY_DAYS = 90  # a section released this long before the newest is history


def _section_date(section: Section) -> date | None:
    """The release date a version section's heading or the line under it gives (not one
    it expects)."""
    stamp = _stamp(section)
    if _NOT_YET.search(stamp):
        return None
    try:
        if (m := _ISO_DATE.search(stamp)) is not None:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if (m := _NAMED_DATE.search(stamp)) is not None:
            month = (m.group("m1") or m.group("m2")).lower()
            if month in _MONTHS:
                day, year = m.group("d1") or m.group("d2"), m.group("y1") or m.group("y2")
                return date(int(year), _MONTHS.index(month) + 1, int(day))
    except ValueError:
        return None  # (no such day: 2024-02-31)
    return None


def _latest_date(sections: list[Section]) -> date | None:
    """The latest release date of a changelog's version sections (before the commit)."""
    dates = [d for s in sections if s.version and (d := _section_date(s)) is not None]
    return max(dates, default=None)


def _long_released(section: Section, latest: Callable[[], date | None]) -> bool:
    """Whether ``section`` is a version released more than :data:`HISTORY_DAYS` before the
    latest release its changelog already dated (``latest()``): an entry added to it
    corrects the history (Scrapy added "``scrapy.utils.misc.md5sum()`` is now deprecated"
    to 2.12.0's section of 2024 in the commit that removed it, in 2026: no deprecation of
    the day). A section of a maintenance release written after a newer series' release
    (SQLAlchemy's 2.0.52 beside 2.1) is days apart, and news."""
    if not section.version:
        return False
    when = _section_date(section)
    if when is None:
        return False
    newest = latest()
    return newest is not None and (newest - when).days > HISTORY_DAYS


def _stamp(section: Section) -> str:
    """A version heading and the line under it ("Released 2022-02-17", "Unreleased")."""
    lines = section.lines
    following = [
        line.strip()
        for line in lines[section.line : section.line + 4]
        if line.strip()
        and not set(line.strip()) <= set("=-~^*+#")
        and not line.lstrip().startswith(":version:")  # (a ``.. changelog::`` directive's
    ]  # options: ``:released: June 27, 2026`` under its ``:version:``)
    under = following[0] if following and _UNDER_TITLE.match(following[0]) else ""
    if under.startswith(":") and not under.split(":", 2)[-1].strip():
        under = ""  # an empty ``:released:`` (SQLAlchemy's old changelogs): no date
    return f"{section.title} {under}".strip()


def symbols_of(entry: str, packages: list[str]) -> list[str]:
    """The code an entry writes about what goes, as a downstream would use it: ``pkg.name``
    for a name, ``pkg.*(name)`` for an argument (the entry calls it one, or writes
    ``name=``), flags and environment variables as written. What it offers instead ("use
    ``soft_str`` instead", "in favour of `x`", "renamed to `y`") is not a symbol of it, nor
    where a name it wrote before goes from ("from `starlette.routing`")."""
    out: list[str] = []
    words = plain_text(entry)
    place: str | None = None  # the last span that says where from, for a list of them
    added: str | None = None  # the last span it adds, for a list of them
    said = announcing(entry)
    for at, span in enumerate(code_spans(said)):
        runs = _quoted_runs(words, span)
        before = _word_before(words, runs) or _role_word(said, span)
        after = _word_after(words, runs)
        if before is not None and _REPLACEMENT.fullmatch(before):
            continue
        if (before is not None and _ADDED.fullmatch(before)) or (
            added is not None and _listed_after(words, runs, added, ",")
        ):
            added = span
            continue
        added = None
        if re.fullmatch(r"--?[A-Za-z][\w-]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+", span):
            out.append(span)  # a flag, an environment variable
            continue
        if at and (
            (before is not None and _LOCATION.fullmatch(before))
            or (
                place is not None
                and _listed_after(words, runs, place, ",/")
                and _module_like(span) == _module_like(place)
                and not (
                    after is not None and (_LOCATION.fullmatch(after) or _PARAM_WORDS.match(after))
                )
            )
        ):  # where from: "from `HTTPConnection`, `HTTPSConnection` and `HTTPResponse`" (not
            # "from `Client`, `app` from …", which says what goes again)
            place = span
            continue
        place = None
        near = " ".join(word for word in (before, after) if word is not None)
        if (param := re.fullmatch(r"([A-Za-z_]\w*)\s*=.*", span)) is not None:
            out.extend(f"{p}.*({param.group(1)})" for p in packages)
        elif _DOTTED.fullmatch(span.removesuffix("()")):
            dotted = span.removesuffix("()")
            if dotted.split(".")[0] in packages:
                out.append(dotted)
            elif dotted[0].isupper() or re.fullmatch(r"[a-z]\w*\.[A-Z]\w*", dotted):
                # `URL.raw`: a class of the package and its member; `params.Dependency`:
                # a module of the package and its class, as litestar writes them (not
                # SQLAlchemy's reference prefixes, ``_sql.CompoundSelect``)
                out.extend(f"{p}.{dotted}" for p in packages)
        elif _IDENT.fullmatch(span.removesuffix("()")) and not span.isdigit():
            name = span.removesuffix("()")
            if keyword.iskeyword(name):
                continue  # a value (``False``, ``None``): no name downstream code can use
            if name in _BUILTIN_CLASSES and not _PARAM_WORDS.search(near):
                continue  # Python's own warnings and exceptions (xarray's "switches to using
                # ``FutureWarning``" named ``xarray.FutureWarning``; a project's ``open()``
                # is its own)
            if _PARAM_WORDS.search(near):
                out.extend(f"{p}.*({name})" for p in packages)
            else:
                out.extend(f"{p}.{name}" for p in packages)
    return list(dict.fromkeys(out))


# Where an entry writes a span as code, found by string search and precompiled patterns,
# not by a pattern made for each span: Scrapy's entries compiled four a span, a tenth of
# its window's scan (Python keeps 512 compiled patterns; each span's were new).
_WORD_BEFORE = re.compile(r"(\w+)\s+\Z")  # the word before a position (searched to it)
_WORD_AFTER = re.compile(r"\s+(\w+)")  # the word after a position
_ROLE_BEFORE = re.compile(r"(\w+)\s+:[\w:]+:`[^`<]*\Z")  # ":data:`text <" before a target


def _quoted_runs(words: str, span: str) -> list[tuple[int, int, int]]:
    """Where ``words`` writes ``span`` between backticks (as the pattern ```+span`+``
    finds it): each place's start (its first backtick), the span's start, and its end
    (after its last backtick)."""
    runs: list[tuple[int, int, int]] = []
    at = words.find(span)
    while at >= 0 and span:
        end = at + len(span)
        if at and words[at - 1] == "`" and end < len(words) and words[end] == "`":
            start = at - 1
            while start and words[start - 1] == "`":
                start -= 1
            stop = end + 1
            while stop < len(words) and words[stop] == "`":
                stop += 1
            runs.append((start, at, stop))
        at = words.find(span, at + 1)
    return runs


def _word_before(words: str, runs: list[tuple[int, int, int]]) -> str | None:
    """The word before the first of ``runs`` that has one before it, blanks between."""
    for start, _, _ in runs:
        if (m := _WORD_BEFORE.search(words, 0, start)) is not None:
            return m.group(1)
    return None


def _word_after(words: str, runs: list[tuple[int, int, int]]) -> str | None:
    """The word after the first of ``runs`` that has one after it, blanks between."""
    for _, _, stop in runs:
        if (m := _WORD_AFTER.match(words, stop)) is not None:
            return m.group(1)
    return None


def _role_word(said: str, span: str) -> str | None:
    """The word before a role whose target is ``span`` (":data:`di.NamedDependency
    <litestar.di.NamedDependency>`")."""
    target = f"<{span}>`"
    at = said.find(target)
    while at >= 0:
        if (m := _ROLE_BEFORE.search(said, 0, at)) is not None:
            return m.group(1)
        at = said.find(target, at + 1)
    return None


def _back_over(words: str, at: int, gaps: str) -> int:
    """Where the run of ``gaps`` characters and blanks that ends at ``at`` starts."""
    while at and (words[at - 1] in gaps or words[at - 1].isspace()):
        at -= 1
    return at


def _listed_after(words: str, runs: list[tuple[int, int, int]], previous: str, gaps: str) -> bool:
    """Whether one of ``runs`` follows ``previous`` written as code, with only ``gaps``
    characters and blanks between (and an "and" or "or"): the next of a list. (Two spans
    with nothing between share their backticks: ```a``b``` is `a` and `b`.)"""
    for start, at, _ in runs:
        ends = [_back_over(words, start, gaps)]
        if at - start >= 2:  # (backticks shared: ``previous`` ends where they start)
            ends.append(at - 1)
        tail = _back_over(words, start, "")  # "and"/"or", blanks after it, the gap before
        if tail < start:
            for word in ("and", "or"):
                if words.endswith(word, 0, tail):
                    ends.append(_back_over(words, tail - len(word), gaps))
        for end in ends:
            code = end
            while code and words[code - 1] == "`":
                code -= 1
            if (
                code < end
                and words.endswith(previous, 0, code)
                and code - len(previous) > 0
                and words[code - len(previous) - 1] == "`"
            ):
                return True
    return False


_BUILTIN_CLASSES = frozenset(  # Python's own warnings and exceptions
    n for n in dir(builtins) if n.endswith(("Warning", "Error", "Exception"))
)


_CHANGE_WORDS = (
    (re.compile(r"\b(?:remov|drop|delet)|移除|删除", re.I), ApiChangeType.REMOVED),
    (re.compile(r"\brenam|重命名", re.I), ApiChangeType.RENAMED),
    (re.compile(r"\bdeprecat|弃用|废弃", re.I), ApiChangeType.DEPRECATED),
    (re.compile(r"\bdefault|默认", re.I), ApiChangeType.DEFAULT_CHANGED),
    (
        re.compile(
            r"\b(?:minimum|bump|upgrade)\b.*\d|\brequires?\s+(?:python|version|\d)"
            r"|\bminimum\s+(?:\w+\s+)?versions?\b"
            r"|(?:python|version)\s*(?:>=|≥)|最低版本|版本要求"
            # what the project installs with itself ("NumPy is now a required dependency")
            r"|\b(?:required|mandatory|hard|optional)\s+dependenc(?:y|ies)\b",
            re.I,
        ),
        ApiChangeType.VERSION_CHANGED,
    ),
)


_LEAD = re.compile(r"^\W*(?:[\w-]+\W+){0,3}")  # an entry's first four words
# what is a name, not a word: code, snake_case, CamelCase ("DefaultRunner and subclasses
# have been removed", "``default_factory`` has been removed": no default changed)
_NAMES = re.compile(
    r"``[^`]+``|`[^`]+`|(?<![A-Za-z0-9_])[A-Za-z0-9]*_[A-Za-z0-9_]*"
    r"|\b[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9_]*"
)  # (ASCII names only: a Chinese word beside one, "移除参数foo_bar", stays)
# words that say a default changes, not only that there is one ("the default limit of 128")
_DEFAULT_CHANGE = re.compile(
    r"\bby\s+default\b|\bdefault\s+(?:value|behaviou?r)s?\b"
    r"|\bdefaults?\s+(?:is|are|was|were|has|have|to|changed|now)\b"
    r"|\bchang\w*\s+(?:the\s+|its\s+)?default|默认",
    re.I,
)
_DEPRECATED = ApiChangeType.DEPRECATED
# deprecations done with ("Finished deprecations (changed behavior with this release):"), not
# new ones ("New deprecations (behavior will be changed in xarray 0.12):")
_FINISHED = re.compile(
    r"\b(?:finish|finaliz|expir|complet|remov)\w*|\bchanged\s+behaviou?r\b", re.I
)


def change_named(text: str, *, breaking: bool = False, under: str = "") -> ApiChangeType:
    """How an announced change is described by its own words (else: a signature change):
    what its first words say it does first ("Change the default value for ``chunk`` … and
    remove special mapping …"). A breaking one is a deprecation only when its words say no
    other change (xarray's "Xarray will no longer by default decode … This finalizes the
    deprecation cycle": a default changed; marshmallow's "*Backwards-incompatible*:
    ``__version__`` … attributes are deprecated" deprecates). An item of a list that says
    no change, or only that it was deprecated, is what the words that open the list say
    ("The following parameters have been removed …:" over "``zarr_version``: Use
    ``zarr_format`` instead (was deprecated since 2024.9.1)."), unless they only say
    deprecated of a breaking one (xarray's "Finished deprecations (changed behavior with
    this release):")."""
    own = _said(text, breaking)
    if own is not None and not (own is _DEPRECATED and breaking and under):
        return own
    # (what the list's own clause says: "…, with the following differences in behavior:"
    # after setuptools deprecates easy_install says no change of its items)
    under = re.split(r"[.,;]\s+", under.rstrip(": ").strip())[-1] if under else ""
    opened = _said(under, breaking) if under else None
    if opened is not None and not (breaking and opened is _DEPRECATED and _FINISHED.search(under)):
        return opened
    return own or ApiChangeType.SIGNATURE_CHANGED


# a role: a cross-reference's shown text is words (":ref:`deprecated <pytest.namespace
# deprecated>`"), any other's (a reference, a name) none
_ROLE_TEXT = re.compile(r":(\w+):`([^`<]*?)\s*(?:<[^>`]*>)?`")
# a removal still to come is no removal ("is being deprecated and will be removed in the next
# release")
_TO_COME = re.compile(
    r"\b(?:will|would|shall|to)\s+be\s+(?:removed|dropped|deleted)\b"
    r"|\b(?:removed|dropped)\s+in\s+(?:a\s+)?(?:future|the\s+next|later|upcoming)\b",
    re.I,
)


def _role_text(m: re.Match[str]) -> str:
    return m.group(2) if m.group(1).lower() in ("ref", "doc", "term") else " "


def _said(text: str, breaking: bool) -> ApiChangeType | None:
    """The change ``text``'s own words name (see :func:`change_named`); None: none."""
    if ":`" in text:
        text = _ROLE_TEXT.sub(_role_text, text)
    if "be " in text or "in " in text:
        text = _TO_COME.sub(" ", text)
    if breaking:  # ("now raises, after being deprecated since 0.27.0": no deprecation)
        text = without_past_deprecation(text)
    words = _NAMES.sub(" ", text) if "_" in text or "`" in text or not text.islower() else text
    lead = _LEAD.match(words)
    if lead is not None:
        for pattern, change in _CHANGE_WORDS:
            if pattern.search(lead.group(0)) and not (breaking and change is _DEPRECATED):
                return change
    said = [change for pattern, change in _CHANGE_WORDS if pattern.search(words)]
    if breaking and said and said[0] is _DEPRECATED:
        rest = [
            c for c in said[1:]
            if c is not ApiChangeType.DEFAULT_CHANGED or _DEFAULT_CHANGE.search(words)
        ]  # fmt: skip
        return rest[0] if rest else _DEPRECATED
    return said[0] if said else None
