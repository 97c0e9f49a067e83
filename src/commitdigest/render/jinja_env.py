"""What the HTML report, the Markdown report and the archive site's pages share: their
Jinja2 environment, and the Content-Security-Policy hash of an inline element."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import stat
import tempfile
from functools import cache
from pathlib import Path

import jinja2
import jinja2.bccache

from commitdigest.version import __version__


@cache
def template_environment(package: str, *, autoescape: bool = True) -> jinja2.Environment:
    """The templates in ``<package>/templates``: an undefined name is an error, block tags
    take their line with them, a template's last newline is kept. HTML is autoescaped
    unless ``autoescape`` is False (Markdown, whose values are escaped by filters)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader(package, "templates"),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # packaged templates: no stat() of the file on every render
        bytecode_cache=_bytecode_cache(f"{package}-{'html' if autoescape else 'text'}"),
    )


class _QuietBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between runs (compiling the report's templates took 0.4 s of
    every run); a cache that cannot be read or written is only slower, never an error."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError, TypeError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _bytecode_cache(tag: str) -> jinja2.BytecodeCache | None:
    """A cache folder of this user's only (``<tmp>/commitdigest-jinja-<uid>/<version>/<tag>``:
    the version and the environment's options are in its name, the template's source in
    each entry's checksum); None where no such folder can be made safely."""
    if not hasattr(os, "getuid"):
        return None
    root = Path(tempfile.gettempdir()) / f"commitdigest-jinja-{os.getuid()}"
    folder = root / __version__ / tag
    try:
        root.mkdir(mode=0o700, exist_ok=True)
        info = root.lstat()
        if info.st_uid != os.getuid() or not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o077:
            return None  # not ours alone: never load code another user could have written
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _QuietBytecodeCache(str(folder))


def csp_hash(text: str) -> str:
    """A CSP source expression for an inline element whose content is ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
