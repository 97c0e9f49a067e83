"""What the source knows of a commit, handed to the radar: its paths, blob ids and the
whole patches of the files some kind reads (:func:`~.reads.read_at_all`).

Apart from the driver and its kinds: the process that reads a window makes one per commit
and sends it to the radar's worker processes, and imports no kind for it (they cost a run
0.15-0.3 s of its busiest core).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from commitdigest.analysis.classify import is_changelog
from commitdigest.analysis.radar.patch import Hunk, patch_changes
from commitdigest.analysis.radar.reads import read_at_all
from commitdigest.facts import FileStatus

if TYPE_CHECKING:
    from commitdigest.models import Commit

__all__ = ["CommitInput", "PatchesRead"]


@dataclass(frozen=True)
class CommitInput:
    """What the source already knows of a commit: enough for the radar."""

    sha: str
    parent: str | None
    title: str
    body: str
    paths: tuple[str, ...]  # changed paths (a rename lists its old and new path)
    # blob ids the source knows: path -> id before / after (absent: read by rev:path)
    before_ids: dict[str, str] = field(default_factory=dict)
    after_ids: dict[str, str] = field(default_factory=dict)
    # the whole patch of each path some kind reads, when the source has it whole: read (its
    # changed lines, their numbers, its hunks) where the commit is scanned, not where the
    # window is read; handed on as it is, half the bytes of its reading
    patches: dict[str, str] = field(default_factory=dict)
    deleted: frozenset[str] = frozenset()
    merged: tuple[str, ...] = ()  # the parents a merge brings in (all but the first)
    # the hunk headers of a cut patch (``FileChange.hunks``), per Python path the source cut
    hunks: dict[str, str] = field(default_factory=dict)
    # the paths of ``patches`` whose both blobs are known: the new version is made from the
    # old one (:func:`~.patch.patched`), not read from git again
    edited: frozenset[str] = frozenset()

    def read_patches(self) -> PatchesRead:
        """What ``patches`` change, read in one pass over each."""
        changed: dict[str, str] = {}
        numbers: dict[str, tuple[frozenset[int], frozenset[int]]] = {}
        edits: dict[str, tuple[Hunk, ...]] = {}
        for path, patch in self.patches.items():
            reading = patch_changes(patch)
            changed[path] = reading.changed
            if path.endswith(".py") or is_changelog(path):  # read around them
                numbers[path] = reading.removed, reading.added
            if path in self.edited:
                edits[path] = reading.hunks
        return PatchesRead(changed, numbers, edits)

    @classmethod
    def from_commit(cls, commit: Commit) -> CommitInput:
        paths: list[str] = []
        before: dict[str, str] = {}
        after: dict[str, str] = {}
        patches: dict[str, str] = {}
        hunks: dict[str, str] = {}
        edited: set[str] = set()
        deleted: set[str] = set()
        for f in commit.files:
            if f.old_path:
                paths.append(f.old_path)
            paths.append(f.path)
            if f.old_blob:
                before[f.old_path or f.path] = f.old_blob
            if f.new_blob:
                after[f.path] = f.new_blob
            if f.status is FileStatus.DELETED:
                deleted.add(f.path)
            patch = f.whole_patch or (f.patch if not f.patch_truncated else "")
            if patch and not f.binary and not f.old_path and read_at_all(f.path):
                patches[f.path] = patch  # (no kind reads the others at all)
                if f.old_blob and f.new_blob and f.status is not FileStatus.TYPE_CHANGED:
                    edited.add(f.path)  # (a file <-> symlink patch is two diffs)
            elif f.hunks and not f.old_path and f.path.endswith(".py"):
                hunks[f.path] = f.hunks
        return cls(
            commit.sha,
            commit.parents[0] if commit.parents else None,
            commit.title,
            commit.body,
            tuple(dict.fromkeys(paths)),
            before,
            after,
            patches,
            frozenset(deleted),
            commit.parents[1:],
            hunks,
            frozenset(edited),
        )


class PatchesRead(NamedTuple):
    """What a commit's whole patches change, per path (:meth:`CommitInput.read_patches`)."""

    changed: dict[str, str]  # the lines added or removed, without their marks
    # their numbers: removed from the old file, added to the new one (Python files and
    # changelogs: what reads around changed lines)
    numbers: dict[str, tuple[frozenset[int], frozenset[int]]]
    edits: dict[str, tuple[Hunk, ...]]  # the hunks of the paths ``edited``
