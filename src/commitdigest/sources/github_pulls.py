"""The pull request a commit came from: ``GET /repos/{o}/{r}/commits/{sha}/pulls``.

Of the pull requests GitHub lists for a commit, the merged one whose merge commit it is wins,
else the first merged into the branch being read, else the first merged one. A token without
pull-request access (403) turns the look-ups off for the rest of the run; a 404 or 422 skips
one commit. The request is conditional: labels can change.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import GitHubAPIError
from .github_api import GitHubAPI

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PullRequestInfo:
    number: int
    url: str
    title: str
    labels: tuple[str, ...] = ()


def choose_pull(pulls: Iterable[dict[str, Any]], sha: str, branch: str) -> dict[str, Any] | None:
    """The pull request ``sha`` came from on ``branch`` (see the module docstring), or None."""
    merged = [p for p in pulls if isinstance(p, dict) and p.get("merged_at")]
    for p in merged:
        if p.get("merge_commit_sha") == sha:
            return p
    on_branch = [p for p in merged if (p.get("base") or {}).get("ref") == branch]
    chosen = on_branch or merged
    return chosen[0] if chosen else None


class PullRequestLookup:
    """Pull-request look-ups for one repository; ``base`` is its ``/repos/{o}/{r}`` path."""

    def __init__(self, api: GitHubAPI, base: str, name: str) -> None:
        self.api = api
        self.base = base
        self.name = name
        self._off = False

    async def find(self, sha: str, branch: str) -> PullRequestInfo | None:
        if self._off:
            return None
        try:
            reply = await self.api.get(
                f"{self.base}/commits/{sha}/pulls", kind="pulls", conditional=True
            )
        except GitHubAPIError as exc:
            if exc.status in (403, 404, 422):  # e.g. a token without pull-request access
                if not self._off:
                    log.warning("%s: no pull-request look-ups (%s)", self.name, exc)
                self._off = exc.status == 403 or self._off
                return None
            raise
        data = reply.json()
        pr = choose_pull(data if isinstance(data, list) else [], sha, branch)
        if pr is None:
            return None
        labels = tuple(str(lb.get("name")) for lb in pr.get("labels") or [] if lb.get("name"))
        return PullRequestInfo(int(pr["number"]), str(pr.get("html_url") or ""),
                               str(pr.get("title") or ""), labels)  # fmt: skip
