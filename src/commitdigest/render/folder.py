"""The reports folder (``output_dir``), and its one owner: :class:`ReportsFolder`.

Where each report's files are, which reports there are, reading them back and writing
them (atomically). Nothing else spells the layout::

    <day>.md  <day>.json  <day>.html       a day's report (YYYY-MM-DD); with separate
                                           reports: the day's index (.md, .html) and the
                                           day's context of every repository (.json)
    <unit>/<day>.md|.json|.html            a separate report: one repository, or a group
    <week>.md  <week>.json  <week>.html    a weekly digest (YYYY-Www)

A folder holding :data:`SITE_MARKER` is a site built inside the reports folder, never a
unit. The JSON files are the source of truth: a day's is a
:class:`~commitdigest.models.ReportContext`, a week's a
:class:`~commitdigest.models.WeeklyContext` — each its own type (:data:`Report`), told
apart by the file they come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from commitdigest.errors import CommitdigestError, OutputError, UsageError
from commitdigest.files import ensure_writable_dir, write_text_atomic
from commitdigest.models import Coverage, ReportContext, WeeklyContext
from commitdigest.render.json_output import load_context
from commitdigest.window import WEEK_LABEL, is_day_label, parse_week

__all__ = ["FORMATS", "SITE_MARKER", "DayUnits", "Report", "ReportsFolder", "is_week"]

Report = ReportContext | WeeklyContext
"""What the folder holds under a label: a day's report or a week's digest."""

FORMATS: tuple[str, ...] = ("md", "json", "html")
SITE_MARKER = ".manifest.json"  # a site built inside the reports folder is not a report


def is_week(label: str) -> bool:
    """Whether ``label`` names a weekly digest (``2026-W09``) rather than a day."""
    if WEEK_LABEL.fullmatch(label) is None:
        return False
    try:
        parse_week(label)
    except UsageError:
        return False
    return True


@dataclass(frozen=True)
class DayUnits:
    """A day of separate reports: all of it as one context, each repository's unit folder,
    and each unit's own report."""

    context: ReportContext
    folders: dict[str, str]  # repository name -> unit folder
    reports: dict[str, ReportContext]  # unit folder -> its report


class ReportsFolder:
    """The reports folder at ``root`` (see the module for its layout)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"ReportsFolder({str(self.root)!r})"

    # -- where -------------------------------------------------------------------------
    def path(self, label: str, fmt: str, unit: str | None = None) -> Path:
        """The file of the report ``label`` (a day or a week) in format ``fmt``; with
        ``unit``, that separate report's."""
        return (self.root / unit if unit else self.root) / f"{label}.{fmt}"

    def unit(self, name: str) -> ReportsFolder:
        """The folder of the separate reports of unit ``name``."""
        return ReportsFolder(self.root / name)

    def files(self, label: str) -> dict[str, Path]:
        """The files of report ``label`` that exist, by format."""
        found = {fmt: self.path(label, fmt) for fmt in FORMATS}
        return {fmt: path for fmt, path in found.items() if path.is_file()}

    # -- what is there -----------------------------------------------------------------
    def unit_folders(self) -> list[Path]:
        """The folders of separate reports (``<unit>/<day>.json``), sorted."""
        try:
            return sorted(
                p for p in self.root.iterdir() if p.is_dir() and not (p / SITE_MARKER).exists()
            )
        except OSError:
            return []

    def scan(
        self, *, weeks: bool = False, formats: tuple[str, ...] = ("json", "md")
    ) -> dict[str, dict[str, Path]]:
        """``{label: {fmt: path}}`` of the days' files in ``formats`` directly in the folder
        (not in unit folders), oldest first; with ``weeks``, the weekly digests'. An
        :class:`OutputError` when the folder cannot be read."""
        try:
            paths = sorted(self.root.iterdir())
        except OSError as exc:
            raise OutputError(
                f"cannot read reports folder {self.root}: {exc.strerror or exc}"
            ) from None
        wanted = is_week if weeks else is_day_label
        found: dict[str, dict[str, Path]] = {}
        for path in paths:
            label, dot, fmt = path.name.rpartition(".")
            if dot and fmt in formats and wanted(label) and path.is_file():
                found.setdefault(label, {})[fmt] = path
        return dict(sorted(found.items()))

    def days(self) -> list[str]:
        """Every day with a JSON report, oldest first."""
        try:
            return list(self.scan(formats=("json",)))
        except OutputError:
            return []

    # -- reading -----------------------------------------------------------------------
    def load_day(self, day: str, unit: str | None = None) -> ReportContext:
        """The report of ``day`` (its JSON context); an :class:`OutputError` saying why not."""
        return load_context(self._read(self.path(day, "json", unit)))

    def read_day(self, day: str, unit: str | None = None) -> ReportContext | None:
        """The report of ``day``, or None when there is none that can be read."""
        try:
            return self.load_day(day, unit)
        except CommitdigestError:
            return None

    def load_week(self, week: str) -> WeeklyContext:
        """The weekly digest of ``week``; an :class:`OutputError` saying why not."""
        path = self.path(week, "json")
        try:
            return WeeklyContext.model_validate_json(self._read(path))
        except ValidationError as exc:
            first = str(exc).splitlines()
            raise OutputError(
                f"{path} is not a weekly digest's JSON ({first[1] if len(first) > 1 else exc})"
            ) from None

    def read_week(self, week: str) -> WeeklyContext | None:
        """The weekly digest of ``week``, or None when there is none that can be read."""
        try:
            return self.load_week(week)
        except CommitdigestError:
            return None

    def load(self, label: str) -> Report:
        """The report ``label`` names: a week's digest (``2026-W09``) or a day's report."""
        return self.load_week(label) if is_week(label) else self.load_day(label)

    def load_units(self, day: str) -> DayUnits | None:
        """The day's separate reports (``<unit>/<day>.json``, whoever wrote them: a run, or
        the shards of one) and the combined context made from them; None when the day has
        none. Repositories in name order; counts and costs summed."""
        contexts: list[tuple[str, ReportContext]] = []
        for folder in self.unit_folders():
            context = self.read_day(day, folder.name)
            if context is not None:
                contexts.append((folder.name, context))
        if not contexts:
            return None
        units: dict[str, str] = {}
        repos = []
        for unit, context in contexts:
            for repo in context.repositories:
                if repo.name not in units:
                    units[repo.name] = unit
                    repos.append(repo)
        repos.sort(key=lambda r: r.name.lower())
        first = contexts[0][1]
        total_usage = None
        for _, c in contexts:
            if c.usage is not None:
                total_usage = c.usage if total_usage is None else total_usage + c.usage
        merged = ReportContext(
            generated_at=max(c.generated_at for _, c in contexts),
            lang=first.lang,
            window=first.window,
            repositories=repos,
            coverage=Coverage(
                total=sum(r.coverage.total for r in repos),
                analysed=sum(r.coverage.analysed for r in repos),
                by_llm=sum(r.coverage.by_llm for r in repos),
                by_rules=sum(r.coverage.by_rules for r in repos),
                fallback=sum(r.coverage.fallback for r in repos),
            ),
            usage=total_usage,
        )
        return DayUnits(merged, units, dict(contexts))

    def _read(self, path: Path) -> str:
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise OutputError(
                f"no report {path}: delivery, the weekly and the site read a report's JSON, "
                'so keep json among the formats (formats = ["md", "json"])'
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise OutputError(
                f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}"
            ) from None

    # -- writing -----------------------------------------------------------------------
    def ensure(self) -> ReportsFolder:
        """Create the folder if needed; an :class:`OutputError` when it cannot be written."""
        ensure_writable_dir(self.root)
        return self

    def write(self, label: str, fmt: str, text: str, unit: str | None = None) -> Path:
        """Write report ``label``'s ``fmt`` file atomically (readers see the old file or
        the new one); its path."""
        return write_text_atomic(self.path(label, fmt, unit), text)
