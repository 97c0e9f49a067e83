"""commitdigest run, driven by its commitdigest.toml (beside this file), English: one
combined report of two subscriptions for --date — fetchlib, with the reader's checkout as
the subscription's own `downstream` (so its removed `proxies` argument is listed as
affecting that code), and tally, whose focus on `tally/**` raises its renamed variable from
low to medium."""

import actonday

COMMAND = "run"
ARGS = ["--date", actonday.DAY]
REPOS = {"fetchlib": actonday.build_downstream, "tally": actonday.build_routine}
DOWNSTREAM = actonday.DOWNSTREAM
