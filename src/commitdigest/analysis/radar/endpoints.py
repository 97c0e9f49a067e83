"""The radar between two revisions of a repository (``commitdigest upgrade``): the two
endpoints compared once, not commit by commit, plus what the range's releases announce.

A name added and removed inside the range is no change; a name removed and restored is no
change; a parameter renamed twice is one change: only the endpoints count. Each changed
module is read twice (its text at each end); the kinds are the daily radar's, run over one
view whose "before" is the old revision and "after" the new one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Protocol

from commitdigest.analysis.radar import (
    announced,
    cli_option,
    config_key,
    dependency,
    deprecation,
    env_var,
    python_api,
)
from commitdigest.analysis.radar.changelog import (
    Section,
    announces,
    is_changelog,
    plain_text,
    sections,
)
from commitdigest.analysis.radar.driver import dedupe
from commitdigest.analysis.radar.instead import own_first, replacement_for, said_by_path
from commitdigest.analysis.radar.models import ApiChange, CommitView
from commitdigest.analysis.radar.public import public_surface
from commitdigest.analysis.radar.reads import read_at_all
from commitdigest.analysis.radar.repo import Blobs, RepoView
from commitdigest.facts import ApiChangeType

__all__ = ["Found", "Release", "Revisions", "compare_revisions"]

# a release tag: an optional prefix, then a version (archive tags such as "3.0.x" are not)
_RELEASE_TAG = re.compile(
    r"^(?:[A-Za-z][\w.-]*?[-_/])?v?(\d+(?:\.\d+)+(?:[-.]?(?:a|b|rc|alpha|beta|post|dev)\.?\d*)?)$",
    re.I,
)


class Revisions(Blobs, Protocol):
    """A repository's revisions as the source reads them (``sources.blobs.BlobReader``)."""

    def changed_paths(self, base: str, tip: str) -> list[tuple[str, str | None]]: ...

    def tags_between(self, base: str, tip: str) -> list[str]: ...

    def commit_time(self, sha: str) -> int: ...

    def resolve(self, ref: str) -> str | None: ...


@dataclass(frozen=True)
class Release:
    version: str
    tag: str
    sha: str
    items: list[ApiChange]


@dataclass
class Found:
    """What changed between the endpoints: the code's items, the releases', what could not
    be read."""

    changes: list[ApiChange] = field(default_factory=list)
    releases: list[Release] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    exports: dict[str, str] = field(default_factory=dict)  # public name -> where defined (old)


def compare_revisions(blobs: Revisions, base: str, tip: str) -> Found:
    """The radar's items between ``base`` and ``tip`` (full SHAs), and the releases."""
    repo = RepoView(blobs, base)
    paths: list[str] = []
    for path, old in blobs.changed_paths(base, tip):
        if old:
            paths.append(old)
        paths.append(path)
    read = tuple(dict.fromkeys(p for p in paths if read_at_all(p)))
    extra = [p for p in python_api.init_paths(read) if p not in read]
    before = repo.texts(base, read)
    after = repo.texts(tip, [*read, *extra])
    view = CommitView(
        sha=tip, title="", body="", paths=read, before=before, after=after, parent=base,
        repo=repo,
    )  # fmt: skip
    found = Found(
        exports={
            public: defined
            for defined, public in public_surface(repo).aliases.items()
            if defined != public  # the package's own name for it is no definition
        },
    )
    items: list[ApiChange] = []
    for kind in (
        python_api.detect, cli_option.detect, config_key.detect, dependency.detect,
        deprecation.detect, env_var.detect,
    ):  # fmt: skip
        items.extend(kind(view))
    found.unreadable = sorted(set(view.unreadable))
    logs = _changelogs(repo, tip)
    found.releases = _releases(blobs, repo, base, tip, logs)
    released = [i for r in found.releases for i in r.items]
    old_said = said_by_path(before)
    new_said = said_by_path(after)
    # what any release said of a name ("``_request_ctx_stack.top`` is deprecated. Store
    # data on ``g`` instead"), also one before the range: the removal comes later
    notes = [
        plain_text(e.text)
        for found_in in logs.values()
        for section in found_in
        for e in section.entries
        if announces(e) is not None
    ]

    def instead(item: ApiChange, said: dict[str, list[str]]) -> str:
        deprecated = item.change is ApiChangeType.DEPRECATED  # its message is in the new code
        texts, said = (after, new_said) if deprecated else (before, said)
        return replacement_for(item, own_first(item, said, texts), notes)

    changes = [
        replace(i, replacement=i.replacement or instead(i, old_said))
        for i in dedupe([*items, *released], by="release")
    ]
    # a name deprecated and removed inside the range warned in a release between the two
    quiet = {id(i) for i in changes if not i.replacement and i.breaking and i.path.endswith(".py")}
    if quiet and found.releases:
        paths = sorted({i.path for i in changes if id(i) in quiet})
        between: dict[str, list[str]] = {}
        for r in found.releases[:-1]:
            if r.sha:
                for path, said in said_by_path(repo.texts(r.sha, paths)).items():
                    between[path] = list(dict.fromkeys([*between.get(path, []), *said]))
        changes = [
            replace(i, replacement=instead(i, between)) if id(i) in quiet and between else i
            for i in changes
        ]
    found.changes = changes
    return found


def _version_key(version: str) -> tuple[tuple[int, str], ...]:
    return tuple((int(p), "") if p.isdigit() else (-1, p) for p in re.split(r"[.\-]", version))


def _changelogs(repo: RepoView, tip: str) -> dict[str, list[Section]]:
    """The sections of each top-level changelog at ``tip``, by path."""
    logs = [p for p in repo.blobs.paths(tip) if is_changelog(p) and p.count("/") <= 1]
    return {path: sections(text) for path, text in repo.texts(tip, logs).items() if text}


def _releases(
    blobs: Revisions, repo: RepoView, base: str, tip: str, logs: dict[str, list[Section]]
) -> list[Release]:
    """The releases after ``base`` up to ``tip``: version tags reachable from ``tip`` and not
    from ``base``, by version; each announces the entries of its changelog section."""
    tags: dict[str, str] = {}
    for tag in blobs.tags_between(base, tip):
        m = _RELEASE_TAG.match(tag)
        if m:
            tags.setdefault(m.group(1).lower(), tag)
    if not tags:
        return []
    packages = sorted(public_surface(repo).packages)
    out: list[Release] = []
    for version in sorted(tags, key=_version_key):
        items: list[ApiChange] = []
        for path, found in logs.items():
            for section in found:
                if section.version != version:
                    continue
                for entry in section.entries:
                    said = announces(entry)
                    if said is not None:
                        items.append(announced.entry_item(path, entry, said, packages, version))
        tag = tags[version]
        out.append(Release(version, tag, blobs.resolve(tag) or "", items))
    return out
