"""The LLM client's pacing, as the HTTP layer provides it for every remote.

The :class:`~commitdigest.http.RateLimiter` (concurrency that halves on 429/503 and climbs
back, requests per minute, a hold-off every worker respects), the
:class:`~commitdigest.http.RetryPolicy` and the reading of the server's waits live in
:mod:`commitdigest.http`; this module names them for the LLM room, so the analyser's
callers find them beside the client.
"""

from __future__ import annotations

from commitdigest.http import Hedging as Hedging
from commitdigest.http import RateLimiter as RateLimiter
from commitdigest.http import RetryPolicy as RetryPolicy
from commitdigest.http import parse_retry_after as parse_retry_after
from commitdigest.http import server_wait as server_wait
