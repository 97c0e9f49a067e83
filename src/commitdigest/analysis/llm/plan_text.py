"""A :class:`~commitdigest.analysis.llm.diff_plan.DiffPlan` as prompt text: the diff text of
a chunk (:func:`format_chunk`) and the list of every changed file (:func:`format_file_list`).

Paths are shown with control characters escaped (``\\x1b``); a file is named as
``old -> new (status, +A/-D)``, or ``binary`` when git gives no line counts.
"""

from __future__ import annotations

import re

from commitdigest.analysis.llm.diff_plan import Chunk, DiffPlan, FileRef, ListReason, PlannedFile

_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


def _display(path: str) -> str:
    return _CONTROL_RE.sub(lambda m: f"\\x{ord(m.group()):02x}", path)


def describe(f: FileRef, truncated: bool = False) -> str:
    """``old -> new (status, +A/-D)``, with ``, diff truncated`` when the source cut it."""
    name = _display(f.path)
    if f.old_path and f.old_path != f.path:
        name = f"{_display(f.old_path)} -> {name}"
    if f.additions is None and f.deletions is None:
        stats = "binary"
    else:
        a = "?" if f.additions is None else f.additions
        stats = f"+{a}/-{'?' if f.deletions is None else f.deletions}"
    return f"{name} ({f.status}, {stats}{', diff truncated' if truncated else ''})"


def file_header(f: PlannedFile) -> str:
    """``=== path (status, +A/-D) ===``: the line that opens a file's diff in a chunk."""
    return f"=== {describe(f, f.source_truncated)} ==="


def format_chunk(chunk: Chunk) -> str:
    """The diff text of a chunk: per file its header line, then its diff; a blank line between."""
    return "\n".join(f"{file_header(f)}\n{f.patch}" for f in chunk.files)


def list_line(f: FileRef, note: str) -> str:
    """A file's line in the file list, its note (if any) in brackets."""
    return f"- {describe(f)} [{note}]" if note else f"- {describe(f)}"


def chunk_note(part: int, parts: int, clipped: bool) -> str:
    notes = [f"diff in part {part} of {parts}"] if parts > 1 else []
    if clipped:
        notes.append("diff clipped")
    return "; ".join(notes)


def listed_note(reason: ListReason) -> str:
    return f"not shown: {reason}"


def list_header(files: int, additions: int, deletions: int) -> str:
    return f"{files} files changed, +{additions}/-{deletions}"


def omitted_line(count: int) -> str:
    return f"… {count} more files not listed"


def format_file_list(plan: DiffPlan) -> str:
    """Every file with its line counts: chunked ones, then listed ones, then a count of the rest."""
    lines = [list_header(plan.total_files, plan.total_additions, plan.total_deletions)]
    parts = len(plan.chunks)
    for part, chunk in enumerate(plan.chunks, 1):
        lines += [list_line(f, chunk_note(part, parts, f.clipped)) for f in chunk.files]
    lines += [list_line(x, listed_note(x.reason)) for x in plan.listed_only]
    if plan.omitted:
        lines.append(omitted_line(len(plan.omitted)))
    return "\n".join(lines) + "\n"
