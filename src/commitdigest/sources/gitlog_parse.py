"""Parse the byte stream of one ``git log --raw -p -z`` run into :class:`Commit`\\ s.

Pure: no I/O. Feed it chunks as they arrive (:meth:`GitLogParser.feed`), then call
:meth:`GitLogParser.close`; each returns the commits completed so far, in stream order.

The stream (``LOG_FORMAT`` below, ``-z``) is, per commit::

    MARKER sha \\0 parents \\0 author \\0 email \\0 adate \\0 cdate \\0 message \\0 \\0
    [ \\n  raw entries  \\0  patch sections ]

* raw entries (``-z``): ``:oldmode newmode oldsha newsha STATUS\\0path\\0`` (renames and
  copies: ``Rnnn\\0old\\0new\\0``) - the file list and each file's status;
* patch sections: one ``diff --git`` section per raw entry, in the same order, except that a
  type change (file <-> symlink <-> submodule) is split by git into a deletion and a creation,
  i.e. two sections. Sections are matched to files by that order, never by re-parsing the
  (C-quoted) paths of the patch headers.

Each file's line counts are those ``--numstat`` would print (``None`` for a binary file), counted
here from its patch as the bytes stream by, the part beyond the budget too (``bytes.count``
over the ``+``/``-`` lines after its first hunk header): asking git for them diffs every file a
second time, a third of its time. Two cases differ, as with the GitHub source: a binary file
whose content did not change (a pure rename, a mode change) has no "Binary files" line, so
it counts 0/0 and is not marked binary; a type change counts the lines of both its sections
(a symlink that became a file with the same text: 1/1, where numstat says 0/0).

Paths come unquoted thanks to ``-z``; every text field is decoded as UTF-8 with
``errors="replace"``. Patch bytes beyond the budget (:class:`PatchLimits`) are only searched
(``bytes.find``, ``bytes.count``, one regex for hunk headers): no Python string is built for
their lines, and memory stays bounded by the budget plus one read chunk, however large a diff
is, plus a cut file's hunk headers (at most 52 bytes each; ``FileChange.hunks``: the lines
a cut patch changes are known without its text), plus the whole patches a reader asked for
(``PatchLimits.whole``, ``FileChange.whole_patch``: the radar's modules and changelogs, at
most ``max_whole_bytes_per_commit`` a commit).

Can ``MARKER`` be forged? Commit messages and paths cannot contain NUL bytes, and a patch
line never starts with one; only a text file that git did not consider binary (a NUL after
its first 8,000 bytes) could hold it. So the marker holds a random token drawn anew by each
process (:data:`MARKER`): no byte sequence a commit author writes in advance can match it.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import NoReturn

from commitdigest.errors import GitLogFormatError as GitLogFormatError
from commitdigest.models import Commit, FileChange, FileStatus
from commitdigest.sources.patch_budget import PatchBudget
from commitdigest.sources.patch_budget import PatchLimits as PatchLimits

_TOKEN = "cd" + secrets.token_hex(8)  # unguessable: a commit cannot carry this run's marker
MARKER = b"\x00\x00\x1e" + _TOKEN.encode("ascii") + b"\x1f"
"""Starts every commit in the stream (the ``%x00%x00%x1e<token>%x1f`` of LOG_FORMAT)."""

LOG_FORMAT = f"--format=%x00%x00%x1e{_TOKEN}%x1f%H%x00%P%x00%aN%x00%aE%x00%aI%x00%cI%x00%B%x00"
"""The ``git log`` pretty format this parser reads (author name/email through .mailmap)."""

_DIFF = b"\ndiff --git "
_HUNK = b"\n@@ "
_BINARY = b"\nBinary files "
# a hunk header's numbers, up to its closing "@@" (4 numbers of up to 10 digits: 52 bytes)
_HUNK_HEADER = re.compile(rb"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_HUNK_LINE = re.compile(rb"\n(" + _HUNK_HEADER.pattern + rb")")
_HEADER_BYTES = 52
_KEEP = 64  # tail kept between chunks: a mark, or a hunk header's numbers, may straddle
_HEADER_FIELDS = 7
_PR_RE = re.compile(r"\(#(\d+)\)\s*$")
_STATUS = {
    "A": FileStatus.ADDED,
    "M": FileStatus.MODIFIED,
    "D": FileStatus.DELETED,
    "R": FileStatus.RENAMED,
    "C": FileStatus.COPIED,
    "T": FileStatus.TYPE_CHANGED,
}


def pr_number_from_title(title: str) -> int | None:
    """``"Fix foo (#12) (#345)"`` -> 345: the ``(#N)`` group ending the title, if any."""
    m = _PR_RE.search(title)
    return int(m.group(1)) if m else None


def split_message(message: str) -> tuple[str, str]:
    """(title, body): the first line, and the rest stripped."""
    title, _, body = message.strip("\n").partition("\n")
    return title.strip(), body.strip()


class _Incomplete(Exception):
    """More bytes are needed before this part of the stream can be parsed."""


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


@dataclass(slots=True)
class _FileMeta:
    path: str
    old_path: str | None
    status: FileStatus
    additions: int | None = 0
    deletions: int | None = 0
    binary: bool = False
    headers: tuple[bytes, ...] = ()  # its hunk headers' first bytes, as git wrote them
    sections: int = 1  # patch sections git writes for it (2 for a type change)
    old_blob: str | None = None
    new_blob: str | None = None


@dataclass(slots=True)
class _Pending:
    """A commit whose header and file list are parsed and whose patch is being read."""

    fields: list[bytes]
    files: list[_FileMeta]
    budget: PatchBudget
    counts: _LineCounts


class _LineCounts:
    """The lines each patch section of one commit adds and removes, and whether it is binary:
    what ``--numstat`` would print, counted from the bytes as they stream by; and its hunk
    headers, the part beyond the budget too (a cut patch's changed lines without its text)."""

    __slots__ = ("_hunks", "headers", "sections")

    def __init__(self) -> None:
        self.sections: list[list[int]] = [[0, 0, 0]]  # added, removed, binary
        self.headers: list[list[bytes]] = [[]]  # each section's hunk headers (their start)
        self._hunks = False  # the section's first hunk header was seen

    def next_section(self) -> None:
        self.sections.append([0, 0, 0])
        self.headers.append([])
        self._hunks = False

    def count(self, b: bytes, start: int, stop: int) -> None:
        """Count the lines of the current section that start in ``b[start:stop]``. A mark
        that straddles ``stop`` is seen whole: the caller keeps bytes beyond it (``_KEEP``)."""
        n = len(b)
        section = self.sections[-1]
        if not self._hunks:  # the header: "--- a/x" and "+++ b/x" are not lines of the file
            if b.find(_BINARY, start, min(n, stop + len(_BINARY) - 1)) >= 0:
                section[2] = 1
            first = b.find(_HUNK, start, min(n, stop + len(_HUNK) - 1))
            if first < 0:
                return
            self._hunks = True
            start = first
        section[0] += b.count(b"\n+", start, min(n, stop + 1))
        section[1] += b.count(b"\n-", start, min(n, stop + 1))
        headers = self.headers[-1]  # kept as bytes: read only if the patch is cut
        headers.extend(_HUNK_LINE.findall(b, start, stop))  # one C loop for the whole part
        last = b.rfind(_HUNK, max(start, stop - _HEADER_BYTES), min(n, stop + len(_HUNK) - 1))
        if last >= 0:  # a header that starts here and ends after stop (the bytes are here)
            m = _HUNK_HEADER.match(b, last + 1)
            if m is not None and m.end() > stop:
                headers.append(m.group())

    def apply(self, files: list[_FileMeta]) -> None:
        """Give each file the counts of its sections (a type change has two; sections git
        wrote beyond the list belong to the last file, as their patch does)."""
        k = 0
        for index, f in enumerate(files):
            take = f.sections if index < len(files) - 1 else len(self.sections) - k
            mine = self.sections[k : k + take]
            f.headers = tuple(h for headers in self.headers[k : k + take] for h in headers)
            k += take
            if any(s[2] for s in mine):
                f.additions, f.deletions, f.binary = None, None, True
            else:
                f.additions = sum(s[0] for s in mine)
                f.deletions = sum(s[1] for s in mine)


class GitLogParser:
    """Incremental parser: ``feed`` chunks, then ``close``."""

    def __init__(
        self,
        limits: PatchLimits | None = None,
        *,
        web_url: str | None = None,
        commit_template: str | None = None,
    ) -> None:
        self._limits = limits or PatchLimits()
        web = web_url.rstrip("/") if web_url else None
        # the commit link with "{sha}" to fill (the host's pattern), else <web>/commit/<sha>
        self._template = commit_template or (f"{web}/commit/{{sha}}" if web else None)
        self._buf = b""
        self._pending: _Pending | None = None
        self._closed = False
        self._wait_for = 0  # don't re-parse an incomplete header before the buffer is this big

    def feed(self, data: bytes) -> list[Commit]:
        if self._closed:
            raise ValueError("feed() after close()")
        self._buf = self._buf + data if self._buf else data
        if len(self._buf) < self._wait_for:
            return []  # an incomplete header/file list: retry once the buffer has doubled
        return self._run(eof=False)

    def close(self) -> list[Commit]:
        out = self._run(eof=True)
        self._closed = True
        if self._buf:
            raise GitLogFormatError("truncated git log output at end of stream")
        return out

    # ---- the loop ----------------------------------------------------------------------

    def _run(self, *, eof: bool) -> list[Commit]:
        out: list[Commit] = []
        b = self._buf
        pos = 0
        n = len(b)
        while pos < n or (eof and self._pending is not None):
            if self._pending is None:
                try:
                    pos, done = self._start_commit(b, pos, eof)
                except _Incomplete:
                    self._wait_for = 2 * (n - pos)
                    break
                if done is not None:
                    out.append(done)
                continue
            pos, finished = self._consume_patch(b, pos, eof)
            if finished:
                out.append(self._finish())
            elif not eof:
                break
        self._buf = b[pos:] if pos < n else b""
        if self._pending is not None or not self._buf:
            self._wait_for = 0
        return out

    # ---- header and file list ----------------------------------------------------------

    def _start_commit(self, b: bytes, pos: int, eof: bool) -> tuple[int, Commit | None]:
        """Parse header (+ raw entries) at ``pos``; return (new pos, commit if empty)."""
        if not b.startswith(MARKER, pos):
            if len(b) - pos < len(MARKER) and MARKER.startswith(b[pos:]) and not eof:
                raise _Incomplete
            raise GitLogFormatError(f"expected a commit header, got {b[pos : pos + 40]!r}")
        i = pos + len(MARKER)
        fields: list[bytes] = []
        for _ in range(_HEADER_FIELDS):
            j = b.find(b"\x00", i)
            if j < 0:
                self._incomplete_or_error(eof, "commit header")
            fields.append(b[i:j])
            i = j + 1
        if i >= len(b):  # the -z terminator
            self._incomplete_or_error(eof, "commit header")
        if b[i] != 0:
            raise GitLogFormatError("commit header not NUL-terminated")
        i += 1
        if i >= len(b) and not eof:
            raise _Incomplete
        if i >= len(b) or b.startswith(MARKER, i):
            return i, self._build(fields, [], [], commit_cut=False)
        if b[i] != 0x0A:  # "\n" before the raw entries; else maybe a partial marker
            if not eof and len(b) - i < len(MARKER) and MARKER.startswith(b[i:]):
                raise _Incomplete
            raise GitLogFormatError(f"unexpected bytes after commit header: {b[i : i + 40]!r}")
        i, files = self._parse_file_list(b, i + 1, eof)
        keep = self._limits.whole
        whole = [not f.old_path and keep(f.path) for f in files] if keep is not None else []
        budget = PatchBudget([f.sections for f in files], self._limits, whole)
        self._pending = _Pending(fields=fields, files=files, budget=budget, counts=_LineCounts())
        return i, None

    def _incomplete_or_error(self, eof: bool, what: str) -> NoReturn:
        if eof:
            raise GitLogFormatError(f"truncated {what}")
        raise _Incomplete

    def _parse_file_list(self, b: bytes, i: int, eof: bool) -> tuple[int, list[_FileMeta]]:
        files: list[_FileMeta] = []
        n = len(b)
        find = b.find
        while i < n and b[i] == 0x3A:  # ":" raw entry
            i_raw = i
            j = find(b"\x00", i)
            if j < 0:
                self._incomplete_or_error(eof, "raw entry")
            token = b[b.rfind(b" ", i, j) + 1 : j]  # "M", "A", ... or "R085" (with a score)
            letter = chr(token[0]) if token else "?"
            k = find(b"\x00", j + 1)
            if k < 0:
                self._incomplete_or_error(eof, "raw entry")
            first = b[j + 1 : k]
            i = k + 1
            old: bytes | None = None
            if letter in ("R", "C"):
                m = find(b"\x00", i)
                if m < 0:
                    self._incomplete_or_error(eof, "raw entry")
                old, first, i = first, b[i:m], m + 1
            status = _STATUS.get(letter, FileStatus.MODIFIED)
            header = b[i_raw + 1 : b.rfind(b" ", i_raw, j)].split()  # modes and blob ids
            files.append(
                _FileMeta(
                    path=_text(first),
                    old_path=_text(old) if old is not None else None,
                    status=status,
                    sections=2 if status is FileStatus.TYPE_CHANGED else 1,
                    old_blob=_blob_id(header, 2),
                    new_blob=_blob_id(header, 3),
                )
            )
        if i >= n:
            self._incomplete_or_error(eof, "file list")
        if b[i] != 0:
            raise GitLogFormatError(f"file list not NUL-terminated: {b[i : i + 40]!r}")
        return i + 1, files

    # ---- patches -----------------------------------------------------------------------

    def _consume_patch(self, b: bytes, pos: int, eof: bool) -> tuple[int, bool]:
        """Read patch bytes from ``pos``; return (new pos, whether the commit ended)."""
        assert self._pending is not None
        budget = self._pending.budget
        n = len(b)
        mpos = b.find(MARKER, pos)
        if mpos >= 0:
            end = search_end = mpos
        else:
            end = n if eof else max(pos, n - _KEEP)
            search_end = n
        counts = self._pending.counts
        while pos < end:
            d = b.find(_DIFF, pos, search_end)
            stop = d + 1 if 0 <= d < end else end
            counts.count(b, pos, stop)
            if budget.taking:  # once spent, the bytes are only counted (but a whole file's)
                budget.append(b, pos, stop)
            pos = stop
            if stop == d + 1:
                counts.next_section()
                budget.next_section()
        return pos, mpos >= 0 or eof

    def _finish(self) -> Commit:
        p = self._pending
        assert p is not None
        self._pending = None
        patches, commit_cut = p.budget.finish()
        if p.files:
            p.counts.apply(p.files)
        return self._build(p.fields, p.files, patches, commit_cut=commit_cut)

    # ---- output ------------------------------------------------------------------------

    def _build(
        self,
        fields: list[bytes],
        files: list[_FileMeta],
        patches: list[tuple[str, bool, str]],
        *,
        commit_cut: bool,
    ) -> Commit:
        sha_b, parents_b, name_b, email_b, adate_b, cdate_b, msg_b = fields
        sha = sha_b.decode("ascii", "replace")
        title, body = split_message(_text(msg_b))
        authored = parse_git_date(adate_b)
        committed = parse_git_date(cdate_b)
        if committed is None:
            if authored is None:
                raise GitLogFormatError(f"bad dates in commit {sha}")
            committed = authored  # a commit is placed by the one date that can be read
        authored_at = authored if authored is not None else committed
        committed_at = committed
        changes = tuple(
            FileChange(
                path=f.path,
                old_path=f.old_path,
                status=f.status,
                additions=f.additions,
                deletions=f.deletions,
                binary=f.binary,
                patch=patch,
                patch_truncated=cut,
                hunks=b"\n".join(f.headers).decode("ascii") if cut and not whole else "",
                whole_patch=whole,
                old_blob=f.old_blob,
                new_blob=f.new_blob,
            )
            for f, (patch, cut, whole) in zip(files, patches, strict=True)
        )
        return Commit(
            sha=sha,
            parents=tuple(parents_b.decode("ascii", "replace").split()),
            title=title,
            body=body,
            author="" if name_b == b"%aN" else _text(name_b),  # git prints the placeholder
            author_email="" if email_b == b"%aE" else _text(email_b),  # for an unreadable ident
            authored_at=authored_at,
            committed_at=committed_at,
            files=changes,
            url=self._template.replace("{sha}", sha) if self._template else None,
            pr_number=pr_number_from_title(title),
            patch_truncated=commit_cut,
        )


_ISO = re.compile(rb"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:([+-])(\d\d):?(\d\d)|Z)?")


def parse_git_date(raw: bytes) -> datetime | None:
    """A ``%aI``/``%cI`` date; an offset Python refuses (``+99:59``: git accepts any) is
    applied by hand, giving the same instant in UTC. ``None`` when nothing can be read."""
    text = raw.strip()
    try:
        return datetime.fromisoformat(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        pass
    m = _ISO.fullmatch(text)
    if m is None:
        return None
    try:
        local = datetime.fromisoformat(m.group(1).decode("ascii"))
    except ValueError:
        return None
    if m.group(2) is None:
        return local.replace(tzinfo=UTC)
    offset = timedelta(hours=int(m.group(3)), minutes=int(m.group(4)))
    if m.group(2) == b"-":
        offset = -offset
    try:
        return (local - offset).replace(tzinfo=UTC)
    except OverflowError:
        return None


def _blob_id(header: list[bytes], index: int) -> str | None:
    """A raw entry's full blob id (``--no-abbrev``); None for the null id of an absent side,
    an abbreviated id or a malformed entry."""
    if len(header) <= index:
        return None
    oid = header[index]
    if len(oid) not in (40, 64) or not oid.strip(b"0"):
        return None
    try:
        return oid.decode("ascii")
    except UnicodeDecodeError:
        return None


def parse_log(
    data: bytes, limits: PatchLimits | None = None, *, web_url: str | None = None
) -> list[Commit]:
    """Parse a whole stream at once (tests, small outputs)."""
    parser = GitLogParser(limits, web_url=web_url)
    return parser.feed(data) + parser.close()
