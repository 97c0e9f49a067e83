"""commitdigest weekly, English, Markdown, JSON and HTML: week 2026-W10 of two
repositories — kvstore's week (a feature, a race fixed, a public method removed, docs, a
test, CI on the Saturday; the Friday before and the Monday after left out) and tally's
routine Monday. Only the weekly digest is compared (the dailies it makes first are the
report cases' business); its page draws the days as a chart."""

import actonday
import goldenrepos

COMMAND = "weekly"
ARGS = ["--week", goldenrepos.WEEK, "--lang", "en"]
HTML = True
REPOS = {"kvstore": goldenrepos.build_week, "tally": actonday.build_routine}
OUTPUTS = [f"{goldenrepos.WEEK}.*"]
