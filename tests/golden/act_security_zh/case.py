"""Act on, first — a security fix (a path traversal, with its CVE) beside routine
work; Chinese report, Markdown and HTML."""

import actonday

ARGS = actonday.args("zh")
HTML = True
build = actonday.build_security
