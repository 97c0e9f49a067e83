"""The radar's driver: for each commit of a window (in any order: every kind looks at one
commit) it reads the touched files that some kind reads — before and after, by blob id when
the source knows it, through the source's one blob reader for the window — and runs every
kind over them.

A blob is read once per window (the reader keeps its answers) and each distinct text is
parsed once (``pyapi``'s caches): a file touched by ten commits of a day costs eleven
texts, not twenty. A file whose whole patch the source has is read from git once: its
other versions are its neighbours with the patch applied, forwards or backwards.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace

from commitdigest.analysis.radar import (
    announced,
    cli_option,
    config_key,
    dependency,
    deprecation,
    env_var,
    python_api,
)
from commitdigest.analysis.radar.commit import CommitInput, PatchesRead
from commitdigest.analysis.radar.instead import (
    REPLACED,
    own_first,
    replacement_for,
    said_by_path,
)
from commitdigest.analysis.radar.models import ApiChange, CommitView, RadarKind
from commitdigest.analysis.radar.patch import hunk_lines, patched
from commitdigest.analysis.radar.reads import read_at_all
from commitdigest.analysis.radar.repo import Blobs, RepoView
from commitdigest.facts import ApiChangeType

_KNOWN = 256  # versions of patched files kept for the neighbouring commits

# every kind needs only one commit's view (and the repository at that commit)
KINDS: tuple[Callable[[CommitView], list[ApiChange]], ...] = (
    python_api.detect,
    cli_option.detect,
    config_key.detect,
    dependency.detect,
    deprecation.detect,
    announced.detect,
    env_var.detect,
)


def read_by_a_kind(path: str, changed: str | None) -> bool:
    """Whether some kind reads ``path``'s content for a commit whose changed lines of it are
    ``changed`` (None: unknown); the others are not read at all. What no kind may read
    whatever its lines (a commit's tests, docs and data) is known once per path
    (:func:`~.reads.read_at_all`), and so is a file that is not a module (no kind reads it
    by its lines)."""
    if changed is None or not path.endswith(".py") or not read_at_all(path):
        return read_at_all(path)
    return module_read(path, changed)


def module_read(path: str, changed: str | None) -> bool:
    """Whether some kind reads the module ``path`` for a commit whose changed lines of it
    are ``changed`` (None: whatever they are), each kind asked."""
    return any(
        wants(changed, path)
        for wants in (python_api.wants, deprecation.wants, env_var.wants, cli_option.wants)
    ) or (
        (path.endswith("setup.py") and cli_option.wants_packaging(changed, path))
        or dependency.wants(changed, path)
    )


def scan_window(
    blobs: Blobs, commits: Sequence[CommitInput], *, base: str | None = None
) -> dict[str, list[ApiChange]]:
    """Radar items per commit SHA of ``commits``, in any order.

    ``base``: the revision the window starts from (default: the parent of its oldest
    commit, the one whose parent is none of ``commits``), where the public surface is
    read; give it when ``commits`` is a part of a window.
    """
    if not commits:
        return {}
    shas = {c.sha for c in commits}
    oldest = next((c for c in commits if c.parent not in shas), commits[0])
    scanner = WindowScanner(blobs, base or oldest.parent or oldest.sha)
    return {c.sha: scanner.scan(c) for c in commits}


class WindowScanner:
    """Scans the commits of one window one at a time, in any order: every kind sees only its
    commit, the repository at that commit and the window's start (``base``), so a window can
    be scanned in parts, as its commits arrive."""

    def __init__(self, blobs: Blobs, base: str) -> None:
        self.repo = RepoView(blobs, base)
        # the last versions of the files whose patches the commits carry, by blob id: a
        # neighbouring commit's version is made from them (whichever way the window runs)
        self._known: OrderedDict[str, str] = OrderedDict()

    def scan(self, c: CommitInput) -> list[ApiChange]:
        """The commit's items."""
        patches = c.read_patches()
        changed = patches.changed
        read = tuple(p for p in c.paths if read_by_a_kind(p, changed.get(p)) or p in c.deleted)
        view = self._view(c, patches, read)
        items: list[ApiChange] = []
        for kind in KINDS:
            items.extend(kind(view))
        return _with_replacements(dedupe(_variables_once(items, view)), view)

    def _view(self, c: CommitInput, patches: PatchesRead, read: tuple[str, ...]) -> CommitView:
        """What the kinds see of commit ``c``: the texts of ``read`` before and after, and
        its changed lines' numbers."""
        known = self._known
        first = [  # files read whose versions no neighbour gave: one version is read
            c.after_ids[p]
            for p in patches.edits
            if p in read and c.before_ids[p] not in known and c.after_ids[p] not in known
        ]
        if first:
            for oid, text in self.repo.blobs.read_text(first).items():
                self._remember(oid, text)
        for p, hunks in patches.edits.items():  # a whole patch: one version from the other, also
            # where no kind reads the file at this commit (its body changed only), so that the
            # neighbouring commit that does finds its version made, not read from git again
            old, new = known.get(c.before_ids[p]), known.get(c.after_ids[p])
            if old is not None and new is None:
                self._remember(c.after_ids[p], patched(old, hunks))
            elif new is not None and old is None:  # the window runs newest first (as git
                # log reads it): the old version from the new one
                self._remember(c.before_ids[p], patched(new, hunks, backwards=True))
        before = self._read(c.parent, read, c.before_ids)
        after = self._read(c.sha, read, c.after_ids)  # (the package __init__ files beside
        # them are read when a kind asks: most commits change no API they re-export)
        for p in read:  # (a version read for a cut patch too: its neighbour's patch may
            # be whole)
            for ids, texts in ((c.before_ids, before), (c.after_ids, after)):
                if p in ids and texts.get(p) is not None:
                    self._remember(ids[p], texts[p])
        numbers = dict(patches.numbers)
        for p, headers in c.hunks.items():  # patches the source cut: the lines their hunks
            if p in read and before.get(p) and after.get(p):  # span (their context too)
                numbers[p] = hunk_lines(headers)
        return CommitView(
            sha=c.sha,
            title=c.title,
            body=c.body,
            paths=read,
            before=before,
            after=after,
            parent=c.parent,
            merged=c.merged,
            repo=self.repo,
            changed=patches.changed,
            numbers=numbers,
        )

    def _read(
        self, rev: str | None, paths: Sequence[str], ids: dict[str, str]
    ) -> dict[str, str | None]:
        """The texts of ``paths`` at ``rev`` (by blob id where known; a version this
        scanner knows, made from a patch or read, is not read again)."""
        if rev is None:
            return dict.fromkeys(paths)
        out: dict[str, str | None] = {}
        specs: dict[str, str] = {}
        for p in paths:
            oid = ids.get(p)
            known = self._known.get(oid) if oid else None
            if known is not None:
                out[p] = known
            else:
                specs[p] = oid or f"{rev}:{p}"
        if specs:
            got = self.repo.blobs.read_text(specs.values())
            out.update((p, got[spec]) for p, spec in specs.items())
        return {p: out[p] for p in paths}

    def _remember(self, oid: str, text: str | None) -> None:
        if text is None:
            return  # the patch did not fit: the version is read
        self._known[oid] = text
        self._known.move_to_end(oid)
        if len(self._known) > _KNOWN:
            self._known.popitem(last=False)


def _variables_once(items: list[ApiChange], view: CommitView) -> list[ApiChange]:
    """``items`` without the module attribute that is a removed environment variable of the
    same file and that the module served, not assigned: vllm-ascend's ``envs`` serves
    ``envs.VLLM_ASCEND_X`` from its ``env_variables`` table through its ``__getattr__``;
    one item, the variable (a checkout's ``envs.VLLM_ASCEND_X`` names it too). A constant
    the module assigns (``CACHE_DIR = os.environ.get("CACHE_DIR")``) is imported by name:
    both stay."""
    variables = {(i.name, i.path) for i in items if i.kind is RadarKind.ENV_VAR}
    if not variables:
        return items
    return [
        i
        for i in items
        if not (
            i.kind is RadarKind.PYTHON_API
            and i.change is ApiChangeType.REMOVED
            and ((name := i.name.rsplit(".", 1)[-1]), i.path) in variables
            and not re.search(rf"^{re.escape(name)}[ \t]*[:=]", view.before.get(i.path) or "", re.M)
        )
    ]


def _with_replacements(items: list[ApiChange], view: CommitView) -> list[ApiChange]:
    """``items`` with what the project says to write instead, from the deprecation messages
    of the commit's files (the old text for what it removes, the new one for what it
    deprecates); the files are read for messages only when an item may have one."""
    wanted = [
        i
        for i in items
        if i.kind in (RadarKind.PYTHON_API, RadarKind.DEPRECATION) and i.change in REPLACED
    ]
    if not wanted:
        return items
    sides: dict[bool, dict[str, list[str]]] = {}
    out = []
    for item in items:
        if any(item is w for w in wanted):
            new = item.change is ApiChangeType.DEPRECATED
            if new not in sides:
                side = dict(view.after if new else view.before)
                if new and view.repo is not None:  # and the package __init__ files beside
                    extra = [p for p in python_api.init_paths(view.paths) if p not in side]
                    side.update(view.repo.texts(view.sha, extra))
                sides[new] = said_by_path(side)
            texts = view.after if new else view.before
            found = replacement_for(item, own_first(item, sides[new], texts))
            item = replace(item, replacement=found) if found else item
        out.append(item)
    return out


def dedupe(items: list[ApiChange], by: str = "path") -> list[ApiChange]:
    """``items`` without a repeat of the same kind and name at the same ``by`` (the file it
    was found in, or the ``release`` that announced it), the first kept. A Python name is
    one item whatever file says it (pytest's ``PytestRemovedIn9Warning``, removed where it
    was defined and where the package re-exported it)."""
    seen: set[tuple[str, str, object]] = set()
    out: list[ApiChange] = []
    for item in items:
        python = item.kind is RadarKind.PYTHON_API and by == "path"
        where = "" if python else getattr(item, by)
        key = (item.kind.value, item.name, where)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
