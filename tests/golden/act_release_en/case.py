"""Act on, first — a release: a version tag on the commit that dates its changelog
section, which announces two breaking changes; English report, Markdown and HTML."""

import actonday

ARGS = actonday.args("en")
HTML = True
build = actonday.build_release
