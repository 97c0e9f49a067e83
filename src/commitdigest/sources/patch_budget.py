"""How much of a commit's patch text is kept: :class:`PatchLimits`, and :class:`PatchBudget`,
which applies them to the patch bytes of one commit as they stream out of ``git log``.

A file may store up to ``max_patch_bytes_per_file`` bytes, and no more than the commit has
left of ``max_patch_bytes_per_commit``; a cut patch keeps whole lines only. Once the commit's
budget is spent, the remaining files get no patch at all (marked cut) and the commit is
marked cut. Bytes beyond a budget are never kept, so memory stays bounded by the budget.

A reader that needs some files' whole diffs (the radar: a version of a module is made from
its neighbour and the diff, not read from git again) names them (``whole``): a cut patch of
such a file is kept whole beside the cut one, while the commit's whole patches stay within
``max_whole_bytes_per_commit`` (past it, a file gets none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PatchLimits:
    """How many patch bytes to keep; line counts (numstat) are always kept in full."""

    max_patch_bytes_per_file: int = 16 * 1024
    max_patch_bytes_per_commit: int = 128 * 1024
    # the paths whose cut patches are kept whole too (FileChange.whole_patch); None: none
    whole: Callable[[str], bool] | None = None
    max_whole_bytes_per_commit: int = 4 * 1024 * 1024

    def __post_init__(self) -> None:
        if (
            min(
                self.max_patch_bytes_per_file,
                self.max_patch_bytes_per_commit,
                self.max_whole_bytes_per_commit,
            )
            < 0
        ):
            raise ValueError("patch limits must be >= 0")


class PatchBudget:
    """The patches of one commit's files, fed as git's ``diff --git`` sections stream by.

    ``sections[i]`` is how many sections file ``i`` takes (2 for a type change), and
    ``whole[i]`` whether its patch is kept whole too if it is cut (none when empty). Call
    :meth:`append` with the bytes of the current section while :attr:`taking`,
    :meth:`next_section` where the next one starts, and :meth:`finish` at the end of the
    commit. Once :attr:`exhausted`, the commit's budget is spent: the caller may skip the
    rest of its bytes, but those of a file kept whole (:attr:`taking` says which).
    """

    def __init__(
        self, sections: Sequence[int], limits: PatchLimits, whole: Sequence[bool] = ()
    ) -> None:
        self._sections = sections
        self._whole_wanted = whole
        self._per_file = limits.max_patch_bytes_per_file
        self._commit_left = limits.max_patch_bytes_per_commit
        self._whole_left = limits.max_whole_bytes_per_commit
        self._file_index = 0
        self._sections_left = 0
        self._allow = 0  # bytes the current file may still store
        self._pieces: list[bytes] = []
        self._whole: list[bytes] | None = None  # the current file's bytes, when kept whole
        self._cut = False  # the current file's patch was cut
        self._late = False  # the current file began once the budget was spent
        self._patches: list[tuple[str, bool, str]] = []
        self._commit_cut = False
        self.exhausted = False  # the commit budget is spent: skip to the next commit
        self.taking = False  # the current file's bytes are kept (cut, or whole)
        if sections:
            self._begin_file()
        else:
            self.exhausted = True

    def append(self, b: bytes, start: int, stop: int) -> None:
        """``b[start:stop]`` belongs to the current file: keep what its budget allows."""
        size = stop - start
        take = min(size, self._allow)
        if take > 0:
            self._pieces.append(b[start : start + take])
            self._allow -= take
        if take < size:
            self._cut = True
        if self._whole is not None:
            if size <= self._whole_left:
                self._whole.append(b[start:stop])
                self._whole_left -= size
            else:  # too big for what the commit has left: its hunk headers will do
                self._whole_left += sum(map(len, self._whole))
                self._whole = None
                self.taking = not self._late

    def next_section(self) -> None:
        """A ``diff --git`` section starts: the next file's, unless this file takes more."""
        self._sections_left -= 1
        if self._sections_left > 0 or self._file_index + 1 >= len(self._sections):
            return  # more sections for this file (or extra ones: keep them on the last)
        self._end_file()
        self._file_index += 1
        if self._commit_left <= 0:
            self.exhausted = True
        self._begin_file()  # (after the budget too: the files kept whole are followed)

    def finish(self) -> tuple[list[tuple[str, bool, str]], bool]:
        """``([(patch, cut, whole patch) per file], commit cut)`` once the commit's bytes are
        all fed; the whole patch is "" unless the patch was cut and its file is kept
        whole."""
        if self._sections and len(self._patches) <= self._file_index:
            self._end_file()
        missing = len(self._sections) - len(self._patches)
        if missing > 0 and self.exhausted:
            self._commit_cut = True
        return self._patches + [("", self.exhausted, "")] * missing, self._commit_cut

    def _begin_file(self) -> None:
        index = self._file_index
        self._sections_left = self._sections[index]
        self._late = self.exhausted
        self._allow = 0 if self._late else min(self._per_file, self._commit_left)
        self._pieces = []
        keep = index < len(self._whole_wanted) and self._whole_wanted[index]
        self._whole = [] if keep and self._whole_left > 0 else None
        self._cut = False
        self.taking = not self._late or self._whole is not None

    def _end_file(self) -> None:
        pieces, self._pieces = self._pieces, []
        whole = b"".join(self._whole) if self._whole is not None else b""
        self._whole = None
        if self._late:  # no budget was left for it
            self._commit_cut = True
            self._patches.append(("", True, whole.decode("utf-8", "replace")))
            return
        data = b"".join(pieces)
        if self._cut:  # keep whole lines only
            data = data[: data.rfind(b"\n") + 1]
            if self._commit_left < self._per_file:
                self._commit_cut = True
        else:  # the patch is whole itself
            self._whole_left += len(whole)
            whole = b""
        self._commit_left -= len(data)
        self._patches.append(
            (data.decode("utf-8", "replace"), self._cut, whole.decode("utf-8", "replace"))
        )
