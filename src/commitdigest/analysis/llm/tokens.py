"""An offline estimate of how many tokens a text costs, and its correction by the server.

:func:`estimate_tokens`: CJK characters (ideographs incl. extensions, kana, Hangul, CJK
punctuation, full- and halfwidth forms) count one token each; every other character counts
its UTF-8 bytes, at 3.5 bytes a token (the ceiling of the total). It never loops over the
characters in Python: an ASCII text costs O(1), any other text one compiled-regex scan and
one encode, so a multi-megabyte diff is estimated in milliseconds.

:class:`TokenCalibration` learns, from the ``usage.prompt_tokens`` the server reports, how far
the estimate is off for the model in use, and scales estimates (or budgets) by it.
"""

from __future__ import annotations

import math
import re
import threading

# One token per character. All of these lie above U+07FF (3 UTF-8 bytes; 4 beyond the BMP).
_CJK_RANGES = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u2e80-\u2fdf"  # CJK Radicals Supplement, Kangxi Radicals
    "\u2ff0-\u2fff"  # Ideographic Description Characters
    "\u3000-\u4dbf"  # CJK Symbols and Punctuation, Hiragana, Katakana, Bopomofo, Hangul
    #                  Compatibility Jamo, Kanbun, CJK Strokes, Katakana Phonetic Extensions,
    #                  Enclosed CJK, CJK Compatibility, CJK Unified Ideographs Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\ua960-\ua97f"  # Hangul Jamo Extended-A
    "\uac00-\ud7ff"  # Hangul Syllables, Hangul Jamo Extended-B
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\ufe30-\ufe4f"  # CJK Compatibility Forms
    "\uff00-\uffef"  # Halfwidth and Fullwidth Forms
    "\U0001aff0-\U0001b16f"  # Kana Extended-B, Kana Supplement, Kana Extended-A, Small Kana
    "\U00020000-\U000323af"  # Extensions B-I, Compatibility Ideographs Supplement
)
_CJK_RUN = re.compile(f"[{_CJK_RANGES}]+")

BYTES_PER_TOKEN = 3.5
"""UTF-8 bytes per token for everything that is not CJK."""


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text``: 1 per CJK character + ceil(other UTF-8 bytes / 3.5)."""
    if text.isascii():  # O(1) for str: the common case of code and English prose
        return (2 * len(text) + 6) // 7
    total_bytes = len(text.encode("utf-8", "surrogatepass"))
    runs = "".join(_CJK_RUN.findall(text))
    other_bytes = total_bytes - len(runs.encode("utf-8"))
    return len(runs) + (2 * other_bytes + 6) // 7  # ceil(other_bytes / 3.5), in integers


def min_tokens(chars: int) -> int:
    """A lower bound of :func:`estimate_tokens` for any text of ``chars`` characters.

    Every character costs at least 2/7 of a token (one byte at 3.5 a token), so a text whose
    bound already exceeds a budget need not be scanned to know it does not fit.
    """
    return (2 * chars + 6) // 7


def estimate_tokens_capped(text: str, cap: int) -> int:
    """:func:`estimate_tokens` if that is at most ``cap``, else some number above ``cap``."""
    bound = min_tokens(len(text))
    return bound if bound > cap else estimate_tokens(text)


class TokenCalibration:
    """A running ratio ``actual prompt tokens / estimated tokens``, to correct estimates.

    Feed it each request's estimate of the whole prompt and the ``usage.prompt_tokens``
    the server reported (:meth:`observe`); :meth:`scale` turns an estimate into the expected
    real count, :meth:`to_estimated` a real budget into estimated tokens. The ratio starts at
    ``initial``, takes the first observation as is and then moves as an exponential moving
    average (weight ``alpha``), always clamped to ``[low, high]``. Requests estimated below
    ``min_estimated`` tokens are ignored: their fixed chat-template overhead distorts the ratio.

    Every method is short and never awaits, so one instance can be shared by the tasks of an
    asyncio loop; a lock makes it safe across threads too.
    """

    def __init__(
        self,
        *,
        alpha: float = 0.3,
        low: float = 0.5,
        high: float = 3.0,
        initial: float = 1.0,
        min_estimated: int = 100,
    ) -> None:
        if not 0.0 < alpha <= 1.0:
            raise ValueError("alpha must be in (0, 1]")
        if not 0.0 < low <= high:
            raise ValueError("need 0 < low <= high")
        self._alpha = alpha
        self._low = low
        self._high = high
        self._min_estimated = max(1, min_estimated)
        self._ratio = self._clamp(initial)
        self._samples = 0
        self._lock = threading.Lock()

    def _clamp(self, ratio: float) -> float:
        return min(self._high, max(self._low, ratio))

    @property
    def ratio(self) -> float:
        """Real tokens per estimated token, as learnt so far."""
        return self._ratio

    @property
    def samples(self) -> int:
        """How many observations have been taken into account."""
        return self._samples

    def observe(self, estimated: int, actual_prompt_tokens: int) -> None:
        """Take one request's estimate and the prompt tokens the server counted for it."""
        if estimated < self._min_estimated or actual_prompt_tokens <= 0:
            return
        sample = self._clamp(actual_prompt_tokens / estimated)
        with self._lock:
            if self._samples == 0:
                self._ratio = sample
            else:
                self._ratio = self._clamp(self._ratio + self._alpha * (sample - self._ratio))
            self._samples += 1

    def scale(self, estimated: int) -> int:
        """The real token count expected for a text estimated at ``estimated`` tokens."""
        if estimated <= 0:
            return 0
        return math.ceil(estimated * self._ratio)

    def to_estimated(self, actual_tokens: int) -> int:
        """How many estimated tokens fit into a budget of ``actual_tokens`` real tokens."""
        if actual_tokens <= 0:
            return 0
        return math.floor(actual_tokens / self._ratio)
