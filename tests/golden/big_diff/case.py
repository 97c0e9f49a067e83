"""A very large diff (a generated data file and a big source change): the patch budget
cuts what the analyser reads, and the report says so."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(
        repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"src/engine.py": "x = 0\n"})
    )
    source = "".join(
        f"def step_{i}(state):\n    state['n'] = state.get('n', 0) + {i}\n    return state\n\n"
        for i in range(1500)
    )
    data = "[\n" + ",\n".join(f'  {{"id": {i}, "name": "item {i}"}}' for i in range(6000)) + "\n]\n"
    commit(
        repo,
        CommitSpec(
            "Rewrite the engine as explicit steps",
            "2026-03-02T08:00:00+00:00",
            files={"src/engine.py": source, "data/items.json": data},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Small follow-up",
            "2026-03-02T09:00:00+00:00",
            files={"src/engine.py": source + "LAST = True\n"},
        ),
    )
