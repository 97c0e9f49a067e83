"""What :func:`~commitdigest.analysis.llm.budget.plan_diff` decides for a commit's diff: the
files that go into chunks (:class:`PlannedFile`), those shown by name only (:class:`ListedFile`,
with a :class:`ListReason`), and the :class:`DiffPlan` that holds them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from commitdigest.analysis.classify import FileKind
from commitdigest.models import FileStatus


class ListReason(StrEnum):
    """Why a file is shown by name only."""

    LOCK = "lockfile"
    VENDORED = "vendored"
    GENERATED = "generated"
    MINIFIED = "minified"
    BINARY = "binary"
    DELETED = "deleted"
    DELETION_ONLY = "deletion-only"
    NO_DIFF = "no diff text"
    OVER_BUDGET = "over budget"


@dataclass(frozen=True, kw_only=True)
class FileRef:
    """A changed file as the prompt names it."""

    path: str
    old_path: str | None = None
    status: FileStatus
    additions: int | None
    deletions: int | None
    kind: FileKind


@dataclass(frozen=True, kw_only=True)
class PlannedFile(FileRef):
    """A file whose diff text goes into a chunk (``patch`` always ends with a newline)."""

    patch: str
    clipped: bool = False  # the planner cut the diff (a marker line says how much)
    source_truncated: bool = False  # the git source had cut it already


@dataclass(frozen=True, kw_only=True)
class ListedFile(FileRef):
    """A file shown by name, status and line counts only."""

    reason: ListReason


@dataclass(frozen=True)
class Chunk:
    """The diff text of one request; ``estimated_tokens`` = tokens of :func:`format_chunk`."""

    files: list[PlannedFile]
    estimated_tokens: int


@dataclass(frozen=True)
class DiffPlan:
    """Where every file of a commit went. ``chunks`` is never empty (maybe one empty chunk)."""

    chunks: list[Chunk]
    listed_only: list[ListedFile]
    omitted: list[str]  # paths beyond the file list's cap, in priority order
    budget: int
    total_files: int
    total_additions: int
    total_deletions: int
    reserved_for_file_list: int = 0
    file_list_tokens: int = 0  # estimate_tokens(format_file_list(plan))
