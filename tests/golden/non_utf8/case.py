"""A commit message in Latin-1 (declared with i18n.commitEncoding) and one with bytes
that are not UTF-8 in a file: the report stays valid UTF-8."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"a.txt": "a\n"}))
    commit(
        repo,
        CommitSpec(
            "",
            "2026-03-02T08:00:00+00:00",
            message_bytes="Corrige l'encodage: café, naïve\n\nCorps en Latin-1: déjà vu.\n".encode(
                "latin-1"
            ),
            files={"notes.txt": "x\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Add a Latin-1 data file",
            "2026-03-02T09:00:00+00:00",
            files={"data/latin1.txt": "caf\xe9 na\xefve\n".encode("latin-1")},
        ),
    )
