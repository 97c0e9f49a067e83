"""Act on, first — a change the reader's own code uses (--downstream), a public
removal it does not use, and routine docs; Chinese report, Markdown and HTML."""

import actonday

ARGS = actonday.args("zh")
HTML = True
build = actonday.build_downstream
DOWNSTREAM = actonday.DOWNSTREAM
