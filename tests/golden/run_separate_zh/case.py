"""commitdigest run，中文，separate reports: the commitdigest.toml beside this file sets
run.reports = "separate", so each of three subscriptions of --date gets its own report in
its own folder (``<name>/<day>.md|.json|.html``) and the day gets an index
(``<day>.md|.html``, with the day's context of every repository in ``<day>.json``) — a
release (shapes), a security fix (tokenlib) and routine work (tally). Then the day's
Feishu card, as ``deliver --dry-run`` writes it from that folder."""

import actonday

COMMAND = "run"
ARGS = ["--date", actonday.DAY]
REPOS = {
    "shapes": actonday.build_release,
    "tokenlib": actonday.build_security,
    "tally": actonday.build_routine,
}
CHAT = (  # the day's Feishu card, as `deliver --dry-run` writes it
    '[[deliver]]\nname = "fs"\ntype = "feishu"\nurl_env = "FEISHU_HOOK"\n'
)
