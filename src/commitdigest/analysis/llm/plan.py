"""Plan a commit's diff into at most a few requests, each within a token budget, and write
the plan as prompt text.

The plan (:class:`DiffPlan`) holds the files that go into chunks (:class:`PlannedFile`) and
those shown by name only (:class:`ListedFile`, with a :class:`ListReason`).
:func:`plan_diff` decides, file by file, what the model gets to see:

* files that are not :data:`~commitdigest.analysis.classify.PATCH_KINDS` (lockfiles,
  vendored, generated, minified, binary), deleted files, deletion-only files and files without
  diff text are *listed only*: name, status and line counts, with the reason;
* the others get their diff text (:func:`prepare_patch`): git's header lines dropped (the
  planner writes its own) and every deletion-only hunk reduced to its ``@@`` line and
  ``[N deleted lines]``;
* if all of it fits the budget, it goes whole into one chunk. Otherwise files are taken in
  priority order (source, tests, docs/config; larger changes first), each clipped to
  ``file_share`` of the budget at hunk boundaries, and packed first-fit into at most
  ``max_chunks`` chunks; clipped files then grow back into the room their chunk has left.
  What fits nowhere is listed by name ("over budget");
* the file list (:func:`format_file_list`) names every file up to ``list_share`` of the
  budget; the files beyond that cap are *omitted*, counted but not named. No file is dropped:
  each is in exactly one of a chunk, ``listed_only`` or ``omitted``.

Budgets are in :func:`~commitdigest.analysis.llm.tokens.estimate_tokens` units. A chunk's
``estimated_tokens`` is exactly ``estimate_tokens(format_chunk(chunk))``; it is at most
``budget - reserved_for_file_list`` (at most ``budget`` when ``reserve_file_list`` is off),
and ``file_list_tokens <= reserved_for_file_list``: a request made of the file list and one
chunk stays within ``budget``.

As prompt text (:func:`format_chunk`, :func:`format_file_list`), paths are shown with control
characters escaped (``\\x1b``); a file is named as ``old -> new (status, +A/-D)``, or
``binary`` when git gives no line counts. Which files deserve diff text at all is
:mod:`commitdigest.analysis.classify`'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise

from commitdigest.analysis.classify import PATCH_KINDS, FileKind, classify
from commitdigest.analysis.llm.tokens import estimate_tokens, estimate_tokens_capped, min_tokens
from commitdigest.models import Commit, FileChange, FileStatus


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


_GIT_HEADER_PREFIXES = (
    "diff --git ", "index ", "--- ", "+++ ", "new file mode ", "deleted file mode ",
    "similarity index ", "dissimilarity index ", "rename from ", "rename to ", "copy from ",
    "copy to ",
)  # fmt: skip


# ---- diff text ---------------------------------------------------------------------------


def hunk_starts(text: str) -> list[int]:
    """Offsets of the lines that start a hunk (``@@``) in a diff text."""
    starts = [0] if text.startswith("@@") else []
    i = text.find("\n@@")
    while i >= 0:
        starts.append(i + 1)
        i = text.find("\n@@", i + 1)
    return starts


def _reduce_deletions(text: str) -> str:
    """Replace each hunk without added lines by its ``@@`` line and ``[N deleted lines]``."""
    starts = hunk_starts(text)
    out: list[str] = []
    last = 0
    for i, s in enumerate(starts):
        e = starts[i + 1] if i + 1 < len(starts) else len(text)
        if not text.startswith("@@ -", s) or text.find("\n+", s, e) >= 0:
            continue
        deleted = text.count("\n-", s, e)
        if deleted == 0:
            continue
        nl = text.find("\n", s, e)
        header = text[s : nl + 1] if nl >= 0 else text[s:e] + "\n"
        out += [text[last:s], header, f"[{deleted} deleted lines]\n"]
        last = e
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def prepare_patch(patch: str) -> str:
    """A file's diff as sent: git's header lines dropped, deletion-only hunks reduced."""
    first = 0 if patch.startswith("@@") else patch.find("\n@@") + 1
    if first == 0 and not patch.startswith("@@"):
        first = len(patch)  # no hunk at all (mode change, rename ...)
    head = "".join(
        line
        for line in patch[:first].splitlines(keepends=True)
        if not line.startswith(_GIT_HEADER_PREFIXES)
    )
    body = head + _reduce_deletions(patch[first:])
    if body and not body.endswith("\n"):
        body += "\n"
    return body


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


DEFAULT_REQUEST_BUDGET = 24_000
"""Estimated input tokens of a whole request; the caller subtracts the prompt's fixed parts."""
DEFAULT_MAX_CHUNKS = 4
DEFAULT_FILE_SHARE = 0.4
DEFAULT_LIST_SHARE = 0.25

_KIND_REASON = {
    FileKind.LOCK: ListReason.LOCK,
    FileKind.VENDORED: ListReason.VENDORED,
    FileKind.GENERATED: ListReason.GENERATED,
    FileKind.MINIFIED: ListReason.MINIFIED,
    FileKind.BINARY: ListReason.BINARY,
}
_KIND_RANK = {FileKind.SOURCE: 0, FileKind.TEST: 1, FileKind.DOCS: 2, FileKind.CONFIG: 2}
_UNRANKED = 3


# ---- diff text -------------------------------------------------------------------------


def _clip_marker(lines: int) -> str:
    return f"… [{lines} more lines of this file's diff not shown]\n"


def clip_patch(body: str, room: int) -> str | None:
    """The head of ``body`` that fits ``room`` tokens, with a marker line for the rest.

    Whole hunks are kept while they fit; if not even the first one does, it is cut after
    its last fitting line (after its last fitting byte if no line fits). ``None`` if nothing
    fits at all.
    """
    total = body.count("\n") + (0 if body.endswith("\n") else 1)
    avail = room - estimate_tokens(_clip_marker(total))
    if avail <= 0:
        return None
    bounds = hunk_starts(body)
    if not bounds or bounds[0] != 0:
        bounds.insert(0, 0)  # the text before the first hunk (mode lines ...)
    bounds.append(len(body))
    pos = used = hunks = 0
    for s, e in pairwise(bounds):
        if used + min_tokens(e - s) > avail:
            break
        t = estimate_tokens(body[s:e])
        if used + t > avail:
            break
        used, pos = used + t, e
        hunks += body.startswith("@@", s)
    if hunks == 0:  # the first hunk alone is too large: cut it at a line boundary
        while pos < len(body):
            nl = body.find("\n", pos)
            end = len(body) if nl < 0 else nl + 1
            t = estimate_tokens_capped(body[pos:end], avail - used)
            if used + t > avail:
                break
            used, pos = used + t, end
    if pos >= len(body):
        return body
    if pos > 0:
        return body[:pos] + _clip_marker(total - body.count("\n", 0, pos))
    # not even one line fits: cut it; at most 3 UTF-8 bytes a token whatever the script
    raw = body[: 3 * avail].encode("utf-8", "surrogatepass")[: 3 * avail - 1]
    piece = raw.decode("utf-8", "ignore").split("\n", 1)[0]
    return piece + "\n" + _clip_marker(total) if piece else None


# ---- planning --------------------------------------------------------------------------


@dataclass
class _Item:
    order: int  # position in priority order
    file: FileChange
    ref: FileRef
    reason: ListReason | None  # None: a candidate for a chunk
    body: str
    header: str
    body_tokens: int  # exact up to the budget, else merely above it

    def planned(self, patch: str, clipped: bool) -> PlannedFile:
        r = self.ref
        return PlannedFile(
            path=r.path, old_path=r.old_path, status=r.status, additions=r.additions,
            deletions=r.deletions, kind=r.kind, patch=patch, clipped=clipped,
            source_truncated=self.file.patch_truncated,
        )  # fmt: skip

    def listed(self, reason: ListReason) -> ListedFile:
        r = self.ref
        return ListedFile(
            path=r.path, old_path=r.old_path, status=r.status, additions=r.additions,
            deletions=r.deletions, kind=r.kind, reason=reason,
        )  # fmt: skip

    def head_tokens(self) -> int:
        return estimate_tokens(self.header + "\n") + 1  # + the blank line between files

    def fit(self, limit: int) -> tuple[PlannedFile, int] | None:
        """The file within ``limit`` tokens (clipped if need be) and its cost, or None."""
        head = self.head_tokens()
        if head + self.body_tokens <= limit:
            return self.planned(self.body, False), head + self.body_tokens
        clipped = clip_patch(self.body, limit - head)
        if clipped is None:
            return None
        return self.planned(clipped, True), head + estimate_tokens(clipped)


def _reason(f: FileChange, kind: FileKind) -> ListReason | None:
    if kind not in PATCH_KINDS:
        return _KIND_REASON[kind]
    if f.status is FileStatus.DELETED:
        return ListReason.DELETED
    if f.additions == 0 and (f.deletions or 0) > 0:
        return ListReason.DELETION_ONLY
    return None


def _items(files: tuple[FileChange, ...], budget: int) -> list[_Item]:
    keyed = []
    for index, f in enumerate(files):
        kind = classify(f)
        size = (f.additions or 0) + (f.deletions or 0)
        keyed.append(((_KIND_RANK.get(kind, _UNRANKED), -size, f.path, index), f, kind))
    keyed.sort(key=lambda k: k[0])
    items = []
    for order, (_, f, kind) in enumerate(keyed):
        reason = _reason(f, kind)
        body = prepare_patch(f.patch) if reason is None else ""
        if reason is None and (not body or body.isspace()):
            reason, body = ListReason.NO_DIFF, ""
        ref = FileRef(
            path=f.path, old_path=f.old_path, status=f.status, additions=f.additions,
            deletions=f.deletions, kind=kind,
        )  # fmt: skip
        header = f"=== {describe(ref, f.patch_truncated)} ==="
        items.append(
            _Item(order, f, ref, reason, body, header, estimate_tokens_capped(body, budget))
        )
    return items


def _name_files(
    items: list[_Item], header: str, cap: int, note: str
) -> tuple[list[_Item], list[_Item], int]:
    """Split items into those the file list names and the rest; return the list's token bound.

    Chunk candidates are costed with ``note`` (the longest note they can end up with), so
    the bound holds whatever the packing decides.
    """
    used = estimate_tokens(header + "\n")
    omit = estimate_tokens(omitted_line(len(items)) + "\n")
    named = 0
    for i, it in enumerate(items):
        line = list_line(it.ref, note if it.reason is None else listed_note(it.reason))
        cost = estimate_tokens(line + "\n")
        if used + cost + (omit if i + 1 < len(items) else 0) > cap:
            break
        used += cost
        named += 1
    if named < len(items):
        used += omit
    return items[:named], items[named:], used


def _whole(cands: list[_Item]) -> int:
    return sum(it.head_tokens() + it.body_tokens for it in cands)


def _pack(
    cands: list[_Item], room: int, max_chunks: int, file_share: float
) -> tuple[list[list[PlannedFile]], list[_Item]]:
    """First-fit in priority order into at most ``max_chunks`` bins of ``room`` tokens.

    Files are first clipped to ``file_share`` of a bin; once all are placed, the clipped
    ones grow back into the room their bin has left (the first of a bin first).
    """
    if _whole(cands) <= room:
        return [[it.planned(it.body, False) for it in cands]], []
    share = max(1, int(file_share * room))
    bins: list[list[tuple[_Item, PlannedFile, int]]] = []
    used: list[int] = []
    over: list[_Item] = []
    for it in cands:
        fitted = it.fit(share)
        b = next((j for j in range(len(bins)) if fitted and used[j] + fitted[1] <= room), None)
        if b is None and fitted and len(bins) < max_chunks:
            b = len(bins)
            bins.append([])
            used.append(0)
        elif b is None and bins:  # all bins open: show its head in the roomiest one
            b = min(range(len(bins)), key=lambda j: (used[j], j))
            free = room - used[b]
            fitted = it.fit(free) if free >= max(1, share // 4) else None
        if b is None or fitted is None:
            over.append(it)
            continue
        bins[b].append((it, *fitted))
        used[b] += fitted[1]
    for b, content in enumerate(bins):
        for k, (it, pf, cost) in enumerate(content):
            if pf.clipped and used[b] < room and (grown := it.fit(cost + room - used[b])):
                content[k] = (it, *grown)
                used[b] += grown[1] - cost
    return [[pf for _, pf, _ in content] for content in bins], over


def plan_diff(
    commit: Commit,
    budget: int,
    *,
    max_chunks: int = DEFAULT_MAX_CHUNKS,
    file_share: float = DEFAULT_FILE_SHARE,
    list_share: float = DEFAULT_LIST_SHARE,
    reserve_file_list: bool = True,
) -> DiffPlan:
    """Plan ``commit``'s diff text into chunks of at most ``budget`` estimated tokens.

    ``budget`` is for the variable part of one request (file list + one chunk, or the
    chunk alone when ``reserve_file_list`` is false). When the commit does not fit whole,
    a file costing more than ``file_share`` of a chunk is clipped (and grows back into the
    room its chunk has left); the file list names files up to ``list_share`` of ``budget``.
    Deterministic.
    """
    if budget < 0:
        raise ValueError("budget must be >= 0")
    if max_chunks < 1:
        raise ValueError("max_chunks must be >= 1")
    if not 0.0 < file_share <= 1.0 or not 0.0 <= list_share <= 1.0:
        raise ValueError("file_share must be in (0, 1], list_share in [0, 1]")
    items = _items(commit.files, budget)
    header = list_header(len(commit.files), commit.additions, commit.deletions)
    cap = int(list_share * budget)
    # first as one unclipped chunk (its files' lines carry no note), else for the worst case
    named, rest, reserved = _name_files(items, header, cap, "")
    room = max(0, budget - reserved) if reserve_file_list else budget
    cands = [it for it in named if it.reason is None]
    if rest or _whole(cands) > room:
        notes = (chunk_note(max_chunks, max_chunks, True), listed_note(ListReason.OVER_BUDGET))
        named, rest, reserved = _name_files(items, header, cap, max(notes, key=len))
        room = max(0, budget - reserved) if reserve_file_list else budget
        cands = [it for it in named if it.reason is None]
    bins, over = _pack(cands, room, max_chunks, file_share)
    listed = [(it.order, it.listed(it.reason)) for it in named if it.reason is not None]
    listed += [(it.order, it.listed(ListReason.OVER_BUDGET)) for it in over]
    listed.sort(key=lambda x: x[0])
    chunks = [Chunk(files, 0) for files in bins] or [Chunk([], 0)]
    plan = DiffPlan(
        chunks=[replace(c, estimated_tokens=estimate_tokens(format_chunk(c))) for c in chunks],
        listed_only=[x for _, x in listed],
        omitted=[it.file.path for it in rest],
        budget=budget,
        total_files=len(commit.files),
        total_additions=commit.additions,
        total_deletions=commit.deletions,
        reserved_for_file_list=reserved if reserve_file_list else 0,
    )
    return replace(plan, file_list_tokens=estimate_tokens(format_file_list(plan)))
