"""Act on, first — a change the reader's own code uses (--downstream), a public
removal it does not use, and routine docs; English report, Markdown and HTML, and the
Telegram digest."""

import actonday

ARGS = actonday.args("en")
HTML = True
build = actonday.build_downstream
DOWNSTREAM = actonday.DOWNSTREAM
CHAT = (  # the Telegram digest of the day, as `deliver --dry-run` writes it
    '[[deliver]]\nname = "tg"\ntype = "telegram"\nbot_token_env = "TG_TOKEN"\nchat_id = 1\n'
)
