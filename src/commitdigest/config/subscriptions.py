"""Followed repositories: what a ``[[repositories]]`` entry is, and edits of the file's text.

A name is ``owner/repo`` (GitHub), a repository URL (``https://github.com/owner/repo``,
``git@github.com:owner/repo.git``, any other git host), or a local path (anything else:
write a relative path as ``./dir`` when it looks like ``owner/repo``). Two entries are the
same repository when their :attr:`Repository.key` is equal: owner/repo and URL forms are
case-folded, paths normalised.

The edit functions work on the file's text and change only the lines of the entry they
add or remove, so comments and unrelated keys survive byte for byte; each result is parsed
again and compared with the intended data before it is returned.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import PrivateAttr, field_validator, model_validator

from commitdigest.models import Focus as Focus
from commitdigest.models import Subscription

NEW_FILE_HEADER = """\
# commitdigest configuration: every field is described in docs/config.md.
# Secrets never go in this file: set OPENAI_API_KEY and GITHUB_TOKEN (or GH_TOKEN) in the
# environment. COMMITDIGEST_* variables override any key (COMMITDIGEST_LLM__MODEL=...).
"""

_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_REPO = r"[A-Za-z0-9._-]+"
_SLUG = re.compile(rf"({_OWNER})/({_REPO})")
_URL = re.compile(
    r"(?:(?:https?|ssh|git)://(?:[^@/\s]+@)?(?P<host>[^/:\s]+)(?::\d+)?/"  # scheme://host/
    r"|[^@/\s]+@(?P<scp>[^/:\s]+):(?!/)"  # git@host:
    r"|(?P<bare>(?:www\.)?github\.com)/)"  # github.com/
    r"(?P<path>[^\s]+?)(?:\.git)?/?"
)
_HEADER = re.compile(r"\s*(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?\s*(?:#.*)?")


def parse_repository_name(name: str) -> tuple[Literal["github", "url", "path"], str, str | None]:
    """``(kind, key, owner/repo or None)``; ValueError for a GitHub URL without owner/repo."""
    if (m := _SLUG.fullmatch(name)) and m.group(2) not in {".", ".."}:
        return "github", f"github.com/{name.lower()}", name
    if m := _URL.fullmatch(name):
        host = (m.group("host") or m.group("scp") or m.group("bare")).lower().removeprefix("www.")
        path = m.group("path").strip("/")
        slug = path if _SLUG.fullmatch(path) else None
        if host == "github.com":
            if slug is None:
                raise ValueError(f"not a GitHub repository URL (owner/repo): {name!r}")
            return "github", f"github.com/{slug.lower()}", slug
        return "url", f"{host}/{path.lower()}", slug
    return "path", "path:" + os.path.normpath(os.path.expanduser(name)), None


class Repository(Subscription):
    """One ``[[repositories]]`` entry: a :class:`~commitdigest.models.Subscription` as the
    file writes it (a relative path is relative to the file; see :meth:`resolved`), its
    name checked, ``source`` always set, and the day of its weekly digest."""

    source: Literal["github", "git"]  # from the name when left out: github for owner/repo
    # the day `run` writes this repository's weekly digest ("off": none); None: the
    # config's top-level `weekly`
    weekly: (
        Literal["off", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        | None
    ) = None

    _kind: Literal["github", "url", "path"] = PrivateAttr("path")
    _key: str = PrivateAttr("")
    _slug: str | None = PrivateAttr(None)

    @model_validator(mode="before")
    @classmethod
    def _default_source(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("source") is None and "name" in data:
            name = data["name"]
            try:
                kind = parse_repository_name(name.strip())[0] if isinstance(name, str) else ""
            except ValueError:
                kind = "github"  # the name's own check reports the problem
            data = {**data, "source": "github" if kind == "github" else "git"}
        return data

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("must not be empty")
        parse_repository_name(value)
        return value

    @field_validator("branch")
    @classmethod
    def _branch(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        if not value or value.startswith("-") or any(c.isspace() for c in value):
            raise ValueError(f"not a branch name: {value!r}")
        return value

    @model_validator(mode="after")
    def _identity(self) -> Repository:
        self._kind, self._key, self._slug = parse_repository_name(self.name)
        if self.source == "github" and self._slug is None:
            raise ValueError(
                f"source 'github' needs owner/repo or a GitHub URL, not {self.name!r} "
                "(a local path or another host is read with source = 'git')"
            )
        return self

    @property
    def kind(self) -> Literal["github", "url", "path"]:
        """``github`` (owner/repo or a github.com URL), ``url`` (another URL) or ``path``."""
        return self._kind

    @property
    def key(self) -> str:
        """Normalised identity: case-folded owner/repo and URL forms, normalised paths."""
        return self._key

    @property
    def slug(self) -> str | None:
        """``owner/repo`` when the name is one or a URL of one, else None."""
        return self._slug

    @property
    def path(self) -> Path | None:
        """The local path (``~`` expanded) when the name is one."""
        return Path(self.name).expanduser() if self._kind == "path" else None

    def resolved(self, base: Path) -> Repository:
        """This entry as a run reads it: a relative path (the name, a downstream checkout)
        taken as relative to ``base``, the config file's folder."""
        name = self.name
        if self._kind == "path" and not Path(name).expanduser().is_absolute():
            name = str(base / name)
        downstream = tuple(str(base / Path(p).expanduser()) for p in self.downstream)
        return self.model_validate({**self.model_dump(), "name": name, "downstream": downstream})


def find_entry(entries: Sequence[Any], name: str) -> int | None:
    """Index of the raw entry (a dict from the file) that is the same repository as ``name``.

    Entries whose name is missing or malformed are skipped, so a file that is invalid
    elsewhere can still be searched. ValueError when ``name`` itself is malformed.
    """
    key = parse_repository_name(name.strip())[1]
    for i, entry in enumerate(entries):
        raw = entry.get("name") if isinstance(entry, dict) else None
        try:
            if isinstance(raw, str) and parse_repository_name(raw.strip())[1] == key:
                return i
        except ValueError:
            continue
    return None


def append_entry(text: str, entry: dict[str, Any]) -> str:
    """``text`` with a ``[[repositories]]`` table for ``entry`` appended at its end."""
    import tomlkit  # only the commands that edit the file pay for it

    data = tomllib.loads(text)
    if "repositories" in data and not _is_table_array(text):
        raise ValueError("repositories is written as an inline array; edit the file by hand")
    newline = "\r\n" if "\r\n" in text else "\n"
    snippet = tomlkit.dumps({"repositories": [entry]}).replace("\n", newline)
    body = text if not text or text.endswith("\n") else text + newline
    new = body + (newline if body.strip() else "") + snippet
    expected = {**data, "repositories": [*data.get("repositories", []), entry]}
    return _checked(new, expected)


def remove_entry(text: str, index: int) -> str:
    """``text`` without the ``index``-th ``[[repositories]]`` table.

    Removed with it: its sub-tables, the comment lines right above its header (no blank
    line between) and the blank lines after it; the comment lines right above the next
    header stay, they describe what follows.
    """
    data = tomllib.loads(text)
    entries = data.get("repositories", [])
    lines = text.splitlines(keepends=True)
    headers = [(i, m.group(1), m.group(2)) for i, m in _headers(lines)]
    starts = [i for i, brackets, name in headers if brackets == "[[" and name == "repositories"]
    if len(starts) != len(entries) or not 0 <= index < len(starts):
        raise ValueError("cannot find the entry's lines; edit the file by hand")
    start = starts[index]
    end = next(
        (i for i, _, name in headers if i > start and not name.startswith("repositories.")),
        len(lines),
    )
    while end > start + 1 and lines[end - 1].lstrip().startswith("#"):
        end -= 1  # the next header's comments
    while start > 0 and lines[start - 1].lstrip().startswith("#"):
        start -= 1  # this entry's comments
    kept = lines[:start] + lines[end:]
    if end == len(lines):  # the entry ended the file: so do its blank lines before it
        while kept and not kept[-1].strip():
            kept.pop()
    new = "".join(kept)
    rest = entries[:index] + entries[index + 1 :]
    expected = {k: v for k, v in data.items() if k != "repositories"}
    if rest:
        expected["repositories"] = rest
    return _checked(new, expected)


def _headers(lines: list[str]) -> list[tuple[int, re.Match[str]]]:
    found = [(i, _HEADER.fullmatch(line.rstrip("\r\n"))) for i, line in enumerate(lines)]
    return [(i, m) for i, m in found if m is not None]


def _is_table_array(text: str) -> bool:
    headers = _headers(text.splitlines())
    return any(m.group(1) == "[[" and m.group(2) == "repositories" for _, m in headers)


def _checked(new: str, expected: dict[str, Any]) -> str:
    """Refuse an edit whose text does not parse back to exactly the intended data."""
    try:
        if tomllib.loads(new) == expected:
            return new
    except tomllib.TOMLDecodeError:
        pass
    raise ValueError("the file's layout is too unusual to edit safely; edit it by hand")
