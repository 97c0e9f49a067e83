"""How every git process of ours starts: on the repository we name, with nothing inherited.

A command run inside a git hook or another tool inherits ``GIT_DIR``, ``GIT_WORK_TREE``,
``GIT_INDEX_FILE``, ``GIT_OBJECT_DIRECTORY`` …, which would make git read another
repository than the one named on the command line; a user's ``~/.gitconfig`` (or the
repository's own ``.git/config``) may ask for a pager, colours, an external diff, a
textconv, an fsmonitor hook, other diff prefixes or context, quoted paths, attributes that
hide patches. None of that may change what we read:

* :func:`git_env` is the environment of every git process: every ``GIT_*`` variable is
  dropped except those that only say how to reach a remote (ssh, askpass, certificates,
  proxies, protocol policy) and where git's own programs are; ``LC_ALL=C``, no pager, no
  terminal prompt, no optional locks;
* :data:`GIT_CONFIG` holds ``-c`` settings, which win over every config file, for each
  setting that changes git's output (a command line's own flags — ``--no-color``,
  ``--no-ext-diff``, ``--no-textconv`` — stay where the command is built);
* :func:`git_argv` is the command line: ``git --no-pager [-C repo] -c … <args>``;
* :func:`first_line` is what a failed git said, in one line.

Used by every git call of the package (sources, the radar, mirrors); the ``git`` program
itself is found on ``PATH``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["GIT_CONFIG", "first_line", "git_argv", "git_env"]

# GIT_* variables that only say how to reach a remote or where git's programs are: kept
_KEPT_GIT_VARS = frozenset(
    {
        "GIT_ASKPASS",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_SSH_VARIANT",
        "GIT_SSL_CAINFO",
        "GIT_SSL_CAPATH",
        "GIT_SSL_CERT",
        "GIT_SSL_KEY",
        "GIT_SSL_NO_VERIFY",
        "GIT_PROXY_COMMAND",
        "GIT_PROXY_SSL_CAINFO",
        "GIT_PROXY_SSL_CERT",
        "GIT_PROXY_SSL_KEY",
        "GIT_HTTP_PROXY_AUTHMETHOD",
        "GIT_HTTP_USER_AGENT",
        "GIT_HTTP_LOW_SPEED_LIMIT",
        "GIT_HTTP_LOW_SPEED_TIME",
        "GIT_ALLOW_PROTOCOL",
        "GIT_PROTOCOL_FROM_USER",
        "GIT_EXEC_PATH",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_NOSYSTEM",
    }
)

GIT_CONFIG: tuple[str, ...] = tuple(
    arg
    for setting in (
        "core.pager=cat",
        "core.quotepath=off",
        "core.fsmonitor=false",
        "core.attributesFile=",  # the user's attributes (`* -diff` hides every patch)
        "color.ui=never",
        "color.diff=never",
        "color.grep=never",
        "i18n.logOutputEncoding=UTF-8",
        "log.showSignature=false",
        "log.showRoot=true",
        "log.follow=false",
        "log.decorate=false",
        "diff.noprefix=false",
        "diff.mnemonicPrefix=false",
        "diff.relative=false",
        "diff.srcPrefix=a/",
        "diff.dstPrefix=b/",
        "diff.suppressBlankEmpty=false",
        "diff.context=3",
        "diff.interHunkContext=0",
        "diff.algorithm=myers",
        "diff.colorMoved=no",
        "grep.lineNumber=false",
        "grep.column=false",
        "grep.fullName=false",
        "grep.fallbackToNoIndex=false",
    )
    for arg in ("-c", setting)
)


def git_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every git process of ours runs with (see the module)."""
    source = os.environ if environ is None else environ
    env = {k: v for k, v in source.items() if not k.startswith("GIT_") or k in _KEPT_GIT_VARS}
    env.update(LC_ALL="C", LANG="C", GIT_PAGER="cat", PAGER="cat", GIT_TERMINAL_PROMPT="0")
    env["GIT_OPTIONAL_LOCKS"] = "0"
    return env


def git_argv(*args: str, repo: Path | None = None) -> list[str]:
    """``git --no-pager [-C repo] <GIT_CONFIG> <args>``."""
    where = ["-C", str(repo)] if repo is not None else []
    return ["git", "--no-pager", *where, *GIT_CONFIG, *args]


def first_line(stderr: bytes | str) -> str:
    """The first non-empty line of git's stderr, without git's ``fatal:``/``error:`` prefix."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    for line in text.splitlines():
        line = line.strip()
        if line:
            for prefix in ("fatal: ", "error: "):
                line = line.removeprefix(prefix)
            return line
    return "no message"
