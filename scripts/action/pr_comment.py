"""Post an upgrade report on the pull request that triggered the workflow, as one comment
kept up to date: a re-run edits the comment it made before (found by a hidden marker)
instead of adding another. Standard library only; run by scripts/action/upgrade.sh.

Usage: python pr_comment.py REPORT.md
Environment (GitHub provides it): GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_TOKEN,
GITHUB_API_URL. Without a pull request in the event, or without a token, it says so and
does nothing. Exit 1 with one line on stderr when the API refuses.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

MARKER = "<!-- commitdigest-upgrade -->"
LIMIT = 65_000  # GitHub refuses a comment body over 65,536 characters


def body(report: str) -> str:
    """The comment: the marker, then the report, cut at a line when it is too long."""
    text = f"{MARKER}\n{report}"
    if len(text) <= LIMIT:
        return text
    note = "\n\n… (cut here: the whole report is the job's `upgrade-report` file)\n"
    cut = text.rfind("\n", 0, LIMIT - len(note))
    return text[: cut if cut > 0 else LIMIT - len(note)] + note


def _call(method: str, url: str, token: str, payload: dict[str, str] | None = None) -> Any:
    data = json.dumps(payload).encode("utf-8") if payload is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Accept", "application/vnd.github+json")
    request.add_header("X-GitHub-Api-Version", "2022-11-28")
    if data is not None:
        request.add_header("Content-Type", "application/json; charset=utf-8")
    with urllib.request.urlopen(request, timeout=30) as response:
        raw = response.read()
    return json.loads(raw) if raw else None


def number(event_path: str) -> int | None:
    """The pull request's number in the triggering event, if it is one."""
    try:
        event = json.loads(Path(event_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    pull = event.get("pull_request") or {}
    value = pull.get("number")
    return value if isinstance(value, int) else None


def main(argv: list[str]) -> int:
    report = Path(argv[1]).read_text(encoding="utf-8")
    pr = number(os.environ.get("GITHUB_EVENT_PATH", ""))
    token = os.environ.get("GITHUB_TOKEN", "")
    if pr is None:
        print("commitdigest upgrade: not a pull request event, no comment")
        return 0
    if not token:
        print("commitdigest upgrade: no github-token, no comment")
        return 0
    api = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    repo = os.environ["GITHUB_REPOSITORY"]
    try:
        existing = None
        for page in range(1, 11):
            url = f"{api}/repos/{repo}/issues/{pr}/comments?per_page=100&page={page}"
            comments = _call("GET", url, token) or []
            existing = next((c for c in comments if MARKER in (c.get("body") or "")), None)
            if existing is not None or len(comments) < 100:
                break
        text = {"body": body(report)}
        if existing is not None:
            _call("PATCH", f"{api}/repos/{repo}/issues/comments/{existing['id']}", token, text)
            print(f"commitdigest upgrade: updated comment {existing['id']} on #{pr}")
        else:
            _call("POST", f"{api}/repos/{repo}/issues/{pr}/comments", token, text)
            print(f"commitdigest upgrade: commented on #{pr}")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        print(f"error: could not comment on #{pr}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
