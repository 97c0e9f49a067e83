"""Act on, first — nothing but routine work: one line says that nothing needs action; English report, Markdown and HTML."""

import actonday

ARGS = actonday.args("en")
HTML = True
build = actonday.build_routine
