"""Extract the offline fixtures of the hand-labelled importance set from local git histories.

    python bench/extract_importance_set.py MIRRORS_DIR

MIRRORS_DIR holds one bare repository per labelled repository, named ``<owner>+<name>/repo``
(the layout of the fetch tool) or ``<owner>+<name>`` itself. For every commit of
``tests/fixtures/importance_labels.jsonl`` it writes what the analyser needs into
``tests/fixtures/importance_set/<owner>+<name>.jsonl.gz``: title, body, author, dates, parents,
files (path, old path, status, additions, deletions, binary) and each file's patch cut to
4 KB (20 KB for the whole commit). Run once by hand; the tests and the bench only read.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "fixtures" / "importance_labels.jsonl"
OUT = ROOT / "tests" / "fixtures" / "importance_set"
FILE_BYTES = 4096
COMMIT_BYTES = 20480
STATUS = {"A": "added", "M": "modified", "D": "deleted", "R": "renamed", "C": "copied",
          "T": "type_changed"}  # fmt: skip


def git(gitdir: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={gitdir}", *args], capture_output=True, check=True
    ).stdout.decode("utf-8", "replace")


def _files(gitdir: Path, sha: str) -> list[dict[str, Any]]:
    status = git(gitdir, "show", "-M", "--format=", "--name-status", "-z", sha).split("\0")
    files: list[dict[str, Any]] = []
    i = 0
    while i < len(status) and status[i]:
        code = status[i][0]
        if code in "RC":
            files.append({"path": status[i + 2], "old_path": status[i + 1], "status": STATUS[code]})
            i += 3
        else:
            files.append(
                {"path": status[i + 1], "old_path": None, "status": STATUS.get(code, "modified")}
            )
            i += 2
    numstat = git(gitdir, "show", "-M", "--format=", "--numstat", "-z", sha).split("\0")
    counts: dict[str, tuple[int | None, int | None]] = {}
    i = 0
    while i < len(numstat) and numstat[i]:
        add_s, del_s, path = numstat[i].split("\t", 2)
        if path == "":  # rename: old and new path follow
            path = numstat[i + 2]
            i += 3
        else:
            i += 1
        counts[path] = (None if add_s == "-" else int(add_s), None if del_s == "-" else int(del_s))
    budget = COMMIT_BYTES
    for f in files:
        add, dele = counts.get(f["path"], (0, 0))
        f["additions"], f["deletions"] = add, dele
        f["binary"] = add is None
        patch = (
            ""
            if f["binary"]
            else git(
                gitdir,
                "show",
                "-M",
                "--format=",
                "--patch",
                "--no-color",
                sha,
                "--",
                *([f["old_path"], f["path"]] if f["old_path"] else [f["path"]]),
            )
        )
        # keep the hunks only (from the first @@), like the git source does
        at = patch.find("\n@@")
        patch = patch[at + 1 :] if at >= 0 else ""
        cut = min(FILE_BYTES, max(budget, 0))
        raw = patch.encode()
        f["patch_truncated"] = len(raw) > cut
        f["patch"] = raw[:cut].decode("utf-8", "ignore")
        budget -= len(f["patch"].encode())
    return files


def extract(gitdir: Path, sha: str) -> dict[str, Any]:
    fmt = "%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%s%x00%b"
    head = git(gitdir, "log", "-1", f"--format={fmt}", sha).split("\0")
    full, parents, author, email, authored, committed, title, body = head
    files = _files(gitdir, full)
    return {
        "sha": full, "parents": parents.split(), "title": title, "body": body.strip(),
        "author": author, "author_email": email, "authored_at": authored,
        "committed_at": committed, "files": files,
        "patch_truncated": any(f["patch_truncated"] for f in files),
    }  # fmt: skip


def main(argv: list[str]) -> int:
    mirrors = Path(argv[1])
    rows = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line]
    by_repo: dict[str, list[str]] = {}
    for row in rows:
        by_repo.setdefault(row["repository"], []).append(row["sha"])
    OUT.mkdir(parents=True, exist_ok=True)
    for repo, shas in by_repo.items():
        name = repo.replace("/", "+")
        gitdir = mirrors / name / "repo"
        if not gitdir.exists():
            gitdir = mirrors / name
        lines = [
            json.dumps(extract(gitdir, sha), ensure_ascii=False, sort_keys=True) for sha in shas
        ]
        data = ("\n".join(lines) + "\n").encode()
        with gzip.GzipFile(OUT / f"{name}.jsonl.gz", "wb", mtime=0) as fh:
            fh.write(data)
        print(f"{repo}: {len(shas)} commits")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
