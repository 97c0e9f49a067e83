"""The data model's plain values: its enumerations and the radar's facts, in plain Python.

:mod:`commitdigest.models` (pydantic) takes these as they are; the radar's worker processes
import this module alone of the data model, so that a worker starts without pydantic (its
import and the models' schemas cost each worker 0.2 s of CPU before its first commit, the
time of about fifty commits' scan). An :class:`ApiChange` is a frozen dataclass: the pydantic
models that hold one validate and write it like a model of theirs (its fields in order, its
enumerations as their strings), and it crosses a worker's pipe as a plain object.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

__all__ = [
    "IMPORTANCE_ORDER",
    "AnalysisStatus",
    "ApiChange",
    "ApiChangeType",
    "ChangeType",
    "FileStatus",
    "Importance",
    "Place",
    "RadarKind",
    "Visibility",
]


class FileStatus(StrEnum):
    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    COPIED = "copied"
    TYPE_CHANGED = "type_changed"


class ChangeType(StrEnum):
    FEATURE = "feature"
    BUGFIX = "bugfix"
    PERFORMANCE = "performance"
    REFACTOR = "refactor"
    DOCUMENTATION = "documentation"
    TEST = "test"
    CI_BUILD = "ci_build"
    DEPENDENCY = "dependency"
    REVERT = "revert"
    REMOVAL = "removal"
    SECURITY = "security"
    OTHER = "other"


class Importance(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @property
    def rank(self) -> int:
        """2 for high, 1 for medium, 0 for low: ``max`` by rank is 'the most alarming'."""
        return {"high": 2, "medium": 1, "low": 0}[self.value]


IMPORTANCE_ORDER: tuple[Importance, ...] = (Importance.HIGH, Importance.MEDIUM, Importance.LOW)


class AnalysisStatus(StrEnum):
    OK = "ok"  # the analyser asked for produced it
    FALLBACK = "fallback"  # the asked-for analyser failed; rules produced it (reason in notes)


class RadarKind(StrEnum):
    PYTHON_API = "python_api"
    ENV_VAR = "env_var"
    CLI_OPTION = "cli_option"
    CLI_COMMAND = "cli_command"
    CONFIG_KEY = "config_key"
    DEPENDENCY = "dependency"
    DEPRECATION = "deprecation"
    ANNOUNCED = "announced"


class ApiChangeType(StrEnum):
    REMOVED = "removed"
    RENAMED = "renamed"
    SIGNATURE_CHANGED = "signature_changed"
    DEFAULT_CHANGED = "default_changed"
    ADDED = "added"
    DEPRECATED = "deprecated"
    VERSION_CHANGED = "version_changed"
    NOW_REQUIRED = "now_required"  # a parameter callers could leave out must now be passed


class Visibility(StrEnum):
    """Whether a radar item is part of what the project presents to its users (docs/radar.md:
    re-exported by a package ``__init__``, in ``__all__``, served by a module ``__getattr__``,
    named by the docs or an entry point; environment variables, CLI options, shipped config,
    dependencies and announcements always are) or internal to it."""

    PUBLIC = "public"
    INTERNAL = "internal"


@dataclass(frozen=True, slots=True)
class Place:
    """A line of a file (a downstream use of a changed name)."""

    path: str
    line: int


@dataclass(frozen=True, kw_only=True, slots=True)
class ApiChange:
    """One radar fact, found from the code before and after a commit (or the project's own
    words for ``announced``): what changed, how, whether it breaks users, and the evidence.
    Its enumerations are taken as their strings too (``kind="env_var"``), as the store and
    the JSON report write them."""

    kind: RadarKind
    change: ApiChangeType
    name: str  # the changed thing: "httpx.Client(proxies)", "APP_OLD_CACHE", "--legacy-mode"
    breaking: bool = True  # deprecations and additions are not breaks
    path: str = ""  # evidence file (after the commit, else before)
    line: int | None = None
    detail: str = ""  # old -> new, or the project's sentence
    visibility: Visibility = Visibility.PUBLIC
    # a parameter item: its 0-based place among the arguments a caller passes by position
    # (self not counted); None when keyword-only or not a parameter
    position: int | None = None
    release: str = ""  # the version whose release announces it (the tagged release commit)
    # what an announcement writes as code (`proxies`, ``soft_unicode``, `--legacy`,
    # `VLLM_USE_V1`), as a downstream would: ``pkg.name``, ``pkg.*(param)``, a flag, a variable
    symbols: list[str] = field(default_factory=list)
    # what to write instead, in the project's own words (a deprecation message, a changelog
    # entry's "use X instead"); empty when the project says none
    replacement: str = ""
    # a removed or renamed method the project itself calls on its instances (``self.m()``):
    # a subclass's override of it stops being called, so a downstream override is affected;
    # one the project never calls (a user-facing method) leaves overrides working
    hook: bool = False
    affects: list[Place] = field(default_factory=list)  # downstream uses (--downstream)

    def __post_init__(self) -> None:
        for name, kind in (
            ("kind", RadarKind),
            ("change", ApiChangeType),
            ("visibility", Visibility),
        ):
            value = getattr(self, name)
            if type(value) is not kind:
                object.__setattr__(self, name, kind(value))

    @property
    def public(self) -> bool:
        return self.visibility is Visibility.PUBLIC

    def as_json(self, *, affects: bool = True) -> dict[str, Any]:
        """Its fields as JSON values, in order (without ``affects`` when asked), as the
        report writes them."""
        data: dict[str, Any] = {name: getattr(self, name) for name in _FIELDS}
        for name in ("kind", "change", "visibility"):
            data[name] = str(data[name])
        data["symbols"] = list(self.symbols)
        if affects:  # (field by field: ``asdict`` copied every value deeply, 0.2 ms an item,
            # asked for each commit's cache key)
            data["affects"] = [{"path": p.path, "line": p.line} for p in self.affects]
        else:
            del data["affects"]
        return data


_FIELDS = tuple(f.name for f in fields(ApiChange))  # (in their order, as asdict gave them)
