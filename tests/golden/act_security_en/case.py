"""Act on, first — a security fix (a path traversal, with its CVE) beside routine
work; English report, Markdown and HTML."""

import actonday

ARGS = actonday.args("en")
HTML = True
build = actonday.build_security
