"""Act on, first — a release: a version tag on the commit that dates its changelog
section, which announces two breaking changes; Chinese report, Markdown and HTML."""

import actonday

ARGS = actonday.args("zh")
HTML = True
build = actonday.build_release
