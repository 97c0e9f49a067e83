"""How much of a commit's patch text is kept: :class:`PatchLimits`, and :class:`PatchBudget`,
which applies them to the patch bytes of one commit as they stream out of ``git log``.

A file may store up to ``max_patch_bytes_per_file`` bytes, and no more than the commit has
left of ``max_patch_bytes_per_commit``; a cut patch keeps whole lines only. Once the commit's
budget is spent, the remaining files get no patch at all (marked cut) and the commit is
marked cut. Bytes beyond a budget are never kept, so memory stays bounded by the budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PatchLimits:
    """How many patch bytes to keep; line counts (numstat) are always kept in full."""

    max_patch_bytes_per_file: int = 16 * 1024
    max_patch_bytes_per_commit: int = 128 * 1024

    def __post_init__(self) -> None:
        if self.max_patch_bytes_per_file < 0 or self.max_patch_bytes_per_commit < 0:
            raise ValueError("patch limits must be >= 0")


class PatchBudget:
    """The patches of one commit's files, fed as git's ``diff --git`` sections stream by.

    ``sections[i]`` is how many sections file ``i`` takes (2 for a type change). Call
    :meth:`append` with the bytes of the current section, :meth:`next_section` where the next
    one starts, and :meth:`finish` at the end of the commit. Once :attr:`exhausted`, the
    commit's budget is spent: the caller may skip the rest of its bytes.
    """

    def __init__(self, sections: Sequence[int], limits: PatchLimits) -> None:
        self._sections = sections
        self._per_file = limits.max_patch_bytes_per_file
        self._commit_left = limits.max_patch_bytes_per_commit
        self._file_index = 0
        self._sections_left = 0
        self._allow = 0  # bytes the current file may still store
        self._pieces: list[bytes] = []
        self._cut = False  # the current file's patch was cut
        self._patches: list[tuple[str, bool]] = []
        self._commit_cut = False
        self.exhausted = False  # the commit budget is spent: skip to the next commit
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

    def next_section(self) -> None:
        """A ``diff --git`` section starts: the next file's, unless this file takes more."""
        self._sections_left -= 1
        if self._sections_left > 0 or self._file_index + 1 >= len(self._sections):
            return  # more sections for this file (or extra ones: keep them on the last)
        self._end_file()
        self._file_index += 1
        if self._commit_left <= 0:
            self.exhausted = True
        else:
            self._begin_file()

    def finish(self) -> tuple[list[tuple[str, bool]], bool]:
        """``([(patch, cut) per file], commit cut)`` once the commit's bytes are all fed."""
        if self._sections and len(self._patches) <= self._file_index and not self.exhausted:
            self._end_file()
        missing = len(self._sections) - len(self._patches)
        if missing > 0 and self.exhausted:
            self._commit_cut = True
        return self._patches + [("", self.exhausted)] * missing, self._commit_cut

    def _begin_file(self) -> None:
        self._sections_left = self._sections[self._file_index]
        self._allow = min(self._per_file, self._commit_left)
        self._pieces = []
        self._cut = False

    def _end_file(self) -> None:
        data = b"".join(self._pieces)
        if self._cut:  # keep whole lines only
            data = data[: data.rfind(b"\n") + 1]
            if self._commit_left < self._per_file:
                self._commit_cut = True
        self._commit_left -= len(data)
        self._patches.append((data.decode("utf-8", "replace"), self._cut))
        self._pieces = []
