"""A package's names loaded when first used (PEP 562): the ``__getattr__`` of the packages
that keep their imports cheap (``sources``, ``render``, the radar; the package root keeps
its own, so that ``import commitdigest`` loads no module of ours but its version)::

    __getattr__ = lazy_getattr(__name__, {"read_commits": ".git", "Store": "commitdigest.store"})

A home starting with ``.`` is relative to the package. A name, once loaded, is kept in the
package, so later look-ups do not come back here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_getattr"]


def lazy_getattr(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` (its ``__name__``): each name of ``homes``
    from its module, loaded on first use."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home, package), name)
        namespace[name] = value  # later look-ups skip this function
        return value

    return __getattr__
