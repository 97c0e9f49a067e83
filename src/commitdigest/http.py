"""What every HTTP client of commitdigest shares (GitHub, the chat senders, the LLM's rate
limiter): reading how long a server asks us to wait.

The clients themselves are ``httpx2.AsyncClient`` objects built by each remote's module
(with a transport hook for tests); they all honour :func:`parse_retry_after`.
"""

from __future__ import annotations

import email.utils
import math
import time
from collections.abc import Mapping

__all__ = ["parse_retry_after"]


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds asked for by ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date);
    ``None`` when the headers ask nothing (or ask nonsense: negative, infinite, unparsable).

    ``headers`` is any mapping (``httpx2.Headers`` too); names are matched case-insensitively.
    """
    if headers is None:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    ms = _seconds(lowered.get("retry-after-ms"))
    if ms is not None:
        return ms / 1000.0
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    seconds = _seconds(raw)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(raw.strip())
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _seconds(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if value >= 0 and math.isfinite(value) else None
