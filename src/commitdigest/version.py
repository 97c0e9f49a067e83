"""The installed version of commitdigest: what ``--version`` prints, the ``User-Agent`` and
the MCP server say, and the site's build stamp.

setuptools-scm writes ``_version.py`` from the git tag when the package is installed (it is
not in git); a source tree that was never installed says ``0.0.0+unknown``. Every module
takes the version from here, never from the package root: the root is the library's front
door, above every layer.
"""

from __future__ import annotations

try:
    from commitdigest._version import __version__
except ImportError:  # pragma: no cover - a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
