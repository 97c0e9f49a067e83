"""Build the static archive site from a reports folder, rewriting only what changed.

Sources are the reports folder's ``YYYY-MM-DD.json`` contexts (the source of truth,
read with :func:`~commitdigest.render.load_context`) and ``YYYY-MM-DD.md`` files. The
site holds, for each day, ``YYYY-MM-DD.html`` (:func:`~commitdigest.render.html.render_html`)
and copies of the ``.json`` and ``.md``; ``index.html``, ``repos/<slug>.html``,
``feed.xml`` and an empty ``.nojekyll``. A day with a Markdown file but no (valid) JSON
context is listed in the index as a link to its ``.md`` (and warned about); it has no
report page, no repository entries and no feed entry. A JSON file that is not a valid
context is skipped with a warning.

Incremental: ``.manifest.json`` records each source file's sha256, the outputs made from
it (with their sha256) and the day's summary. A source whose hash, outputs and renderer
are unchanged is not loaded or rendered again. Every file is compared with the bytes on
disk before writing and written (atomically) only when they differ, so adding a day
rewrites the index, the feed, that day's repository pages and its own files, nothing
else. Outputs of sources that disappeared are removed (only files the manifest names).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from commitdigest.errors import OutputError, UsageError
from commitdigest.files import ensure_writable_dir, write_text_atomic
from commitdigest.models import WeeklyContext
from commitdigest.render.day_index import render_index_html
from commitdigest.render.folder import SITE_MARKER, ReportsFolder
from commitdigest.render.html import render_html
from commitdigest.render.json_output import load_context, render_json
from commitdigest.site.feed import normalize_base_url, render_feed
from commitdigest.site.pages import (
    SEARCH_PAGE,
    SEARCH_SCRIPT,
    DayEntry,
    render_index,
    render_repo_page,
    render_search_page,
    repo_pages,
    search_script,
)
from commitdigest.site.search import (
    DATA_SCRIPT,
    INDEX_DIR,
    RECORDS_DIR,
    data_script,
    day_records,
    read_records,
    records_json,
    write_index,
)
from commitdigest.site.strings import SiteStrings
from commitdigest.site.summary import DaySummary, WeekSummary, summarise, summarise_week
from commitdigest.text import clean_line
from commitdigest.version import __version__

MANIFEST = SITE_MARKER
UNITS_DIR = "r"  # the pages of separate reports: r/<repository or group>/<day>.html
MANIFEST_VERSION = 1


class SourceRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sha256: str
    outputs: dict[str, str]  # site path -> sha256 of its bytes
    summary: DaySummary | None = None  # JSON contexts only
    week: WeekSummary | None = None  # weekly digests' JSON only


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = MANIFEST_VERSION
    generator: str = ""  # what rendered the outputs; another one renders everything again
    sources: dict[str, SourceRecord] = Field(default_factory=dict)  # by source file name
    pages: dict[str, str] = Field(default_factory=dict)  # site-wide pages -> sha256
    published: dict[str, datetime] = Field(default_factory=dict)  # day -> first published


@dataclass(frozen=True)
class BuildResult:
    """What a build did. ``written`` and ``removed`` are paths inside the site; the
    manifest itself is not counted."""

    out_dir: Path
    written: tuple[str, ...]
    unchanged: int
    removed: tuple[str, ...]
    warnings: tuple[str, ...]
    days: int

    def summary(self) -> str:
        """``"3 written, 41 unchanged"`` (and ``", 2 removed"`` when some were)."""
        line = f"{len(self.written)} written, {self.unchanged} unchanged"
        return line + (f", {len(self.removed)} removed" if self.removed else "")


# makes a source's outputs (site path -> text) and its day's summary from its bytes
_Producer = Callable[[bytes], tuple[dict[str, str], DaySummary | WeekSummary | None]]


class _Skip(Exception):
    """A source file that cannot be used; the message is the warning."""


def build_site(
    reports_dir: Path,
    out_dir: Path,
    *,
    base_url: str | None = None,
    title: str | None = None,
) -> BuildResult:
    """Build (or bring up to date) the site in ``out_dir`` from the reports in
    ``reports_dir``. :class:`UsageError` for a bad base URL, a missing reports folder or
    ``out_dir`` being the reports folder; :class:`OutputError` when writing fails."""
    base = normalize_base_url(base_url)
    if not reports_dir.is_dir():
        raise UsageError(f"reports folder {reports_dir} does not exist")
    if out_dir.resolve() == reports_dir.resolve():
        raise UsageError(f"the site folder must not be the reports folder ({reports_dir})")
    ensure_writable_dir(out_dir)
    builder = _Builder(out_dir, load_manifest(out_dir))
    folder = ReportsFolder(reports_dir)
    days = builder.add_sources(folder.scan(), folder)
    weeks = builder.add_weeks(folder.scan(weeks=True))
    builder.add_pages(days, base, title, weeks)
    builder.add_search(days)
    return builder.finish(days=len(days))


def load_manifest(out_dir: Path) -> Manifest:
    """The previous build's manifest; an empty one when there is none or it is unusable
    (then everything is rendered again, and still written only where bytes differ)."""
    try:
        manifest = Manifest.model_validate_json((out_dir / MANIFEST).read_bytes())
    except (OSError, ValidationError, ValueError):
        return Manifest()
    return manifest if manifest.version == MANIFEST_VERSION else Manifest()


@cache
def generator_fingerprint() -> str:
    """commitdigest's version and a hash of the code and templates of the renderer and of
    this package: report pages and cached summaries are made again when any changes."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).parent.parent
    for folder in (package / "render", package / "site"):
        for path in sorted(folder.rglob("*")):
            if path.suffix in {".py", ".j2", ".css", ".js"} and "__pycache__" not in path.parts:
                digest.update(path.relative_to(package).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return f"commitdigest {__version__} code:{digest.hexdigest()[:16]}"


class _Builder:
    def __init__(self, root: Path, old: Manifest) -> None:
        self.root = root
        self.old = old
        self.reuse = old.generator == generator_fingerprint()
        self.new = Manifest(generator=generator_fingerprint())
        self.written: list[str] = []
        self.unchanged = 0
        self.warnings: list[str] = []

    # -- sources: the days' own files --------------------------------------------------
    def add_sources(
        self, found: Mapping[str, Mapping[str, Path]], reports: ReportsFolder | None = None
    ) -> list[DayEntry]:
        """Process every source; the days, newest first. A day with separate reports
        (``<unit>/<day>.json``, from one run or from the shards of one) is made from all of
        them, whatever its own ``<day>.json`` holds."""
        days: list[DayEntry] = []
        folders = reports.unit_folders() if reports is not None else []
        for day, paths in found.items():
            summary: DaySummary | None = None
            units = [
                path
                for path in (reports.path(day, "json", f.name) for f in folders if reports)
                if path.is_file()
            ]
            if units and reports is not None:
                try:  # the reports' own bytes: an unchanged day is neither read nor rendered
                    data = b"".join(
                        p.parent.name.encode("utf-8") + b"\0" + p.read_bytes() + b"\0"
                        for p in units
                    )
                except OSError as exc:
                    self.warnings.append(f"{day} skipped: {exc.strerror or exc}")
                    continue
                record = self._source(paths.get("json", reports.path(day, "json")),
                                      _render_units(day, reports), data=data)  # fmt: skip
                summary = record.summary if record is not None else None
            elif "json" in paths:
                record = self._source(paths["json"], _render_report(day))
                summary = record.summary if record is not None else None
            has_md = "md" in paths and self._source(paths["md"], _copy_md(day)) is not None
            if summary is not None or has_md:
                days.append(DayEntry(day=day, summary=summary, has_md=has_md))
            if summary is None and has_md:
                self.warnings.append(f"{day}: no usable JSON context; listed as its Markdown file")
        return days[::-1]

    def add_weeks(self, found: Mapping[str, Mapping[str, Path]]) -> list[WeekSummary]:
        """Every weekly digest: its page (linking to the days' pages), its JSON and
        Markdown copies; their summaries, newest first."""
        weeks: list[WeekSummary] = []
        for week, paths in found.items():
            if "json" in paths:
                record = self._source(paths["json"], _render_week(week))
                if record is not None and record.week is not None:
                    weeks.append(record.week)
            if "md" in paths:
                self._source(paths["md"], _copy_md(week))
        return weeks[::-1]

    def _source(
        self, path: Path, produce: _Producer, *, data: bytes | None = None
    ) -> SourceRecord | None:
        try:
            data = path.read_bytes() if data is None else data
        except OSError as exc:
            self.warnings.append(f"{path.name} skipped: {exc.strerror or exc}")
            return None
        digest = hashlib.sha256(data).hexdigest()
        old = self.old.sources.get(path.name)
        if old is not None and old.sha256 == digest and self.reuse and self._intact(old.outputs):
            self.unchanged += len(old.outputs)
            record = old
        else:
            try:
                files, summary = produce(data)
            except _Skip as exc:
                self.warnings.append(f"{path.name} skipped: {exc}")
                return None
            outputs = {name: self._write(name, text) for name, text in files.items()}
            if isinstance(summary, WeekSummary):
                record = SourceRecord(sha256=digest, outputs=outputs, week=summary)
            else:
                record = SourceRecord(sha256=digest, outputs=outputs, summary=summary)
        self.new.sources[path.name] = record
        return record

    # -- the site-wide pages -----------------------------------------------------------
    def add_pages(
        self,
        days: list[DayEntry],
        base_url: str | None,
        title: str | None,
        weeks: Sequence[WeekSummary] = (),
    ) -> None:
        lang = next((d.summary.lang for d in days if d.summary is not None), "zh")
        title = clean_line(title or "") or SiteStrings(lang)["site_title"]
        repos = repo_pages(days)
        summaries = [d.summary for d in days if d.summary is not None]
        for summary in summaries:  # the first build that saw a day keeps its time
            self.new.published[summary.day] = self.old.published.get(
                summary.day, summary.generated_at
            )
        for week in weeks:
            self.new.published[week.week] = self.old.published.get(week.week, week.generated_at)
        pages = {
            "index.html": render_index(days, repos, title=title, lang=lang, weeks=weeks),
            "feed.xml": render_feed(
                summaries,
                title=title,
                base_url=base_url,
                lang=lang,
                published=self.new.published,
                weeks=weeks,
            ),
            ".nojekyll": "",
        }
        for page in repos:
            pages[page.path] = render_repo_page(page, title=title, lang=lang)
        if base_url is None:
            self.warnings.append(
                "feed.xml has relative links: pass --base-url for feed readers to follow them"
            )
        self.new.pages = {name: self._write(name, text) for name, text in pages.items()}

    def add_search(self, days: Sequence[DayEntry]) -> None:
        """``search.html``, ``search-data.js`` (for ``file://``) and the Pagefind index
        (made again only when the records changed)."""
        lang = next((d.summary.lang for d in days if d.summary is not None), "zh")
        records = read_records(self.root, [d.day for d in days if d.summary is not None])
        self.new.pages[DATA_SCRIPT] = self._write(DATA_SCRIPT, data_script(records))
        self.new.pages[SEARCH_PAGE] = self._write(SEARCH_PAGE, render_search_page(lang=lang))
        self.new.pages[SEARCH_SCRIPT] = self._write(SEARCH_SCRIPT, search_script())
        if write_index(self.root, records, lang):
            self.written.append(f"{INDEX_DIR}/")

    def finish(self, *, days: int) -> BuildResult:
        """Remove the outputs nothing makes any more, save the manifest, say what happened."""
        removed = sorted(_outputs(self.old) - _outputs(self.new))
        for name in removed:
            if _inside(name):
                try:
                    (self.root / name).unlink(missing_ok=True)
                except OSError as exc:
                    raise OutputError(f"cannot remove {self.root / name}: {exc}") from None
        manifest = self.new.model_dump_json(indent=1) + "\n"
        path = self.root / MANIFEST
        if _read(path) != manifest.encode("utf-8"):
            write_text_atomic(path, manifest)
        return BuildResult(
            out_dir=self.root,
            written=tuple(self.written),
            unchanged=self.unchanged,
            removed=tuple(removed),
            warnings=tuple(self.warnings),
            days=days,
        )

    # -- files -------------------------------------------------------------------------
    def _write(self, name: str, text: str) -> str:
        """Write ``text`` to the site path ``name`` unless the file already holds exactly
        these bytes; the bytes' sha256."""
        data = text.encode("utf-8")
        path = self.root / name
        if _read(path) == data:
            self.unchanged += 1
        else:
            write_text_atomic(path, text)
            self.written.append(name)
        return hashlib.sha256(data).hexdigest()

    def _intact(self, outputs: Mapping[str, str]) -> bool:
        """Whether every output is on disk with the bytes the manifest says."""
        for name, digest in outputs.items():
            data = _read(self.root / name)
            if data is None or hashlib.sha256(data).hexdigest() != digest:
                return False
        return True


def _render_report(day: str) -> _Producer:
    """A report's page and JSON copy, and its summary."""

    def produce(data: bytes) -> tuple[dict[str, str], DaySummary | None]:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise _Skip("not UTF-8 text") from None
        try:
            context = load_context(text)
        except OutputError as exc:
            raise _Skip(exc.message) from None
        files = {
            f"{day}.html": render_html(context, site_root=""),
            f"{day}.json": text,
            f"{RECORDS_DIR}/{day}.json": records_json(day_records(day, context)),
        }
        return files, summarise(day, context)

    return produce


def _render_week(week: str) -> _Producer:
    """A weekly digest's page and JSON copy, and its summary."""

    def produce(data: bytes) -> tuple[dict[str, str], WeekSummary | None]:
        from commitdigest.render.weekly import render_weekly_html

        try:
            context = WeeklyContext.model_validate_json(data)
        except ValueError as exc:
            raise _Skip(f"not a weekly digest's JSON ({str(exc).splitlines()[0]})") from None
        text = data.decode("utf-8")
        page = render_weekly_html(context, site_root="")
        return {f"{week}.html": page, f"{week}.json": text}, (summarise_week(context))

    return produce


def _render_units(day: str, reports: ReportsFolder) -> _Producer:
    """A day of separate reports: its index as the day's page, each report's page in its
    folder, the day's JSON (every repository), the search records linking into the
    reports, and the summary whose links go to them."""

    def produce(data: bytes) -> tuple[dict[str, str], DaySummary | None]:
        units = reports.load_units(day)
        if units is None:
            raise _Skip("its reports could not be read")
        # in the site, the reports' folders sit under r/, clear of the site's own folders
        folders = {name: f"{UNITS_DIR}/{unit}" for name, unit in units.folders.items()}
        files = {
            f"{day}.html": render_index_html(units.context, folders, site_root=""),
            f"{day}.json": render_json(units.context),
            f"{RECORDS_DIR}/{day}.json": records_json(day_records(day, units.context, folders)),
        }
        for unit, report in units.reports.items():
            files[f"{UNITS_DIR}/{unit}/{day}.html"] = render_html(report, site_root="../../")
        return files, summarise(day, units.context, folders)

    return produce


def _copy_md(day: str) -> _Producer:
    """The Markdown report, copied (undecodable bytes become U+FFFD)."""

    def produce(data: bytes) -> tuple[dict[str, str], DaySummary | None]:
        return {f"{day}.md": data.decode("utf-8", errors="replace")}, None

    return produce


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"cannot read {path}: {exc.strerror or exc}") from None


def _outputs(manifest: Manifest) -> set[str]:
    names: set[str] = set(manifest.pages)
    for record in manifest.sources.values():
        names.update(record.outputs)
    return names


def _inside(name: str) -> bool:
    """Whether a manifest path stays inside the site (a damaged manifest deletes nothing
    outside it)."""
    path = PurePosixPath(name)
    return bool(name) and "\\" not in name and not path.is_absolute() and ".." not in path.parts
