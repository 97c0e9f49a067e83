"""How well does the rule analyser's importance agree with the hand-labelled set?

    python bench/importance.py [--verbose]

Reads ``tests/fixtures/importance_labels.jsonl`` (185 real commits of three public
repositories, labelled by hand before the analyser was run on them) and the extracted
fixtures under ``tests/fixtures/importance_set/``, runs ``RuleAnalyser`` on every commit (and the
automation cap the report applies to routine updates) and
prints the agreement, the 3×3 confusion matrix (rows: label, columns: analyser), the rate of
high↔low confusions, the agreement per repository, and the always-medium and always-low
baselines. ``--verbose`` lists every disagreement. Exits 1 when below the floor of issue 12
(≥ 75 % agreement and ≤ 5 % high↔low confusions), else 0. Measures only: nothing here tunes
the analyser.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from commitdigest.models import Commit, FileChange, FileStatus

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "fixtures" / "importance_labels.jsonl"
FIXTURES = ROOT / "tests" / "fixtures" / "importance_set"
LEVELS = ("high", "medium", "low")
FLOOR_AGREEMENT = 0.75
CEILING_HIGH_LOW = 0.05


@dataclass(frozen=True)
class Labelled:
    repository: str
    sha: str
    date: str
    title: str
    label: str
    reason: str


@dataclass(frozen=True)
class Score:
    n: int
    agreement: float
    high_low: float  # share of commits labelled high and rated low, or the reverse
    matrix: dict[tuple[str, str], int]  # (label, predicted) -> count


def load_labels(path: Path = LABELS) -> list[Labelled]:
    rows = [json.loads(s) for s in path.read_text(encoding="utf-8").splitlines() if s.strip()]
    return [Labelled(**row) for row in rows]


def commit_from_fixture(data: dict[str, Any]) -> Commit:
    files = tuple(
        FileChange(
            path=f["path"],
            old_path=f.get("old_path"),
            status=FileStatus(f.get("status", "modified")),
            additions=f.get("additions"),
            deletions=f.get("deletions"),
            binary=f.get("binary", False),
            patch=f.get("patch", ""),
            patch_truncated=f.get("patch_truncated", False),
        )
        for f in data["files"]
    )
    return Commit(
        sha=data["sha"],
        parents=tuple(data.get("parents", ())),
        title=data["title"],
        body=data.get("body", ""),
        author=data["author"],
        author_email=data.get("author_email", ""),
        authored_at=datetime.fromisoformat(data["authored_at"]),
        committed_at=datetime.fromisoformat(data["committed_at"]),
        files=files,
        patch_truncated=data.get("patch_truncated", False),
    )


def load_fixtures(directory: Path = FIXTURES) -> dict[tuple[str, str], Commit]:
    """(repository, sha) -> Commit, from every ``<owner>+<name>.jsonl.gz``."""
    commits: dict[tuple[str, str], Commit] = {}
    for path in sorted(directory.glob("*.jsonl.gz")):
        repo = path.name.removesuffix(".jsonl.gz").replace("+", "/", 1)
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    c = commit_from_fixture(json.loads(line))
                    commits[(repo, c.sha)] = c
    return commits


def score(labels: Sequence[str], predicted: Sequence[str]) -> Score:
    if len(labels) != len(predicted):
        raise ValueError("labels and predictions differ in length")
    n = len(labels)
    matrix = Counter(zip(labels, predicted, strict=True))
    agree = sum(matrix[(lv, lv)] for lv in LEVELS)
    high_low = matrix[("high", "low")] + matrix[("low", "high")]
    return Score(
        n=n,
        agreement=agree / n if n else 0.0,
        high_low=high_low / n if n else 0.0,
        matrix={(a, b): matrix[(a, b)] for a in LEVELS for b in LEVELS},
    )


def passes(s: Score) -> bool:
    return s.agreement >= FLOOR_AGREEMENT and s.high_low <= CEILING_HIGH_LOW


def predict(commits: Sequence[Commit]) -> list[str]:
    from commitdigest.analysis.automation import automation_importance, is_automated
    from commitdigest.analysis.rules import RuleAnalyser

    analyser = RuleAnalyser()
    out = []
    for c in commits:  # as the report rates them: routine updates go through the cap
        analysis = analyser.analyse(c, lang="en")
        if is_automated(c):
            analysis = automation_importance(analysis, c, [], "en")
        out.append(str(analysis.importance.value))
    return out


def format_matrix(s: Score) -> str:
    lines = ["label \\ rules   high  medium     low   total"]
    for a in LEVELS:
        row = [s.matrix[(a, b)] for b in LEVELS]
        lines.append(f"{a:<14}" + "".join(f"{v:>8}" for v in row) + f"{sum(row):>8}")
    cols = [sum(s.matrix[(a, b)] for a in LEVELS) for b in LEVELS]
    lines.append(f"{'total':<14}" + "".join(f"{v:>8}" for v in cols) + f"{s.n:>8}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv or "-v" in argv
    labelled = load_labels()
    fixtures = load_fixtures()
    missing = [x for x in labelled if (x.repository, x.sha) not in fixtures]
    if missing:
        print(f"{len(missing)} labelled commits have no fixture, e.g. {missing[0].sha}")
        return 2
    commits = [fixtures[(x.repository, x.sha)] for x in labelled]
    predicted = predict(commits)
    labels = [x.label for x in labelled]
    s = score(labels, predicted)
    repos = sorted({x.repository for x in labelled})
    print(f"importance agreement on {s.n} hand-labelled commits of {len(repos)} repositories")
    print(f"  labels: {dict(Counter(labels))}   rules: {dict(Counter(predicted))}")
    print(f"agreement:            {s.agreement:6.1%}   (floor {FLOOR_AGREEMENT:.0%})")
    hl, lh = s.matrix[("high", "low")], s.matrix[("low", "high")]
    print(
        f"high<->low confusion: {s.high_low:6.1%}   (ceiling {CEILING_HIGH_LOW:.0%})"
        f"  [{hl} high->low, {lh} low->high]"
    )
    for base in ("medium", "low"):
        b = score(labels, [base] * len(labels))
        print(f"always-{base} baseline: {b.agreement:6.1%}   high<->low {b.high_low:.1%}")
    print()
    print(format_matrix(s))
    print()
    print("per repository:")
    for repo in repos:
        idx = [i for i, x in enumerate(labelled) if x.repository == repo]
        r = score([labels[i] for i in idx], [predicted[i] for i in idx])
        low = score([labels[i] for i in idx], ["low"] * len(idx))
        print(f"  {repo:<18} n={r.n:<4} agreement {r.agreement:6.1%}  high<->low {r.high_low:5.1%}"
              f"  (always-low {low.agreement:.1%})")  # fmt: skip
    if verbose:
        print()
        print("disagreements (label -> rules):")
        for x, p in zip(labelled, predicted, strict=True):
            if x.label != p:
                print(f"  {x.repository} {x.sha[:10]} {x.label}->{p}: {x.title[:70]}  [{x.reason}]")
    ok = passes(s)
    print()
    print("PASS" if ok else "FAIL: below the floor of issue 12")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
