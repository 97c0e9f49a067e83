"""The breaking-change radar: facts about API, env var, CLI, config, dependency,
deprecation and announced changes, from the touched files before and after a commit."""

from commitdigest.analysis.radar.driver import RADAR_VERSION, CommitInput, cache_key, scan_window
from commitdigest.analysis.radar.models import ApiChange, RadarKind

__all__ = ["RADAR_VERSION", "ApiChange", "CommitInput", "RadarKind", "cache_key", "scan_window"]
