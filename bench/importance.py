"""How well do the rule analyser's importance and change type agree with the labelled set?

    python bench/importance.py [--verbose]

Reads ``tests/fixtures/importance_labels.jsonl`` (492 real commits of nine public
repositories, labelled by hand by ``docs/importance.md`` before the analyser was run on
them) and the extracted fixtures under ``tests/fixtures/importance_set/``, rates every
commit as a report does — ``RuleAnalyser`` with the commit's radar items, a public breaking
radar item raising it to high, the automation cap on routine updates — and prints, for the
change-typed set (276 commits of six projects: Rust, TypeScript, Go and Python) and for the
whole set (importance only):

* the importance agreement, the 3×3 confusion matrix (rows: label, columns: analyser), the
  rate of high↔low confusions, the always-medium and always-low baselines;
* the change-type agreement and its confusion matrix;
* the figures per repository. ``--verbose`` lists every disagreement.

Exits 1 when the typed set is below the floor of issue 25 (importance ≥ 80 %, change type
≥ 75 %, high↔low ≤ 3 %) or the whole set below that of issue 12 (importance ≥ 75 %,
high↔low ≤ 5 %), else 0. Measures only: nothing here tunes the analyser.
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

from commitdigest.models import ApiChange, ChangeType, Commit, FileChange, FileStatus

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "fixtures" / "importance_labels.jsonl"
FIXTURES = ROOT / "tests" / "fixtures" / "importance_set"
LEVELS = ("high", "medium", "low")
TYPES = tuple(t.value for t in ChangeType)
FLOOR_AGREEMENT = 0.75  # issue 12, the whole set
CEILING_HIGH_LOW = 0.05
FLOOR_TYPED_IMPORTANCE = 0.80  # issue 25, the change-typed set
FLOOR_TYPED_CHANGE_TYPE = 0.75
CEILING_TYPED_HIGH_LOW = 0.03


@dataclass(frozen=True)
class Labelled:
    repository: str
    sha: str
    date: str
    title: str
    label: str
    reason: str
    change_type: str | None = None


@dataclass(frozen=True)
class Case:
    """A labelled commit as the analyser sees it: the commit and the radar's items."""

    commit: Commit
    radar: tuple[ApiChange, ...]


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
    )


def load_cases(directory: Path = FIXTURES) -> dict[tuple[str, str], Case]:
    """(repository, sha) -> Case, from every ``<owner>+<name>.jsonl.gz``."""
    cases: dict[tuple[str, str], Case] = {}
    for path in sorted(directory.glob("*.jsonl.gz")):
        repo = path.name.removesuffix(".jsonl.gz").replace("+", "/", 1)
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    data = json.loads(line)
                    radar = tuple(ApiChange(**i) for i in data.get("radar", ()))
                    c = commit_from_fixture(data)
                    cases[(repo, c.sha)] = Case(c, radar)
    return cases


def load_fixtures(directory: Path = FIXTURES) -> dict[tuple[str, str], Commit]:
    """(repository, sha) -> Commit."""
    return {key: case.commit for key, case in load_cases(directory).items()}


def score(
    labels: Sequence[str], predicted: Sequence[str], classes: Sequence[str] = LEVELS
) -> Score:
    if len(labels) != len(predicted):
        raise ValueError("labels and predictions differ in length")
    n = len(labels)
    matrix = Counter(zip(labels, predicted, strict=True))
    agree = sum(matrix[(c, c)] for c in classes)
    high_low = matrix[("high", "low")] + matrix[("low", "high")]
    return Score(
        n=n,
        agreement=agree / n if n else 0.0,
        high_low=high_low / n if n else 0.0,
        matrix={(a, b): matrix[(a, b)] for a in classes for b in classes},
    )


def passes(s: Score) -> bool:
    return s.agreement >= FLOOR_AGREEMENT and s.high_low <= CEILING_HIGH_LOW


def passes_typed(importance: Score, change_type: Score) -> bool:
    return (
        importance.agreement >= FLOOR_TYPED_IMPORTANCE
        and importance.high_low <= CEILING_TYPED_HIGH_LOW
        and change_type.agreement >= FLOOR_TYPED_CHANGE_TYPE
    )


def rate(cases: Sequence[Case]) -> list[tuple[str, str]]:
    """(importance, change type) of each case, as the report rates it."""
    from commitdigest.analysis.automation import automation_importance, is_automated
    from commitdigest.analysis.rules import RuleAnalyser
    from commitdigest.pipeline.report import at_least_high

    analyser = RuleAnalyser()
    out = []
    for case in cases:
        c, radar = case.commit, list(case.radar)
        analysis = at_least_high(analyser.analyse(c, lang="en", radar=radar), radar)
        if is_automated(c):
            analysis = automation_importance(analysis, c, radar, "en")
        out.append((str(analysis.importance.value), str(analysis.change_type.value)))
    return out


def predict(commits: Sequence[Commit]) -> list[str]:
    """The importance of each commit, without radar items (for callers that have none)."""
    return [imp for imp, _ in rate([Case(c, ()) for c in commits])]


def format_matrix(s: Score, classes: Sequence[str] = LEVELS) -> str:
    shown = [c for c in classes if any(s.matrix[(c, o)] + s.matrix[(o, c)] for o in classes)]
    short = {c: c[:7] for c in shown}
    width = max(8, *(len(v) + 1 for v in short.values()))
    head = "label \\ rules".ljust(14) + "".join(short[c].rjust(width) for c in shown) + "   total"
    lines = [head]
    for a in shown:
        row = [s.matrix[(a, b)] for b in shown]
        lines.append(f"{a:<14}" + "".join(f"{v:>{width}}" for v in row) + f"{sum(row):>8}")
    cols = [sum(s.matrix[(a, b)] for a in shown) for b in shown]
    lines.append(f"{'total':<14}" + "".join(f"{v:>{width}}" for v in cols) + f"{s.n:>8}")
    return "\n".join(lines)


def _importance_block(labels: list[str], predicted: list[str], floor: float, ceil: float) -> Score:
    s = score(labels, predicted)
    print(f"  labels: {dict(Counter(labels))}   rules: {dict(Counter(predicted))}")
    print(f"importance agreement: {s.agreement:6.1%}   (floor {floor:.0%})")
    hl, lh = s.matrix[("high", "low")], s.matrix[("low", "high")]
    print(f"high<->low confusion: {s.high_low:6.1%}   (ceiling {ceil:.0%})"
          f"  [{hl} high->low, {lh} low->high]")  # fmt: skip
    for base in ("medium", "low"):
        b = score(labels, [base] * len(labels))
        print(f"always-{base} baseline: {b.agreement:6.1%}   high<->low {b.high_low:.1%}")
    print()
    print(format_matrix(s))
    return s


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv or "-v" in argv
    labelled = load_labels()
    cases = load_cases()
    missing = [x for x in labelled if (x.repository, x.sha) not in cases]
    if missing:
        print(f"{len(missing)} labelled commits have no fixture, e.g. {missing[0].sha}")
        return 2
    rated = rate([cases[(x.repository, x.sha)] for x in labelled])
    typed = [i for i, x in enumerate(labelled) if x.change_type]
    repos_typed = sorted({labelled[i].repository for i in typed})

    print(f"== issue 25: {len(typed)} commits of {len(repos_typed)} repositories, "
          "importance and change type ==")  # fmt: skip
    t_labels = [labelled[i].label for i in typed]
    t_imp = _importance_block(t_labels, [rated[i][0] for i in typed],
                              FLOOR_TYPED_IMPORTANCE, CEILING_TYPED_HIGH_LOW)  # fmt: skip
    type_labels = [labelled[i].change_type or "" for i in typed]
    type_rules = [rated[i][1] for i in typed]
    t_type = score(type_labels, type_rules, TYPES)
    print()
    print(f"change-type agreement: {t_type.agreement:6.1%}   (floor {FLOOR_TYPED_CHANGE_TYPE:.0%})")
    print()
    print(format_matrix(t_type, TYPES))
    print()
    print("per repository (importance, change type):")
    for repo in repos_typed:
        idx = [i for i in typed if labelled[i].repository == repo]
        imp = score([labelled[i].label for i in idx], [rated[i][0] for i in idx])
        ct = score([labelled[i].change_type or "" for i in idx], [rated[i][1] for i in idx], TYPES)
        print(f"  {repo:<26} n={imp.n:<4} importance {imp.agreement:6.1%}  "
              f"high<->low {imp.high_low:5.1%}  type {ct.agreement:6.1%}")  # fmt: skip

    print()
    repos = sorted({x.repository for x in labelled})
    print(f"== whole set: {len(labelled)} commits of {len(repos)} repositories, importance ==")
    labels = [x.label for x in labelled]
    whole = _importance_block(labels, [r[0] for r in rated], FLOOR_AGREEMENT, CEILING_HIGH_LOW)
    print()
    print("per repository:")
    for repo in repos:
        idx = [i for i, x in enumerate(labelled) if x.repository == repo]
        r = score([labels[i] for i in idx], [rated[i][0] for i in idx])
        low = score([labels[i] for i in idx], ["low"] * len(idx))
        print(f"  {repo:<26} n={r.n:<4} agreement {r.agreement:6.1%}  high<->low {r.high_low:5.1%}"
              f"  (always-low {low.agreement:.1%})")  # fmt: skip
    if verbose:
        print()
        print("disagreements (label -> rules; importance, then type where labelled):")
        for x, (level, typed_as) in zip(labelled, rated, strict=True):
            bad_type = x.change_type is not None and x.change_type != typed_as
            if x.label != level or bad_type:
                kind = f"{x.change_type}->{typed_as}" if bad_type else ""
                print(f"  {x.repository} {x.sha[:10]} {x.label}->{level} {kind}: "
                      f"{x.title[:70]}  [{x.reason}]")  # fmt: skip
    ok = passes_typed(t_imp, t_type) and passes(whole)
    print()
    print("PASS" if ok else "FAIL: below the floor of issue 25 or issue 12")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
