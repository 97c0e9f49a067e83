"""What the radar puts in front of a reader, decided once for every output (the report in
Markdown and HTML, the weekly, the e-mail, chat digests, the site, the MCP archive):

* the items a ``--downstream`` checkout uses (any visibility, deprecations too), first;
* the public breaking items, one line each;
* internal breaking items never fill the headline: one collapsed line per commit
  (``432743d: 13 internal names removed or changed in vllm_ascend.ops.gdn, …gdn_attn_builder``),
  the commit's own section listing them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from commitdigest.models import ApiChange

__all__ = ["Headline", "InternalGroup", "headline", "module_of_path"]

C = TypeVar("C")
MODULES_SHOWN = 3


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

    @property
    def public_count(self) -> int:
        return len(self.affecting) + len(self.breaking)

    def __bool__(self) -> bool:
        return bool(self.affecting or self.breaking or self.internal)


def headline(commits: Iterable[C], items_of: Callable[[C], Sequence[ApiChange]]) -> Headline[C]:
    """Split the commits' radar items into what a reader sees first (see the module)."""
    affecting: list[tuple[C, ApiChange]] = []
    breaking: list[tuple[C, ApiChange]] = []
    internal: list[InternalGroup[C]] = []
    for commit in commits:
        hidden: list[ApiChange] = []
        for item in items_of(commit):
            if item.affects:
                affecting.append((commit, item))
            elif item.breaking and item.public:
                breaking.append((commit, item))
            elif item.breaking:
                hidden.append(item)
        if hidden:
            internal.append(InternalGroup(commit, hidden))
    return Headline(affecting, breaking, internal)


def module_of_path(path: str) -> str:
    """``src/pkg/ops/gdn.py`` -> ``pkg.ops.gdn``; a non-Python path as it is."""
    if not path.endswith(".py"):
        return path
    parts = path.removesuffix(".py").removeprefix("src/").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)
