"""Analyser text (restricted Markdown) as safe HTML: the HTML counterpart of
:mod:`commitdigest.render.mdtext`.

The text goes through the same sanitisers as in the Markdown report, then markdown-it-py
renders it with raw HTML and images disabled and links restricted to http(s) URLs
(:func:`commitdigest.text.safe_url`). Commit text (titles, names) never comes here: the
templates escape it as plain text.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markupsafe import Markup

from commitdigest.render.mdtext import sanitize_block, sanitize_inline
from commitdigest.text import safe_url

__all__ = ["SafeMarkdown", "render_block", "render_inline"]


class SafeMarkdown(MarkdownIt):
    """CommonMark without raw HTML or images; links only to http(s) URLs."""

    def __init__(self) -> None:
        super().__init__("commonmark", {"html": False})
        self.disable("image")

    def validateLink(self, url: str) -> bool:  # markdown-it's name
        return safe_url(url) is not None


_MD = SafeMarkdown()


def render_inline(text: str) -> Markup:
    """One line of analyser text (restricted Markdown) as safe inline HTML."""
    return Markup(_MD.renderInline(sanitize_inline(text)))


def render_block(text: str) -> Markup:
    """Analyser text (paragraphs, a list, code) as safe HTML blocks."""
    return Markup(_MD.render(sanitize_block(text)))
