"""What the radar computed from a file version's text, kept for the last versions read.

Kept by the text object itself (its id, the text held with the value so that the id is not
reused while kept), never by the text's value: hashing a large text costs as much as
reading it (fastapi's 700 KB release notes, 2.2 ms a version, a third of a month's scan),
and the radar hands each version on as one object from commit to commit. An equal copy of
a text read elsewhere is another text here, computed again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["ByText"]

V = TypeVar("V")


class ByText(Generic[V]):
    """Values by text object, for the last ``size`` texts put (the least recently used go
    first); safe to share between threads (the radar may run beside a downstream search)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[int, tuple[str, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> V | None:
        """The value kept for this very text object, if any."""
        with self._lock:
            found = self._entries.get(id(text))
            if found is None or found[0] is not text:
                return None
            self._entries.move_to_end(id(text))
            return found[1]

    def put(self, text: str, value: V) -> None:
        with self._lock:
            self._entries[id(text)] = (text, value)
            self._entries.move_to_end(id(text))
            if len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
