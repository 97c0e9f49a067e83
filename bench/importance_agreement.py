"""How often does the rule-based analyser agree with the LLM's importance in the seed reports?

    python bench/importance_agreement.py [SEEDS_DIR]     (default: ../shared/seeds from the repo)

The seeds hold 70 vLLM commits with an importance an LLM gave them. The real diffs are not
available here, so each commit is rebuilt as a proxy:

* title, author and time from the report (time read as +08:00; the analyser ignores it);
  the old format also carries the commit body (trailers), which is used;
* files = the repository paths the section's text mentions: backticked or bare tokens that end
  in a known extension, or contain ``/`` and start with a top directory that some
  extension-bearing path in the seeds starts with (``vllm/``, ``tests/`` ...); deduplicated,
  bare file names dropped when a full path with the same name is present;
* line counts unknown (``additions=deletions=None``): the analyser then judges size by the
  number of files alone, and says so in its notes.

Caveat: the mentioned paths come from the LLM's own write-up, which lists more files for the
commits it found important, so the file evidence is partly an echo of the label being
measured. The ablations and the "echo check" printed at the end show how much each source of
evidence contributes, and how much a rule that only asks "did the write-up name any path?"
already gets.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.models import Commit, FileChange, Importance

TZ = timezone(timedelta(hours=8))
LABELS = {"高": Importance.HIGH, "中": Importance.MEDIUM, "低": Importance.LOW}
LABEL_RE = re.compile(r"重要程度\*\*\s*[:：]\s*(?:🔴|🟡|🟢)?\s*([高中低])")
ROW_RE = re.compile(r"^\|\s*(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*\|\s*(.*?)\s*\|\s*(.*?)\s*\|\s*$")
SHA_LINE_RE = re.compile(r"^\*\*SHA\*\*:\s*`([0-9a-f]{7,40})`")
OLD_HEAD_RE = re.compile(r"^### ([0-9a-f]{40})\s*$")
URL_RE = re.compile(r"https?://\S+")
TOKEN_RE = re.compile(r"[A-Za-z0-9_./*-]+")
EXTENSIONS = frozenset(
    {"py", "pyi", "md", "rst", "txt", "yaml", "yml", "toml", "json", "cfg", "ini", "sh", "cu",
     "cuh", "cpp", "cc", "c", "h", "hpp", "cmake", "go", "rs", "js", "ts", "jinja", "j2",
     "proto", "lock"}
)  # fmt: skip


@dataclass(frozen=True)
class Case:
    seed: str
    sha: str
    title: str
    body: str
    author: str
    time: datetime
    label: Importance
    text: str  # the section's text, where paths are looked for


def _norm(title: str) -> str:
    return " ".join(title.split())


def _table(lines: list[str]) -> dict[str, tuple[datetime, str]]:
    rows: dict[str, tuple[datetime, str]] = {}
    for line in lines:
        if m := ROW_RE.match(line):
            when = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S").replace(tzinfo=TZ)
            rows[_norm(m.group(3))] = (when, m.group(2))
    return rows


def _case(
    seed: str, sha: str, title: str, body: str, text: str, table: dict[str, tuple[datetime, str]]
) -> Case | None:
    m = LABEL_RE.search(text)
    if m is None:
        return None
    when, author = table.get(_norm(title), (datetime(2000, 1, 1, tzinfo=TZ), "unknown"))
    return Case(seed, sha, title, body, author, when, LABELS[m.group(1)], text)


def parse_new(path: Path) -> list[Case]:
    """``### <title>`` then ``**SHA**: `abc1234` | 🔗 [...](url)``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    table = _table(lines)
    starts = [
        i
        for i in range(len(lines) - 1)
        if lines[i].startswith("### ") and SHA_LINE_RE.match(lines[i + 1])
    ]
    cases = []
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        section = lines[i:end]
        group = next((k for k, s in enumerate(section) if s.startswith("#### ")), len(section))
        section = section[:group]
        sha_match = SHA_LINE_RE.match(lines[i + 1])
        assert sha_match is not None
        title = lines[i][4:].strip()
        case = _case(path.name, sha_match.group(1), title, "", "\n".join(section), table)
        if case is not None:
            cases.append(case)
    return cases


def parse_old(path: Path) -> list[Case]:
    """``### <full sha>``, the commit URL, the title, the body, then the analysis."""
    lines = path.read_text(encoding="utf-8").splitlines()
    table = _table(lines)
    starts = [i for i, s in enumerate(lines) if OLD_HEAD_RE.match(s)]
    cases = []
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        section = lines[i:end]
        title = section[2].strip()
        body_end = next((k for k in range(3, len(section)) if section[k].startswith("**")), 3)
        body = "\n".join(section[3:body_end]).strip()
        text = "\n".join([title, *section[body_end:]])
        case = _case(path.name, section[0][4:].strip(), title, body, text, table)
        if case is not None:
            cases.append(case)
    return cases


def _has_ext(token: str) -> bool:
    name = token.rsplit("/", 1)[-1]
    return "." in name and name.rsplit(".", 1)[1].lower() in EXTENSIONS


def _candidates(text: str) -> list[str]:
    out = []
    for raw in TOKEN_RE.findall(URL_RE.sub(" ", text)):
        token = raw.rstrip(".-").removesuffix("/*").rstrip("/").removeprefix("./")
        if token and not token.startswith("/") and "*" not in token and "//" not in token:
            out.append(token)
    return out


def repo_roots(cases: list[Case]) -> frozenset[str]:
    """Top directories of the extension-bearing paths the seeds mention."""
    return frozenset(
        t.split("/", 1)[0] for c in cases for t in _candidates(c.text) if "/" in t and _has_ext(t)
    )


def mentioned_paths(text: str, roots: frozenset[str]) -> list[str]:
    found: dict[str, None] = {}
    for token in _candidates(text):
        if _has_ext(token) or ("/" in token and token.split("/", 1)[0] in roots):
            found[token] = None
    full_names = {p.rsplit("/", 1)[-1] for p in found if "/" in p}
    return [p for p in found if "/" in p or p not in full_names]


def to_commit(case: Case, roots: frozenset[str]) -> Commit:
    files = tuple(
        FileChange(path=p, additions=None, deletions=None)
        for p in mentioned_paths(case.text, roots)
    )
    return Commit(
        sha=case.sha.ljust(40, "0"),
        title=case.title,
        body=case.body,
        author=case.author,
        authored_at=case.time,
        committed_at=case.time,
        files=files,
    )


def agreement(pairs: list[tuple[Importance, Importance]]) -> float:
    return 100.0 * sum(a == b for a, b in pairs) / len(pairs) if pairs else 0.0


def run(
    cases: list[Case], roots: frozenset[str], transform: Callable[[Commit], Commit]
) -> list[Importance]:
    analyser = RuleAnalyser()
    return [analyser.analyse(transform(to_commit(c, roots))).importance for c in cases]


def main(argv: list[str]) -> int:
    repo = Path(__file__).resolve().parents[1]
    seeds = Path(argv[1]) if len(argv) > 1 else repo.parent / "shared" / "seeds"
    cases = parse_new(seeds / "daily-2026-01-13.md") + parse_old(
        seeds / "daily-2026-01-07-old-format.md"
    )
    roots = repo_roots(cases)
    ours = run(cases, roots, lambda c: c)
    short = {"high": "H", "medium": "M", "low": "L"}

    print(f"{len(cases)} labelled commits; path roots: {', '.join(sorted(roots))}\n")
    print(f"{'seed':<6} {'sha':<7} {'files':>5} {'seed':>4} {'ours':>4}  title")
    for c, o in zip(cases, ours, strict=True):
        n = len(mentioned_paths(c.text, roots))
        mark = " " if o == c.label else "x"
        day = c.seed[11:16]
        print(
            f"{day:<6} {c.sha[:7]:<7} {n:>5} {short[c.label]:>4} {short[o]:>4}{mark} {c.title[:70]}"
        )

    order = [Importance.HIGH, Importance.MEDIUM, Importance.LOW]
    counts = Counter(zip((c.label for c in cases), ours, strict=True))
    print("\nconfusion (rows: seed label, columns: ours)")
    print("        " + "".join(f"{o.value:>8}" for o in order))
    for s in order:
        print(f"{s.value:<8}" + "".join(f"{counts[(s, o)]:>8}" for o in order))

    def report(name: str, predicted: list[Importance]) -> None:
        parts = []
        for seed in sorted({c.seed for c in cases}, reverse=True):
            pairs = [(c.label, p) for c, p in zip(cases, predicted, strict=True) if c.seed == seed]
            parts.append(f"{seed[6:16]} {agreement(pairs):5.1f}% ({len(pairs)})")
        overall = agreement([(c.label, p) for c, p in zip(cases, predicted, strict=True)])
        print(f"{name:<34} {' | '.join(parts)} | overall {overall:5.1f}%")

    print("\nagreement with the seed labels")
    report("rules (title + mentioned files)", ours)
    report("baseline: all medium", [Importance.MEDIUM] * len(cases))
    report("ablation: title only (no files)", run(cases, roots, lambda c: replace_files(c, ())))
    report("ablation: files only (no title)", run(cases, roots, neutral_title))
    report("ablation: title + 1 unknown file", run(cases, roots, placeholder_file))
    echo = [Importance.MEDIUM if mentioned_paths(c.text, roots) else Importance.LOW for c in cases]
    report("echo check: any path -> M, else L", echo)
    return 0


def replace_files(commit: Commit, files: tuple[FileChange, ...]) -> Commit:
    return commit.model_copy(update={"files": files})


def neutral_title(commit: Commit) -> Commit:
    return commit.model_copy(update={"title": "change", "body": ""})


def placeholder_file(commit: Commit) -> Commit:
    """The title, plus one source file of unknown size in place of the mentioned paths."""
    placeholder = FileChange(path="pkg/module/file.py", additions=None, deletions=None)
    return replace_files(commit, (placeholder,))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
