"""commitdigest weekly，中文，Markdown and JSON: kvstore's week 2026-W10 (the history of
weekly_en's first repository). Only the weekly digest is compared."""

import goldenrepos

COMMAND = "weekly"
ARGS = ["--week", goldenrepos.WEEK, "--lang", "zh"]
REPOS = {"kvstore": goldenrepos.build_week}
OUTPUTS = [f"{goldenrepos.WEEK}.*"]
