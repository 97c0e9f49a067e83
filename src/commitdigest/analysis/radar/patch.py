"""A commit's patch of one file, read for the radar: the lines it changes and their numbers,
the lines a cut patch's hunk headers span, and the new version of the file made from the
old one and the patch (so that a file the source already diffed is not read from git and
decoded again: fastapi's 700 KB release notes, one line added at each of 116 commits).

A patch here is git's unified diff of one file, as the source read it (``git log -p``
with ``--no-textconv``/``--no-ext-diff``: the blobs' own lines, split at ``\\n`` only).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from commitdigest.analysis.radar.kept import ByText

__all__ = [
    "HUNK",
    "LINES",
    "Hunk",
    "PatchReading",
    "hunk_lines",
    "lines_of",
    "patch_changes",
    "patched",
]

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)


class Hunk(NamedTuple):
    """One hunk: where it starts in the old file and in the new one (0-based line
    indices), the old lines it covers (context and removed, as text) and the new lines that
    replace them (context and added)."""

    start: int
    new_start: int
    old: str
    new: str


class PatchReading(NamedTuple):
    changed: str  # the lines the patch adds or removes, without their marks
    removed: frozenset[int]  # the numbers of the removed lines in the old file (1-based)
    added: frozenset[int]  # those of the added lines in the new file
    hunks: tuple[Hunk, ...]


def _hunks_of(patch: str) -> str:
    """A unified diff from its first hunk header on (its ``--- a/x``/``+++ b/x`` header
    left out, so that a removed line ``-- x`` is never taken for one); "" without hunks."""
    if patch.startswith("@@"):
        return patch
    at = patch.find("\n@@")
    return patch[at + 1 :] if at >= 0 else ""


def _text(lines: list[str], unterminated: bool) -> str:
    """Lines as file text: each ends with ``\\n`` but the last when git said it has none."""
    if not lines:
        return ""
    return "\n".join(lines) + ("" if unterminated else "\n")


def patch_changes(patch: str) -> PatchReading:
    """What a whole unified diff changes, in one pass over it."""
    changed: list[str] = []
    removed: list[int] = []
    added: list[int] = []
    hunks: list[Hunk] = []
    old = new = 0
    start = new_start = -1  # the current hunk's first lines (0-based); -1 before the first
    old_lines: list[str] = []
    new_lines: list[str] = []
    old_open = new_open = False  # git said the last old / new line has no newline
    last = ""  # the mark of the line before, for "\ No newline at end of file"

    def close() -> None:
        if start >= 0:
            old_text, new_text = _text(old_lines, old_open), _text(new_lines, new_open)
            hunks.append(Hunk(start, new_start, old_text, new_text))

    lines = _hunks_of(patch).split("\n")
    if lines[-1] == "":
        lines.pop()  # the patch's own last line break (an empty context line reads " ")
    crlf = "\r" in patch  # (a CRLF file's changed line is kept as written, without it)
    for line in lines:
        mark = line[:1]
        if mark == " " or not mark:  # (context first: most lines of a patch)
            rest = line[1:]
            old += 1
            new += 1
            old_lines.append(rest)
            new_lines.append(rest)
        elif mark == "+":
            rest = line[1:]
            changed.append(rest.removesuffix("\r") if crlf else rest)
            added.append(new)
            new += 1
            new_lines.append(rest)
        elif mark == "-":
            rest = line[1:]
            changed.append(rest.removesuffix("\r") if crlf else rest)
            removed.append(old)
            old += 1
            old_lines.append(rest)
        elif mark == "\\":  # "\ No newline at end of file": of the line before
            old_open = old_open or last in (" ", "-", "")
            new_open = new_open or last in (" ", "+", "")
        elif mark == "@":
            m = HUNK.match(line)
            if m:
                close()
                old, new = int(m.group(1)), int(m.group(3))
                start = old if m.group(2) == "0" else old - 1  # -a,0: lines go after line a
                new_start = new if m.group(4) == "0" else new - 1
                old_lines, new_lines = [], []
                old_open = new_open = False
        last = mark
    close()
    return PatchReading("\n".join(changed), frozenset(removed), frozenset(added), tuple(hunks))


def hunk_lines(headers: str) -> tuple[frozenset[int], frozenset[int]]:
    """(lines of the old file, lines of the new file) that the hunks of ``headers`` span,
    1-based: the lines they change and their context (what reads around changed lines
    reads a little more, and finds the same)."""
    old: set[int] = set()
    new: set[int] = set()
    for m in HUNK.finditer(headers):
        a, c = int(m.group(1)), int(m.group(3))
        old.update(range(a, a + int(m.group(2) or 1)))
        new.update(range(c, c + int(m.group(4) or 1)))
    return frozenset(old), frozenset(new)


LINES: ByText[list[str]] = ByText(256)  # the lines of the last versions read or made


def lines_of(text: str) -> list[str]:
    """``text.split("\\n")``: kept for the text object, so that a version made by a patch
    is not split again (its lines are its neighbour's and the hunks'), nor one read twice."""
    lines = LINES.get(text)
    if lines is None:
        lines = text.split("\n")
        LINES.put(text, lines)
    return lines


def patched(text: str, hunks: tuple[Hunk, ...], *, backwards: bool = False) -> str | None:
    """The new version of a file: its old ``text`` with ``hunks`` (a whole patch's, from
    :func:`patch_changes`) applied; ``backwards``: the old version, from the new ``text``.
    None when the hunks do not fit ``text`` (the lines they replace are not its lines
    there), so that the file is read instead. Its lines are made with it
    (:func:`lines_of`): the old text's lines before, between and after the hunks (the same
    string objects) and the hunks' own; its text is those lines joined, once (the lines
    are ``text.split("\\n")``: joined they are the text; the old text's pieces between the
    hunks, found by joining the lines before each hunk to measure them, copied the file
    three times)."""
    lines = lines_of(text)
    out: list[str] = []
    at = 0  # lines[:at] are in out (copied or replaced)
    for hunk in hunks:
        start, old, new = (
            (hunk.new_start, hunk.new, hunk.old) if backwards else (hunk.start, hunk.old, hunk.new)
        )
        replaced = old.split("\n")  # (after a last "\n": "")
        open_end = old[-1:] not in ("\n", "")  # git said its last line has no newline
        count = len(replaced) - (0 if open_end else 1)
        end = start + count
        if start < at or end > len(lines) - (0 if open_end else 1):
            return None  # overlapping, or past the end (a terminated line is followed by one)
        if open_end and end != len(lines):
            return None  # an unterminated last line is the file's last
        if lines[start:end] != replaced[:count]:
            return None
        out += lines[at:start]
        made = new.split("\n")
        if open_end:  # the file's last lines: the new ones, as they end
            out += made
        elif made[-1] == "":  # terminated (or none): the lines after the hunk follow
            out += made[:-1]
        elif end == len(lines) - 1 and not lines[end]:  # unterminated, at the file's end
            out += made
            end += 1  # (the "" after the old last newline goes)
        else:
            return None  # an unterminated new line before others
        at = end
    out += lines[at:]
    result = "\n".join(out)
    LINES.put(result, out)
    return result
