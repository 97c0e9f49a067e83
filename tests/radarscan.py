"""The radar over ``git log A..B`` of a fixture repository (oldest first), the way the report
feeds it: each commit's paths and blob ids (``--raw --no-abbrev``), blobs through the
source's reader."""

from __future__ import annotations

import subprocess
from pathlib import Path

from commitdigest.analysis.radar.driver import CommitInput, scan_window
from commitdigest.models import ApiChange
from commitdigest.sources.blobs import BlobReader

_NULL = "0" * 40


def scan_log(repo: Path, rev_range: str) -> dict[str, list[ApiChange]]:
    fmt = "%x1e%H%x1f%P%x1f%s%x1f%b%x1f"
    out = subprocess.run(
        ["git", "log", "--reverse", "--first-parent", "-M", "--raw", "--no-abbrev",
         f"--format={fmt}", rev_range],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    commits: list[CommitInput] = []
    for rec in out.split("\x1e")[1:]:
        sha, parents, title, body, raw = rec.split("\x1f")
        paths: list[str] = []
        before: dict[str, str] = {}
        after: dict[str, str] = {}
        for line in raw.splitlines():
            if not line.startswith(":"):
                continue
            meta, *names = line.split("\t")
            _, _, old_id, new_id, _ = meta[1:].split(" ")
            old_path, new_path = names[0], names[-1]
            paths.extend(dict.fromkeys([old_path, new_path]))
            if old_id != _NULL:
                before[old_path] = old_id
            if new_id != _NULL:
                after[new_path] = new_id
        commits.append(
            CommitInput(sha, parents.split()[0] if parents else None, title, body.strip(),
                        tuple(dict.fromkeys(paths)), before, after)
        )  # fmt: skip
    with BlobReader(repo) as reader:
        return scan_window(reader, commits)
