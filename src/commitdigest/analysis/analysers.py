"""The analysers: what the pipeline needs of one (:class:`CommitAnalyser`) and the one
registry that names them.

Every analyser comes from a plugin: a module whose ``register_analysers(register)`` (the
hook) calls ``register(name, build, about=...)`` for each analyser it brings, ``build``
making it from an :class:`AnalyserRequest`. The built-in ones, ``rules`` and ``llm``
(:mod:`commitdigest.analysis.default_analysers`), come through the same hook as a plugin
installed under the ``commitdigest.analysers`` entry-point group — as simonw/llm's models
come through its ``register_models`` hook, its own ``default_plugins`` included::

    # pyproject.toml: [project.entry-points."commitdigest.analysers"]
    #                 mine = "my_package.analysers"
    def register_analysers(register):
        register("mine", lambda request: Built(MyAnalyser()), about="what it does")

The plugins' hooks are called on the first use of the registry (:data:`REGISTRY`), not on
import; building the rules imports no LLM room.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Protocol

from commitdigest.config import LLMSettings
from commitdigest.errors import UsageError
from commitdigest.models import Analysis, ApiChange, Commit

if TYPE_CHECKING:
    from commitdigest.analysis.llm.chat import ChatClient

__all__ = [
    "DEFAULT_PLUGINS",
    "ENTRY_POINTS",
    "REGISTRY",
    "AnalyserEntry",
    "AnalyserRequest",
    "Build",
    "Built",
    "Closeable",
    "CommitAnalyser",
    "Register",
    "Registry",
    "analysers",
    "build_analyser",
]

DEFAULT_PLUGINS = ("commitdigest.analysis.default_analysers",)  # the built-in analysers
ENTRY_POINTS = "commitdigest.analysers"  # the entry-point group of installed plugins


class CommitAnalyser(Protocol):
    """What the pipeline needs of an analyser (``rules``, ``llm``, a plugin's)."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def uses_focus(self) -> bool:
        """Whether ``focus`` (a subscription's emphasis) changes the analysis."""
        ...

    def version_for(self, facts: Sequence[ApiChange] | None) -> str:
        """The cache version of an analysis made with these radar facts (``None``: the
        radar did not run). Optional: an analyser without it gets no facts."""
        ...

    async def analyse(
        self,
        commit: Commit,
        *,
        repository: str,
        lang: str,
        focus: str | None = None,
        facts: Sequence[ApiChange] | None = None,
    ) -> Analysis: ...


class Closeable(Protocol):
    async def aclose(self) -> None: ...


@dataclass(frozen=True)
class AnalyserRequest:
    """What an analyser is built from: the ``[llm]`` settings (an analyser that asks no
    model ignores them) and, for tests and probes, a chat client to use instead of one built
    from them."""

    llm: LLMSettings
    client: ChatClient | None = None


@dataclass
class Built:
    """An analyser, the chat client it talks to (the daily overview asks it too; None: no
    model), and what the run closes when it ends (a client the build opened)."""

    analyser: CommitAnalyser
    client: ChatClient | None = None
    owned: Closeable | None = None


Build = Callable[[AnalyserRequest], Built]


@dataclass(frozen=True)
class AnalyserEntry:
    name: str
    build: Build
    about: str  # one line for messages and help


class Register(Protocol):
    """The ``register`` a plugin's ``register_analysers`` hook is given."""

    def __call__(self, name: str, build: Build, *, about: str) -> None: ...


class Registry:
    """The analysers by name, from the hooks of ``plugins`` (module names) and of the
    entry points of ``group``, called on first use."""

    def __init__(
        self, plugins: Sequence[str] = DEFAULT_PLUGINS, group: str | None = ENTRY_POINTS
    ) -> None:
        self.plugins = tuple(plugins)
        self.group = group
        self._entries: dict[str, AnalyserEntry] = {}
        self._loaded = False

    def register(self, name: str, build: Build, *, about: str) -> None:
        """Add the analyser ``name`` (:class:`Register`); a name is registered once."""
        if name in self._entries:
            raise ValueError(f"analyser {name!r} is already registered")
        self._entries[name] = AnalyserEntry(name, build, about)

    def entries(self) -> dict[str, AnalyserEntry]:
        """Every analyser by name, the built-in plugins' first."""
        if not self._loaded:
            self._loaded = True
            for module in self.plugins:
                importlib.import_module(module).register_analysers(self.register)
            for point in entry_points(group=self.group) if self.group else ():
                point.load().register_analysers(self.register)
        return dict(self._entries)

    def build(self, name: str, request: AnalyserRequest) -> Built:
        """The analyser registered as ``name``, built for ``request``."""
        known = self.entries()
        if name not in known:
            raise UsageError(f"unknown analyser {name!r}: choose from {', '.join(known)}")
        return known[name].build(request)


REGISTRY = Registry()  # the built-in analysers and the installed plugins'


def analysers() -> dict[str, AnalyserEntry]:
    """Every registered analyser by name (:data:`REGISTRY`)."""
    return REGISTRY.entries()


def build_analyser(name: str, request: AnalyserRequest) -> Built:
    """The analyser registered as ``name`` (:data:`REGISTRY`), built for ``request``."""
    return REGISTRY.build(name, request)
