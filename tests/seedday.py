"""A fixture repository that reproduces the 45-commit day of the seed report 2026-01-13.

Titles, authors and committer times (+08:00) come from the seed's commit table
(tests/fixtures/seed-2026-01-13-table.md, copied from shared/seeds). The files each
commit touches are synthetic but shaped by its title (docs, CI, tests or source).
"""

from __future__ import annotations

import re
from pathlib import Path

from gitfixture import CommitSpec, build_repo

TABLE = Path(__file__).parent / "fixtures" / "seed-2026-01-13-table.md"
ORIGIN = "https://github.com/vllm-project/vllm.git"
_ROW = re.compile(r"^\| (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \| (.+?) \| (.+) \|$")


def seed_rows() -> list[tuple[str, str, str]]:
    """(time, author, title) of each row, newest first, exactly as in the seed."""
    rows = []
    for line in TABLE.read_text(encoding="utf-8").splitlines()[2:]:
        match = _ROW.match(line)
        assert match, line
        rows.append((match[1], match[2], match[3]))
    return rows


def seed_table_lines() -> list[str]:
    return TABLE.read_text(encoding="utf-8").splitlines()


def _files_for(index: int, title: str) -> dict[str, str | bytes | None]:
    lower = title.lower()
    body = "".join(f"line {n} of change {index}\n" for n in range(3 + index * 7 % 40))
    if "doc" in lower or "typo" in lower:
        return {f"docs/page_{index % 5}.md": f"# Page\n{body}"}
    if "[ci]" in lower:
        return {f".buildkite/test_{index % 3}.yaml": body, f"tests/test_{index}.py": body}
    components = ["entrypoints", "v1/attention", "model_executor", "distributed", "v1/core"]
    comp = components[index % len(components)]
    return {f"vllm/{comp}/mod_{index}.py": body, f"tests/{comp}/test_{index}.py": body}


def build_seed_day(path: Path) -> list[str]:
    """Create the repository (with one commit the day before as its root); return SHAs."""
    specs = [
        CommitSpec(
            title="Initial import",
            date="2026-01-12T12:00:00+08:00",
            files={"README.md": "# vllm fixture\n"},
        )
    ]
    for index, (when, author, title) in enumerate(reversed(seed_rows())):
        email = re.sub(r"[^a-z0-9]+", ".", author.lower()).strip(".") or "author"
        specs.append(
            CommitSpec(
                title=title,
                body=f"Change {index} of the seed day.\n\n"
                f"Signed-off-by: {author} <{email}@example.com>",
                author=author,
                email=f"{email}@example.com",
                date=when.replace(" ", "T") + "+08:00",
                files=_files_for(index, title),
            )
        )
    return build_repo(path, specs, origin=ORIGIN)
