"""The diff text sent to the model: git's header lines dropped, deletion-only hunks reduced.

Which files deserve diff text at all is :mod:`commitdigest.analysis.classify`'s job.
"""

from __future__ import annotations

_GIT_HEADER_PREFIXES = (
    "diff --git ", "index ", "--- ", "+++ ", "new file mode ", "deleted file mode ",
    "similarity index ", "dissimilarity index ", "rename from ", "rename to ", "copy from ",
    "copy to ",
)  # fmt: skip


# ---- diff text ---------------------------------------------------------------------------


def hunk_starts(text: str) -> list[int]:
    """Offsets of the lines that start a hunk (``@@``) in a diff text."""
    starts = [0] if text.startswith("@@") else []
    i = text.find("\n@@")
    while i >= 0:
        starts.append(i + 1)
        i = text.find("\n@@", i + 1)
    return starts


def _reduce_deletions(text: str) -> str:
    """Replace each hunk without added lines by its ``@@`` line and ``[N deleted lines]``."""
    starts = hunk_starts(text)
    out: list[str] = []
    last = 0
    for i, s in enumerate(starts):
        e = starts[i + 1] if i + 1 < len(starts) else len(text)
        if not text.startswith("@@ -", s) or text.find("\n+", s, e) >= 0:
            continue
        deleted = text.count("\n-", s, e)
        if deleted == 0:
            continue
        nl = text.find("\n", s, e)
        header = text[s : nl + 1] if nl >= 0 else text[s:e] + "\n"
        out += [text[last:s], header, f"[{deleted} deleted lines]\n"]
        last = e
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def prepare_patch(patch: str) -> str:
    """A file's diff as sent: git's header lines dropped, deletion-only hunks reduced."""
    first = 0 if patch.startswith("@@") else patch.find("\n@@") + 1
    if first == 0 and not patch.startswith("@@"):
        first = len(patch)  # no hunk at all (mode change, rename ...)
    head = "".join(
        line
        for line in patch[:first].splitlines(keepends=True)
        if not line.startswith(_GIT_HEADER_PREFIXES)
    )
    body = head + _reduce_deletions(patch[first:])
    if body and not body.endswith("\n"):
        body += "\n"
    return body
