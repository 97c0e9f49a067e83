"""SQLite store: cached analyses and run records."""

from .db import default_home
from .store import AnalysisKey, RunRecord, Store

__all__ = ["AnalysisKey", "RunRecord", "Store", "default_home"]
