"""The browsable archive: a static site (index, repository pages, report pages, Atom
feed) built from a reports folder, rebuilt incrementally, and a local server for it."""

from commitdigest.site.build import BuildResult, build_site
from commitdigest.site.serve import make_server, serve

__all__ = ["BuildResult", "build_site", "make_server", "serve"]
