"""What the radar puts in front of a reader, decided once for every output (the report in
Markdown and HTML, the weekly, the e-mail, chat digests, the site, the MCP archive):

* the items a ``--downstream`` checkout uses (any visibility, deprecations too), first;
* the public breaking items, one line each;
* internal breaking items never fill the headline: one collapsed line per commit
  (``432743d: 13 internal names removed or changed in vllm_ascend.ops.gdn, …gdn_attn_builder``),
  the commit's own section listing them all;
* the same change of the same member of :data:`SAME_FROM` classes or more in one commit is
  one line, the classes in its detail (diffusers' "post release" removed
  ``enable_vae_slicing`` and three more methods from 37 pipelines, "copied from" one
  another: ``enable_vae_slicing — removed (AllegroPipeline, AudioLDM2Pipeline,
  ChromaPipeline (+34))``, 4 lines for 148), the commit's own section listing them all;
* an entry a changelog announces that a release of the same commits announces again (Scrapy
  wrote its 2.18 release notes and released them 44 seconds later: 16 entries were each two
  lines of the day's Breaking section) is shown once, by the release;
* the same change of :data:`MEMBERS_FROM` members or more of one class in one commit is one
  line, named ``Cls.*``, the members in its detail (pytorch-lightning made ``NeptuneLogger``
  a stub that raises: ``lightning.pytorch.loggers.NeptuneLogger.* — removed (experiment,
  log_hyperparams, log_metrics (+17))``, one line for 20), the commit's own section
  listing them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from commitdigest.models import ApiChange, RadarKind

__all__ = [
    "Headline",
    "InternalGroup",
    "headline",
    "module_of_path",
    "same_changes",
    "same_class",
]

C = TypeVar("C")
MODULES_SHOWN = 3
SAME_FROM = 4  # classes whose member a commit changes the same way: one line for them
OWNERS_SHOWN = 3
MEMBERS_FROM = 5  # members of one class a commit changes the same way: one line for them
MEMBERS_SHOWN = 3


@dataclass(frozen=True)
class InternalGroup(Generic[C]):
    """One commit's internal breaking items, shown as one line."""

    commit: C
    items: list[ApiChange]

    @property
    def modules(self) -> list[str]:
        """The modules (or files) the items live in, in order, distinct."""
        return list(dict.fromkeys(module_of_path(i.path) or i.name for i in self.items))

    def modules_text(self) -> str:
        """``vllm_ascend.ops.gdn, …gdn_attn_builder (+2)``: the first module in full, the
        next ones that share its package by their last part, at most three."""
        modules = self.modules
        if not modules:
            return ""
        first = modules[0]
        parent = first.rpartition(".")[0]
        shown = [first]
        for module in modules[1:MODULES_SHOWN]:
            same = parent and module.rpartition(".")[0] == parent
            shown.append("…" + module.rpartition(".")[2] if same else module)
        more = len(modules) - len(shown)
        return ", ".join(shown) + (f" (+{more})" if more > 0 else "")


@dataclass(frozen=True)
class Headline(Generic[C]):
    affecting: list[tuple[C, ApiChange]]
    breaking: list[tuple[C, ApiChange]]
    internal: list[InternalGroup[C]]
    folded: int = 0  # breaking items shown by another's line (the same change of a member)
    # announced entries a release of the same commits announces again: its line shows them
    released: list[tuple[C, ApiChange]] = field(default_factory=list)

    @property
    def public_count(self) -> int:
        """The public breaking items (and those a checkout uses), however many lines."""
        return len(self.affecting) + len(self.breaking) + self.folded

    def __bool__(self) -> bool:
        return bool(self.affecting or self.breaking or self.internal)


def headline(commits: Iterable[C], items_of: Callable[[C], Sequence[ApiChange]]) -> Headline[C]:
    """Split the commits' radar items into what a reader sees first (see the module)."""
    affecting: list[tuple[C, ApiChange]] = []
    breaking: list[tuple[C, ApiChange]] = []
    internal: list[InternalGroup[C]] = []
    released: list[tuple[C, ApiChange]] = []
    folded = 0
    commits = list(commits)
    announced = {
        _said(i)
        for c in commits
        for i in items_of(c)
        if i.kind is RadarKind.ANNOUNCED and i.release
    }
    for commit in commits:
        shown: list[ApiChange] = []
        hidden: list[ApiChange] = []
        for item in items_of(commit):
            if item.kind is RadarKind.ANNOUNCED and not item.release and _said(item) in announced:
                if item.affects or (item.breaking and item.public):
                    released.append((commit, item))
            elif item.affects:
                affecting.append((commit, item))
            elif item.breaking and item.public:
                shown.append(item)
            elif item.breaking:
                hidden.append(item)
        lines = same_class(same_changes(shown))
        breaking += [(commit, item) for item in lines]
        folded += len(shown) - len(lines)
        if hidden:
            internal.append(InternalGroup(commit, hidden))
    return Headline(affecting, breaking, internal, folded, released)


def _said(item: ApiChange) -> tuple[str, str, str]:
    """An announcement's entry, change and changelog: the same one a release repeats."""
    return item.name, item.change.value, item.path or ""


def same_changes(items: Sequence[ApiChange]) -> list[ApiChange]:
    """One commit's items, the same change of the same member (``enable_vae_slicing``,
    ``encode_prompt(lora_scale)``) of :data:`SAME_FROM` classes or more as one item: named
    by the member, its detail the change's own (``True → False``) and the classes, its
    ``symbols`` every name (and theirs); in the place of the first."""
    read = [(item, *_owner_and_member(item)) for item in items]
    groups: dict[tuple[object, ...], list[tuple[ApiChange, str]]] = {}
    for item, owner, member in read:
        if owner:
            key = (item.kind, item.change, member, item.detail, item.replacement)
            groups.setdefault(key, []).append((item, owner))
    out: list[ApiChange] = []
    for item, owner, member in read:
        group = groups.get((item.kind, item.change, member, item.detail, item.replacement), [])
        if not owner or len(group) < SAME_FROM:
            out.append(item)
        elif item is group[0][0]:
            owners = sorted(_shown_owners(sorted({o for _, o in group})))
            more = len(owners) - OWNERS_SHOWN
            classes = ", ".join(owners[:OWNERS_SHOWN]) + (f" (+{more})" if more > 0 else "")
            detail = f"{item.detail}; {classes}" if item.detail else classes
            symbols = [s for i, _ in group for s in (i.name, *i.symbols)]
            out.append(
                replace(
                    item,
                    name=member,
                    detail=detail,
                    path="",
                    line=None,
                    symbols=list(dict.fromkeys(symbols)),
                    hook=any(i.hook for i, _ in group),
                )
            )
    return out


def same_class(items: Sequence[ApiChange]) -> list[ApiChange]:
    """One commit's items, the same change (``removed``) of :data:`MEMBERS_FROM` members or
    more of one class as one item: named ``Cls.*``, its detail the members (their own
    details dropped: the commit's section has them), its ``symbols`` every name (and
    theirs); in the place of the first. A member's change alone, or another change of the
    class, stays a line of its own."""
    read = [(item, *_owner_and_member(item)) for item in items]
    groups: dict[tuple[object, ...], list[tuple[ApiChange, str]]] = {}
    for item, owner, member in read:
        if owner:
            groups.setdefault((item.kind, item.change, owner), []).append((item, member))
    out: list[ApiChange] = []
    for item, owner, _ in read:
        group = groups.get((item.kind, item.change, owner), [])
        if not owner or len(group) < MEMBERS_FROM:
            out.append(item)
        elif item is group[0][0]:
            members = list(dict.fromkeys(m for _, m in group))
            more = len(members) - MEMBERS_SHOWN
            shown = ", ".join(members[:MEMBERS_SHOWN]) + (f" (+{more})" if more > 0 else "")
            symbols = [s for i, _ in group for s in (i.name, *i.symbols)]
            out.append(
                replace(
                    item,
                    name=f"{owner}.*",
                    detail=shown,
                    line=None,
                    symbols=list(dict.fromkeys(symbols)),
                    replacement="",
                    hook=any(i.hook for i, _ in group),
                    position=None,
                )
            )
    return out


def _shown_owners(owners: list[str]) -> list[str]:
    """The classes ``owners`` (dotted) by their names, with their module's where two share a
    name (``flux.Pipeline``, ``sana.Pipeline``)."""
    short = [o.rpartition(".")[2] for o in owners]
    return [
        ".".join(o.split(".")[-2:]) if short.count(name) > 1 else name
        for o, name in zip(owners, short, strict=True)
    ]


def _owner_and_member(item: ApiChange) -> tuple[str, str]:
    """``("pkg.mod.Cls", "meth(param)")`` of a Python item ``pkg.mod.Cls.meth(param)`` of a
    class (its owner's last part starts with a capital); ``("", name)`` for any other."""
    if item.kind is not RadarKind.PYTHON_API:
        return "", item.name
    base, paren, param = item.name.partition("(")
    owner, _, member = base.rpartition(".")
    if not owner or not owner.rpartition(".")[2][:1].isupper():
        return "", item.name
    return owner, member + paren + param


def module_of_path(path: str) -> str:
    """``src/pkg/ops/gdn.py`` -> ``pkg.ops.gdn``; a non-Python path as it is."""
    if not path.endswith(".py"):
        return path
    parts = path.removesuffix(".py").removeprefix("src/").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)
