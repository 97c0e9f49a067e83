"""SQLite store: cached analyses and run records."""

from commitdigest.config.settings import default_home

from .store import AnalysisKey, OverviewKey, RunRecord, Store

__all__ = ["AnalysisKey", "OverviewKey", "RunRecord", "Store", "default_home"]
