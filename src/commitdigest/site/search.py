"""Search across the archive: every commit of every day as one search record.

Each day's records (title, author, changed paths, summary, radar items; its repository,
importance and kind as filters; its link, ``<day>.html#<anchor>``) are made with the day's
page and kept as ``search/<day>.json``, so an unchanged day costs nothing on a rebuild.
:func:`write_search` then indexes them all with Pagefind (the ``pagefind`` package's binary,
run over one small page per record: ``pagefind/``, what ``search.html`` queries over
http(s) — GitHub Pages, ``serve``)
and writes the same records as ``search-data.js``, a classic script that ``search.html``
reads when opened from ``file://`` (where browsers refuse the index's fetches). Commit text
is data in both: the page shows it as text, never as markup.
"""

from __future__ import annotations

import hashlib
import html
import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from commitdigest.errors import OutputError
from commitdigest.models import ReportContext
from commitdigest.text import clean_line, shorten_title

RECORDS_DIR = "search"
INDEX_DIR = "pagefind"
DATA_SCRIPT = "search-data.js"
SUMMARY_CHARS = 300
PATHS_KEPT = 30


def day_records(
    day: str, context: ReportContext, folders: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """The search records of one day's report (compact keys: they ship to browsers); with
    separate reports (``folders``), each links into its repository's own report."""
    records = []
    for repo in context.repositories:
        unit = (folders or {}).get(repo.name)
        page = f"{unit}/{day}.html" if unit else f"{day}.html"
        for c in repo.commits:
            records.append(
                {
                    "u": f"{page}#{c.anchor}",
                    "t": clean_line(c.title),
                    "d": day,
                    "r": clean_line(repo.name),
                    "i": c.analysis.importance.value,
                    "k": c.analysis.change_type.value,
                    "a": clean_line(c.author),
                    "s": shorten_title(c.analysis.summary, SUMMARY_CHARS, SUMMARY_CHARS - 3),
                    "p": [clean_line(f.path) for f in c.files[:PATHS_KEPT]],
                    "x": [clean_line(i.name) for i in c.api_changes],
                }
            )
    return records


def records_json(records: Sequence[dict[str, Any]]) -> str:
    return json.dumps(list(records), ensure_ascii=False, separators=(",", ":")) + "\n"


def data_script(records: Sequence[dict[str, Any]]) -> str:
    """``search-data.js``: the records as a global (``<`` escaped: it stays data)."""
    body = json.dumps(list(records), ensure_ascii=False, separators=(",", ":"))
    body = body.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"window.CD_SEARCH={body};\n"


def read_records(root: Path, days: Iterable[str]) -> list[dict[str, Any]]:
    """The records of ``days`` (newest first), from ``root/search/<day>.json``."""
    out: list[dict[str, Any]] = []
    for day in days:
        try:
            out += json.loads((root / RECORDS_DIR / f"{day}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return out


def _content(record: dict[str, Any]) -> str:
    parts = [record["t"], record["a"], record["s"], *record["p"], *record["x"]]
    return "\n".join(p for p in parts if p)


def _record_page(record: dict[str, Any], lang: str) -> str:
    """One record as the page Pagefind indexes: its text, meta (the link to the commit's
    section as ``target``) and filters; the page itself is never published."""
    esc = html.escape
    meta = {"title": record["t"], "target": record["u"], "date": record["d"], "repo": record["r"],
            "importance": record["i"]}  # fmt: skip
    metas = "".join(f'<i data-pagefind-meta="{esc(k)}:{esc(v)}"></i>' for k, v in meta.items())
    filters = "".join(
        f'<i data-pagefind-filter="{k}:{esc(record[key])}"></i>'
        for k, key in (("repo", "r"), ("importance", "i"), ("kind", "k"))
    )
    body = "".join(f"<p>{esc(line)}</p>" for line in _content(record).split("\n"))
    return (
        f'<!DOCTYPE html><html lang="{esc(lang)}"><head><meta charset="utf-8">'
        f"<title>{esc(record['t'])}</title></head><body data-pagefind-body "
        f'data-pagefind-sort="date:{esc(record["d"])}">{metas}{filters}{body}</body></html>\n'
    )


def _pagefind() -> Path:
    """The Pagefind binary the ``pagefind[bin]`` package ships."""
    from pagefind.service import get_executable

    binary = get_executable()
    if binary is None:
        raise OutputError("the Pagefind binary is missing: pip install 'pagefind[bin]'")
    return binary


def write_index(root: Path, records: Sequence[dict[str, Any]], lang: str) -> bool:
    """Write the Pagefind index of ``records`` to ``root/pagefind`` with the Pagefind
    binary (one small page per record in a temporary folder; the index replaces the old
    one whole, so a reader never sees half of each); whether it was written. An index of
    the same records (its ``.records`` digest) is kept as it is; no records, no index."""
    marker = root / INDEX_DIR / ".records"
    digest = f"{lang} " + hashlib.sha256(records_json(records).encode("utf-8")).hexdigest()
    if not records:
        shutil.rmtree(root / INDEX_DIR, ignore_errors=True)
        return False
    try:
        if (
            marker.read_text(encoding="utf-8") == digest
            and (marker.parent / "pagefind.js").is_file()
        ):
            return False
    except OSError:
        pass
    with tempfile.TemporaryDirectory(prefix=".pagefind-", dir=root) as tmp:
        pages = Path(tmp) / "records"
        pages.mkdir()
        for n, record in enumerate(records):
            (pages / f"{n}.html").write_text(_record_page(record, lang), encoding="utf-8")
        built = Path(tmp) / INDEX_DIR
        command = [str(_pagefind()), "--site", str(pages), "--output-path", str(built),
                   "--force-language", lang, "--silent"]  # fmt: skip
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise OutputError(f"cannot run pagefind: {exc}") from None
        if done.returncode != 0 or not (built / "pagefind.js").is_file():
            detail = " ".join((done.stderr or done.stdout).split())[:300]
            raise OutputError(f"pagefind failed to index the site: {detail or done.returncode}")
        (built / ".records").write_text(digest, encoding="utf-8")
        old = root / INDEX_DIR
        if old.exists():
            shutil.rmtree(old)
        built.rename(old)
    return True
