"""``commitdigest upgrade``: what breaks the user's code between two versions of an upstream.

One async function from :class:`UpgradeOptions` to :class:`UpgradeOutcome`: open the
repository (a local clone, or our mirror of any git URL), resolve both refs (a version
without its tag's prefix is found: ``0.28.0`` for ``v0.28.0``), compare the two endpoints
once with the radar (``analysis.radar.endpoints``) plus what the range's releases announce,
find every use in the user's checkouts, rate the range's commits with the rules, and write
the report in each format. The exit code is a verdict gate (9) only when asked
(``fail_on``); a check that could not complete raises our errors instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from commitdigest.analysis.radar.changelog import normalise_version
from commitdigest.analysis.radar.downstream import attach_affects, scan_downstream
from commitdigest.analysis.radar.endpoints import Found, compare_revisions
from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.config import Settings
from commitdigest.errors import SourceError, UpgradeGate, UsageError
from commitdigest.files import ensure_writable_dir, write_text_atomic
from commitdigest.models import (
    ApiChange,
    RangeCommit,
    RefInfo,
    ReleaseEntry,
    Subscription,
    UpgradeContext,
)
from commitdigest.render.upgrade import (
    render_upgrade_html,
    render_upgrade_json,
    render_upgrade_markdown,
)
from commitdigest.sources.blobs import BlobReader
from commitdigest.sources.git import read_range
from commitdigest.sources.open import RepositoryOpener

__all__ = ["FAIL_ON", "UpgradeOptions", "UpgradeOutcome", "run_upgrade"]

FAIL_ON = ("affected", "breaking", "never")
_PREFIXES = ("v", "release-", "release/", "version-", "rel-")


@dataclass(frozen=True)
class UpgradeOptions:
    repository: str  # a local clone, or a git URL / owner/repo (mirrored under home)
    from_ref: str
    to_ref: str
    downstream: Sequence[Path] = ()
    lang: str = "en"
    formats: Sequence[str] = ("md",)
    out: Path = Path("reports")
    fail_on: str = "never"


@dataclass
class UpgradeOutcome:
    context: UpgradeContext
    paths: list[Path] = field(default_factory=list)


async def run_upgrade(
    options: UpgradeOptions, settings: Settings, home: Path
) -> tuple[UpgradeOutcome, int]:
    """The upgrade report, written; with the exit code its ``fail_on`` asks for (0, or 9
    when the verdict meets it). Raises :class:`SourceError` for a ref or repository that
    cannot be read, after writing the report when some files of the range could not be."""
    if options.fail_on not in FAIL_ON:
        raise UsageError(f"--fail-on must be one of {', '.join(FAIL_ON)}, not {options.fail_on!r}")
    opener = RepositoryOpener(store=None, home=home, github=settings.github)
    path = Path(options.repository).expanduser()
    subscription = Subscription(name=options.repository, source=None if path.exists() else "git")
    try:
        repo = await opener(subscription)
    finally:
        await opener.aclose()
    info = getattr(repo, "info", None)
    root = getattr(info, "root", None)
    if info is None or not isinstance(root, Path):
        raise SourceError(
            f"{options.repository}: upgrade reads a git repository (a clone or a URL)"
        )
    with BlobReader(root) as blobs:
        base = _resolve(blobs, options.from_ref)
        tip = _resolve(blobs, options.to_ref)
        if not blobs.is_ancestor(base, tip):
            raise UsageError(
                f"--from {options.from_ref} is not an ancestor of --to {options.to_ref}: "
                "an upgrade goes forward along the history"
            )
        # the range's log (a git subprocess) while the endpoints are compared
        reading = asyncio.ensure_future(read_range(info, base, tip))
        try:
            found: Found = await asyncio.to_thread(compare_revisions, blobs, base, tip)
        except BaseException:
            reading.cancel()
            raise
        from_info = RefInfo(ref=options.from_ref, sha=base, date=_date(blobs.commit_time(base)))
        to_info = RefInfo(ref=options.to_ref, sha=tip, date=_date(blobs.commit_time(tip)))
        releases = [
            ReleaseEntry(
                version=r.version,
                tag=r.tag,
                date=_date(blobs.commit_time(r.sha)),
                breaking=[i for i in r.items if i.breaking],
            )
            for r in found.releases
            if r.sha
        ]
    changes = found.changes
    if options.downstream:
        uses = await asyncio.to_thread(scan_downstream, options.downstream, changes)
        changes = attach_affects({"": changes}, uses, found.exports)[""]
        by_key = {(i.kind, i.name, i.release): i for i in changes}
        releases = [
            r.model_copy(
                update={
                    "breaking": [by_key.get((i.kind, i.name, i.release), i) for i in r.breaking]
                }
            )
            for r in releases
        ]
    commits = await reading
    rules = RuleAnalyser()
    ranged = [
        RangeCommit(
            sha=c.sha,
            title=c.title,
            date=c.committed_at,
            importance=rules.analyse(c, lang=options.lang).importance,
        )
        for c in commits
    ]
    context = UpgradeContext(
        generated_at=datetime.now(tz=UTC),
        lang=options.lang,
        repository=getattr(repo, "name", options.repository),
        **{"from": from_info},
        to=to_info,
        verdict=_verdict(changes),
        changes=_ordered(changes),
        releases=releases,
        commits=ranged,
        unreadable=found.unreadable,
    )
    outcome = UpgradeOutcome(context, _write(context, options))
    if found.unreadable:
        listed = ", ".join(found.unreadable[:5])
        more = f" and {len(found.unreadable) - 5} more" if len(found.unreadable) > 5 else ""
        raise SourceError(
            f"the report is written but incomplete: could not read {listed}{more} "
            f"(a syntax error at {options.from_ref} or {options.to_ref})"
        )
    return outcome, _gate(context.verdict, options.fail_on)


def _gate(verdict: str, fail_on: str) -> int:
    if fail_on == "affected" and verdict == "affected":
        return UpgradeGate.exit_code
    if fail_on == "breaking" and verdict in ("affected", "breaking"):
        return UpgradeGate.exit_code
    return 0


def _verdict(changes: Sequence[ApiChange]) -> str:
    """``affected`` when a breaking change is used in a checkout, ``breaking`` when there
    are public breaking changes but none is used, else ``safe`` (a used deprecation is
    listed, not a verdict)."""
    breaking = [i for i in changes if i.breaking]
    if any(i.affects for i in breaking):
        return "affected"
    if any(i.public for i in breaking):
        return "breaking"
    return "safe"


def _ordered(changes: Sequence[ApiChange]) -> list[ApiChange]:
    """Used ones first, then public breaking, deprecations, internal ones."""

    def rank(item: ApiChange) -> int:
        if item.affects:
            return 0
        if item.breaking and item.public:
            return 1
        return 2 if not item.breaking else 3

    return sorted(changes, key=rank)


def _resolve(blobs: BlobReader, ref: str) -> str:
    """The commit ``ref`` names: itself (a tag, branch or SHA), or a version tag with a
    usual prefix (``v0.28.0`` for ``0.28.0``), or any tag whose version is ``ref``."""
    for name in (ref, *(f"{p}{ref}" for p in _PREFIXES)):
        sha = blobs.resolve(name)
        if sha:
            return sha
    wanted = normalise_version(ref)
    if wanted:
        for sha, tags in blobs.tags().items():
            if any(normalise_version(t) == wanted and t.endswith(ref) for t in tags):
                return sha
    raise SourceError(f"unknown ref {ref!r} in {blobs.root}: not a tag, branch or commit")


def _date(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def _write(context: UpgradeContext, options: UpgradeOptions) -> list[Path]:
    ensure_writable_dir(options.out)
    stem = f"upgrade-{_slug(context.from_.ref)}-{_slug(context.to.ref)}"
    renderers = {
        "md": render_upgrade_markdown,
        "json": render_upgrade_json,
        "html": render_upgrade_html,
    }
    paths: list[Path] = []
    for fmt in options.formats:
        target = options.out / f"{stem}.{fmt}"
        write_text_atomic(target, renderers[fmt](context))
        paths.append(target)
    return paths


def _slug(ref: str) -> str:
    return "".join(ch if ch.isalnum() or ch in ".-_" else "_" for ch in ref)[:60] or "ref"
