"""The radar over ``git log A..B`` of a fixture repository, fed the way the
report feeds it: the git source's commits (paths, blob ids, patches) through
``CommitInput.from_commit``, blobs through the source's reader.

``MODES``: with the patches, newest first as the report feeds them (the radar reads only
around the changed lines where it can, and makes each version from its newer neighbour);
with every patch cut to nothing by the byte budget (the source gives each file's hunk
headers: the radar reads around the lines they span, their context too); or without
patches or hunks (every kind reads whole files, both versions from git: a module is
compared whole, as a package ``__init__`` or a module whose exports change always is);
radar tests run in all three and must find the same."""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from commitdigest.analysis.radar.commit import CommitInput
from commitdigest.analysis.radar.driver import scan_window
from commitdigest.models import ApiChange
from commitdigest.sources.blobs import BlobReader
from commitdigest.sources.git import read_commits
from commitdigest.sources.patch_budget import PatchLimits
from commitdigest.sources.repo_info import resolve_repository_sync

MODES = ("patches", "cut patches", "whole files")


def scan_log(repo: Path, rev_range: str, mode: str = "patches") -> dict[str, list[ApiChange]]:
    wanted = subprocess.run(
        ["git", "rev-list", "--first-parent", "--reverse", rev_range],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    info = resolve_repository_sync(repo, rev_range.split("..")[-1] or None)
    limits = PatchLimits(0, 0) if mode == "cut patches" else PatchLimits()
    commits = asyncio.run(
        read_commits(
            info, datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC), limits=limits
        )
    )
    by_sha = {c.sha: c for c in commits}
    inputs = [CommitInput.from_commit(by_sha[sha]) for sha in wanted]
    if mode == "cut patches":  # no text, and the hunks of every module the commits change
        assert all(not c.patches for c in inputs)
        modules = [f for sha in wanted for f in by_sha[sha].files if f.path.endswith(".py")]
        assert not modules or any(c.hunks for c in inputs)
    if mode == "whole files":
        inputs = [dataclasses.replace(c, patches={}, hunks={}, edited=frozenset()) for c in inputs]
    base = inputs[0].parent if inputs else None
    if mode == "patches":
        inputs = inputs[::-1]
    with BlobReader(repo) as reader:
        return scan_window(reader, inputs, base=base)
