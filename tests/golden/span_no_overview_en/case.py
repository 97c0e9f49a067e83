"""--since/--until with --no-overview, English: kvstore's Monday to Thursday of week 10
(the history of weekly_en), one report a day and none of them with the daily overview
(the default writes one) — four reports, so they are kept as
``expected/<day>.md|.json``."""

import goldenrepos

ARGS = ["--since", "2026-03-02", "--until", "2026-03-06", "--no-overview", "--lang", "en"]
REPOS = {"kvstore": goldenrepos.build_week}
