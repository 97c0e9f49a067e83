"""The radar over ``git log A..B`` of a fixture repository (oldest first), fed the way the
report feeds it: the git source's commits (paths, blob ids, patches) through
``CommitInput.from_commit``, blobs through the source's reader.

``MODES``: with the patches (the radar reads only around the changed lines where it can)
or without them (as for a patch cut to the byte budget: every kind reads whole files);
radar tests run in both and must find the same."""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from commitdigest.analysis.radar.driver import CommitInput, scan_window
from commitdigest.models import ApiChange
from commitdigest.sources.blobs import BlobReader
from commitdigest.sources.git import read_commits
from commitdigest.sources.repo_info import resolve_repository_sync

MODES = ("patches", "whole files")


def scan_log(repo: Path, rev_range: str, mode: str = "patches") -> dict[str, list[ApiChange]]:
    wanted = subprocess.run(
        ["git", "rev-list", "--first-parent", "--reverse", rev_range],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    info = resolve_repository_sync(repo, rev_range.split("..")[-1] or None)
    commits = asyncio.run(
        read_commits(info, datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC))
    )
    by_sha = {c.sha: c for c in commits}
    inputs = [CommitInput.from_commit(by_sha[sha]) for sha in wanted]
    if mode != "patches":
        inputs = [dataclasses.replace(c, changed={}, numbers={}) for c in inputs]
    with BlobReader(repo) as reader:
        return scan_window(reader, inputs)
