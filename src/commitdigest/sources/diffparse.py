"""GitHub's commit data per file: the diff media type, the JSON files, budgeted patches.

Pure functions, no I/O:

* :func:`split_diff` cuts a ``git diff``-style text into :class:`DiffSection`\\ s (one per
  ``diff --git`` line): the paths (C-quoted paths unquoted), the status the extended header
  lines give, whether git called the file binary (``Binary files … differ`` or
  ``GIT binary patch``), the body and its ``+``/``-`` line counts;
* :func:`strip_header` is a section without git's header lines (``diff --git``, ``index``,
  modes, renames, ``---``/``+++``): the same text as the ``patch`` field of GitHub's JSON,
  which is how the GitHub source stores every patch, whichever way it was fetched;
* :func:`budget_patches` cuts a commit's patches exactly as the git source's parser does
  (:class:`~commitdigest.sources.gitlog_parse.PatchLimits`: bytes per file, whole lines only,
  then bytes per commit; once the commit budget is spent the remaining files get nothing);
* :func:`file_entry` / :func:`needs_diff` / :func:`fill_from_diff`: a file of GitHub's commit
  JSON as the source stores it, whether the diff is needed for it (a large patch GitHub left
  out, or a possibly binary file - see :mod:`.github_source`), and the completion from the
  diff's sections (and, past GitHub's 3000-file cap, the files only the diff has);
* :func:`commit_entry` / :func:`build_commit`: the commit as stored (by SHA, for good), and
  the :class:`~commitdigest.models.Commit` made from it for one run's patch limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from commitdigest.models import Commit, FileChange, FileStatus
from commitdigest.sources.gitlog_parse import PatchLimits, pr_number_from_title, split_message

_HEADER_PREFIXES = (
    "diff --git ", "index ", "--- ", "+++ ", "old mode ", "new mode ", "new file mode ",
    "deleted file mode ", "similarity index ", "dissimilarity index ", "rename from ",
    "rename to ", "copy from ", "copy to ",
)  # fmt: skip
EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
_STATUS = {
    "added": FileStatus.ADDED,
    "removed": FileStatus.DELETED,
    "modified": FileStatus.MODIFIED,
    "renamed": FileStatus.RENAMED,
    "copied": FileStatus.COPIED,
    "changed": FileStatus.TYPE_CHANGED,
    "unchanged": FileStatus.MODIFIED,
}
_MAY_BE_BINARY = ("added", "modified", "removed", "changed")

_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


@dataclass(frozen=True, slots=True)
class DiffSection:
    path: str
    old_path: str | None  # renames and copies
    status: FileStatus
    binary: bool
    body: str  # the section without its header lines ("" for a pure rename or mode change)
    additions: int
    deletions: int


def unquote_path(text: str) -> str:
    """A path as git writes it: C-quoted (``"a\\tb\\303\\244"``) when unusual, else as is."""
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        return text
    out = bytearray()
    raw = text[1:-1]
    i = 0
    while i < len(raw):
        c = raw[i]
        if c != "\\" or i + 1 >= len(raw):
            out += c.encode("utf-8")
            i += 1
            continue
        nxt = raw[i + 1]
        if nxt in "01234567":
            j = i + 1
            while j < len(raw) and j < i + 4 and raw[j] in "01234567":
                j += 1
            out.append(int(raw[i + 1 : j], 8) & 0xFF)
            i = j
        else:
            out.append(_ESCAPES.get(nxt, ord(nxt) if nxt.isascii() else 63))
            i += 2
    return out.decode("utf-8", "replace")


def _git_line_paths(rest: str) -> tuple[str | None, str | None]:
    """(a-path, b-path) from what follows ``diff --git ``; None where it cannot be told."""
    tokens: list[str] = []
    s = rest
    while s and len(tokens) < 2 and s.startswith('"'):
        end = 1
        while end < len(s) and not (s[end] == '"' and s[end - 1] != "\\"):
            end += 1
        tokens.append(unquote_path(s[: end + 1]))
        s = s[end + 1 :].lstrip(" ")
    if len(tokens) == 2:
        return _drop_prefix(tokens[0]), _drop_prefix(tokens[1])
    if len(tokens) == 1:
        return _drop_prefix(tokens[0]), _drop_prefix(s)
    if s.endswith('"'):  # unquoted a-path, quoted b-path
        start = s.rfind(' "')
        return _drop_prefix(s[:start]), _drop_prefix(unquote_path(s[start + 1 :]))
    n = len(s)  # "a/P b/P": the same P twice (paths with spaces make other splits ambiguous)
    mid = n // 2
    if n % 2 == 1 and s[:2] == "a/" and s[mid : mid + 3] == " b/" and s[2:mid] == s[mid + 3 :]:
        return s[2:mid], s[mid + 3 :]
    return None, None


def _drop_prefix(path: str) -> str:
    return path[2:] if path[:2] in ("a/", "b/") else path


def _header_path(line: str, prefix: str) -> str | None:
    value = line[len(prefix) :].rstrip("\n")
    if value == "/dev/null":
        return None
    if value.startswith('"'):
        value = unquote_path(value)
    elif "\t" in value:  # "--- a/file\t" (git adds a tab after paths with spaces)
        value = value.split("\t", 1)[0]
    return _drop_prefix(value)


def _parse_section(text: str) -> DiffSection:
    lines = text.splitlines(keepends=True)
    a_path, b_path = _git_line_paths(lines[0][len("diff --git ") :].rstrip("\n"))
    status = FileStatus.MODIFIED
    rename_from = rename_to = minus = plus = None
    i = 1
    while i < len(lines) and lines[i].startswith(_HEADER_PREFIXES):
        line = lines[i]
        if line.startswith("new file mode "):
            status = FileStatus.ADDED
        elif line.startswith("deleted file mode "):
            status = FileStatus.DELETED
        elif line.startswith(("rename from ", "copy from ")):
            status = FileStatus.RENAMED if line.startswith("rename") else FileStatus.COPIED
            rename_from = unquote_path(line.split(" ", 2)[2].rstrip("\n"))
        elif line.startswith(("rename to ", "copy to ")):
            rename_to = unquote_path(line.split(" ", 2)[2].rstrip("\n"))
        elif line.startswith("--- "):
            minus = _header_path(line, "--- ")
        elif line.startswith("+++ "):
            plus = _header_path(line, "+++ ")
        i += 1
    body = "".join(lines[i:])
    path = rename_to or plus or minus or b_path or a_path or ""
    old_path = (rename_from or minus or a_path) if status in _MOVES else None
    binary = body.startswith(("Binary files ", "GIT binary patch"))
    additions = deletions = 0
    if not binary:
        for line in lines[i:]:
            if line.startswith("+"):
                additions += 1
            elif line.startswith("-"):
                deletions += 1
    return DiffSection(path, old_path, status, binary, body, additions, deletions)


_MOVES = (FileStatus.RENAMED, FileStatus.COPIED)


def split_diff(text: str) -> list[DiffSection]:
    """The per-file sections of a whole-commit diff, in order."""
    starts: list[int] = [0] if text.startswith("diff --git ") else []
    i = text.find("\ndiff --git ")
    while i >= 0:
        starts.append(i + 1)
        i = text.find("\ndiff --git ", i + 1)
    ends = [*starts[1:], len(text)]
    return [_parse_section(text[s:e]) for s, e in zip(starts, ends, strict=True)]


def strip_header(section: str) -> str:
    """A git ``diff --git`` section without its header lines: hunks (or the binary line)."""
    lines = section.splitlines(keepends=True)
    i = 0
    while i < len(lines) and lines[i].startswith(_HEADER_PREFIXES):
        i += 1
    return "".join(lines[i:])


def budget_patches(
    patches: Sequence[str], limits: PatchLimits
) -> tuple[list[tuple[str, bool]], bool]:
    """``([(kept patch, cut), …], commit cut)``: the git parser's budget, file by file."""
    per_file = limits.max_patch_bytes_per_file
    left = limits.max_patch_bytes_per_commit
    out: list[tuple[str, bool]] = []
    commit_cut = exhausted = False
    for index, text in enumerate(patches):
        if exhausted:
            out.append(("", True))
            commit_cut = True
            continue
        allow = min(per_file, left)
        data = text.encode("utf-8")
        cut = len(data) > allow
        if cut:
            data = data[:allow]
            data = data[: data.rfind(b"\n") + 1]  # whole lines only
            if left < per_file:
                commit_cut = True
        left -= len(data)
        out.append((data.decode("utf-8", "replace") if cut else text, cut))
        if left <= 0 and index + 1 < len(patches):
            exhausted = True
    return out, commit_cut


# ---- GitHub's file entries, completed from the diff ---------------------------------


def file_entry(f: dict[str, Any]) -> dict[str, Any]:
    status = str(f.get("status") or "modified")
    patch = f.get("patch") or ""
    if patch and not patch.endswith("\n"):
        patch += "\n"
    return {
        "path": f["filename"],
        "old_path": f.get("previous_filename") if status in ("renamed", "copied") else None,
        "status": _STATUS.get(status, FileStatus.MODIFIED).value,
        "gh_status": status,
        "blob": f.get("sha"),
        "additions": int(f.get("additions") or 0),
        "deletions": int(f.get("deletions") or 0),
        "binary": False,
        "patch": patch,
        "missing": False,
    }


def needs_diff(f: dict[str, Any]) -> bool:
    if f["patch"]:
        return False
    if f["additions"] + f["deletions"] > 0:
        return True  # GitHub left a large patch out
    return f["gh_status"] in _MAY_BE_BINARY and f["blob"] != EMPTY_BLOB


def fill_from_diff(files: list[dict[str, Any]], sections: list[DiffSection], cap: bool) -> None:
    """Missing patches and binary flags from the diff; with ``cap``, the files past it."""
    by_path: dict[str, DiffSection] = {}
    for s in sections:
        key = s.path
        if key in by_path:  # a type change: git writes a deletion and a creation
            prev = by_path[key]
            s = DiffSection(key, s.old_path, prev.status, prev.binary or s.binary,
                            prev.body + s.body, prev.additions + s.additions,
                            prev.deletions + s.deletions)  # fmt: skip
        by_path[key] = s
    for f in files:
        if not needs_diff(f):
            continue
        found = by_path.get(f["path"])
        if found is None:
            f["missing"] = True
        elif found.binary and f["additions"] == f["deletions"] == 0:
            f.update(binary=True, additions=None, deletions=None, patch=found.body)
        else:
            f["patch"] = found.body
    if cap:
        known = {f["path"] for f in files}
        for s in sections:
            if s.path not in known:
                known.add(s.path)
                files.append({
                    "path": s.path, "old_path": s.old_path, "status": s.status.value,
                    "gh_status": "", "blob": None, "binary": s.binary, "patch": s.body,
                    "additions": None if s.binary else s.additions,
                    "deletions": None if s.binary else s.deletions, "missing": False,
                })  # fmt: skip


def commit_entry(data: dict[str, Any], files: list[dict[str, Any]]) -> dict[str, Any]:
    """A commit as the source stores it: GitHub's commit JSON reduced, and its files."""
    commit = data["commit"]
    author = commit.get("author") or {}
    return {
        "sha": data["sha"],
        "parents": [p["sha"] for p in data.get("parents") or []],
        "message": commit.get("message") or "",
        "author": author.get("name") or "",
        "author_email": author.get("email") or "",
        "authored_at": author["date"],
        "committed_at": commit["committer"]["date"],
        "url": data.get("html_url"),
        "files": files,
    }


def build_commit(
    d: dict[str, Any],
    limits: PatchLimits,
    *,
    pr_number: int | None,
    web_url: str,
    labels: tuple[str, ...] = (),
) -> Commit:
    """The :class:`Commit` of a stored entry, patches cut by ``limits``; the title's ``(#N)``
    wins over ``pr_number`` (the pull-request look-up's), as the git source reads titles."""
    files = d["files"]
    budgeted, commit_cut = budget_patches([f["patch"] for f in files], limits)
    changes = tuple(
        FileChange(
            path=f["path"],
            old_path=f["old_path"],
            status=FileStatus(f["status"]),
            additions=f["additions"],
            deletions=f["deletions"],
            binary=f["binary"],
            patch=patch,
            patch_truncated=cut or f["missing"],
        )
        for f, (patch, cut) in zip(files, budgeted, strict=True)
    )
    title, body = split_message(d["message"])
    from_title = pr_number_from_title(title)
    return Commit(
        sha=d["sha"],
        parents=tuple(d["parents"]),
        title=title,
        body=body,
        author=d["author"],
        author_email=d["author_email"],
        authored_at=datetime.fromisoformat(d["authored_at"]),
        committed_at=datetime.fromisoformat(d["committed_at"]),
        files=changes,
        url=d["url"] or f"{web_url}/commit/{d['sha']}",
        pr_number=from_title if from_title is not None else pr_number,
        labels=labels,
        patch_truncated=commit_cut,
    )
