"""Act on, first — nothing but routine work: one line says that nothing needs action; Chinese report, Markdown and HTML."""

import actonday

ARGS = actonday.args("zh")
HTML = True
build = actonday.build_routine
