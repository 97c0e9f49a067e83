"""What the HTML report, the Markdown report and the archive site's pages share: their
Jinja2 environment, and the Content-Security-Policy hash of an inline element."""

from __future__ import annotations

import base64
import hashlib
from functools import cache

import jinja2


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
    )


def csp_hash(text: str) -> str:
    """A CSP source expression for an inline element whose content is ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
