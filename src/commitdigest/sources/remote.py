"""Repositories named by a URL git understands, on any host: what they are called in reports,
where their commits link to, and the name of commitdigest's mirror of them.

Accepted (:func:`parse_remote`): ``https://`` and ``http://`` (nested GitLab groups too),
``ssh://``, scp-like ``user@host:path``, ``git://`` and ``file://``. Credentials in a URL
(``https://user:token@host/…``) are kept only in the URL handed to git; the name, the web
address, the mirror's folder and every message show the URL without them, and the secret
part is registered for redaction (:mod:`commitdigest.redaction`).

Commit links follow the host (:func:`commit_template`): GitHub, Gitee, Gitea and Forgejo
``<web>/commit/<sha>``, GitLab ``<web>/-/commit/<sha>``; a subscription's ``commit_url``
(``https://git.example/{path}/commit/{sha}``) names any other pattern. ``git://`` and
``file://`` repositories have no web address, so no links.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from commitdigest.redaction import register_secret

__all__ = ["Remote", "commit_template", "parse_remote", "web_address"]

_SCP = re.compile(r"^(?:(?P<user>[^@/\s]+)@)?(?P<host>[A-Za-z0-9.-]+):(?P<path>(?!//)[^\s]+)$")
_SCHEMES = ("https", "http", "ssh", "git", "file")


@dataclass(frozen=True)
class Remote:
    """A repository on another machine (or a ``file://`` URL)."""

    url: str  # for git: as given, credentials included
    host: str  # "gitlab.com" ("" for file://)
    path: str  # "group/sub/project", without ".git"
    scheme: str  # https, http, ssh, scp, git or file

    @property
    def display(self) -> str:
        """``gitlab.com/group/sub/project`` (``file://`` URLs: the path)."""
        return f"{self.host}/{self.path}" if self.host else self.path

    @property
    def safe_url(self) -> str:
        """The URL without credentials, for messages."""
        if self.scheme == "scp":
            return f"{self.host}:{self.path}"
        parts = urlsplit(self.url)
        netloc = parts.hostname or ""
        if parts.port:
            netloc += f":{parts.port}"
        return urlunsplit((parts.scheme, netloc, parts.path, "", ""))

    @property
    def mirror_name(self) -> str:
        """A folder name for the mirror: readable and distinct per repository."""
        digest = hashlib.sha256(self.safe_url.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        readable = re.sub(r"[^A-Za-z0-9_.-]+", "_", self.display).strip("._")[:80]
        return f"{readable or 'repo'}-{digest}.git"


def parse_remote(name: str) -> Remote | None:
    """The remote ``name`` names, or ``None`` when it is no URL git understands."""
    name = name.strip()
    if "://" in name:
        parts = urlsplit(name)
        scheme = parts.scheme.lower()
        if scheme not in _SCHEMES:
            return None
        if parts.password:
            register_secret(parts.password)
        path = parts.path.strip("/")
        if scheme != "file" and (not parts.hostname or not path):
            return None
        if scheme == "file":
            return Remote(url=name, host="", path=parts.path.rstrip("/"), scheme="file")
        return Remote(
            url=name,
            host=parts.hostname.lower(),  # type: ignore[union-attr]  # checked above
            path=path.removesuffix(".git"),
            scheme=scheme,
        )
    m = _SCP.match(name)
    if m and "/" not in m.group("host") and not re.match(r"^[A-Za-z]:[\\/]", name):
        return Remote(
            url=name,
            host=m.group("host").lower(),
            path=m.group("path").strip("/").removesuffix(".git"),
            scheme="scp",
        )
    return None


def web_address(remote: Remote) -> str | None:
    """``https://host/path`` for a repository served over http(s) or ssh; ``None`` for
    ``git://`` and ``file://`` (no web page is known)."""
    if remote.scheme in ("git", "file") or not remote.host:
        return None
    if remote.scheme == "http":
        parts = urlsplit(remote.url)
        port = f":{parts.port}" if parts.port else ""
        return f"http://{remote.host}{port}/{remote.path}"
    return f"https://{remote.host}/{remote.path}"


def commit_template(remote: Remote, custom: str | None = None) -> str | None:
    """The commit link with ``{sha}`` left to fill: ``custom`` (its ``{host}`` and ``{path}``
    filled), else the host's own pattern; ``None`` without a web address."""
    if custom:
        return custom.replace("{host}", remote.host).replace("{path}", remote.path)
    web = web_address(remote)
    if web is None:
        return None
    if "gitlab" in remote.host:
        return web + "/-/commit/{sha}"
    return web + "/commit/{sha}"
