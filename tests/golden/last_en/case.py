"""--last 3, English, Markdown only: exactly the branch's last three commits (httpkit's
day of llm_en, analysed by the rules), as one report titled with their first and last
commit dates rather than a day."""

import goldenrepos

ARGS = ["--last", "3", "--lang", "en", "--format", "md"]
REPOS = {"httpkit": goldenrepos.build_llm_day}
