"""``git log --first-parent`` for a list of commits as GitHub's commits endpoint returns them.

The list endpoint returns every ancestor. Kept are the listed commits that are not reached
only through a merge's second (or later) parent: for each listed merge, the first-parent
chain of its other parents is dropped until it meets the merge's own first-parent chain.
Side commits of a merge that is not in the list cannot be told apart and are kept.
"""

from __future__ import annotations

from typing import Any


def first_parent_only(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The listed commits minus those reached only through a merge's non-first parents."""
    first = {c["sha"]: (c.get("parents") or [{}])[0].get("sha") for c in items}
    dropped: set[str] = set()
    for c in items:
        parents = [p["sha"] for p in c.get("parents") or []]
        if len(parents) < 2:
            continue
        mainline: set[str] = set()
        cur: str | None = parents[0]
        while cur is not None and cur in first and cur not in mainline:
            mainline.add(cur)
            cur = first[cur]
        for side in parents[1:]:
            cur = side
            while cur is not None and cur in first and cur not in mainline and cur not in dropped:
                dropped.add(cur)
                cur = first[cur]
    return [c for c in items if c["sha"] not in dropped]
