"""The command line (typer + rich live here only).

:func:`script` reads ``sys.argv`` for a long window's radar worker (:mod:`.early`) before
it imports typer and the commands; ``app`` and ``main`` load on first use.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

from commitdigest.lazy import lazy_getattr

if TYPE_CHECKING:
    from commitdigest.cli.commands import app, main

__all__ = ["app", "main", "script"]

__getattr__ = lazy_getattr(__name__, {"app": ".commands", "main": ".commands"})


def script() -> NoReturn:
    """The ``commitdigest`` script and ``python -m commitdigest`` (:func:`.commands.script`)."""
    from commitdigest.cli.early import start_early

    start_early(sys.argv[1:])
    from commitdigest.cli.commands import script as run

    run()
