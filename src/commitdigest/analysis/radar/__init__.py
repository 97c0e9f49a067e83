"""The breaking-change radar: facts about API, env var, CLI, config, dependency,
deprecation and announced changes, from the touched files before and after a commit.

The names below load their module when first used: the models alone (what every stage
reads) do not import the kinds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from commitdigest.lazy import lazy_getattr

if TYPE_CHECKING:
    from commitdigest.analysis.radar.commit import CommitInput
    from commitdigest.analysis.radar.driver import scan_window
    from commitdigest.analysis.radar.models import (
        RADAR_VERSION,
        ApiChange,
        RadarKind,
        cache_key,
    )

__all__ = ["RADAR_VERSION", "ApiChange", "CommitInput", "RadarKind", "cache_key", "scan_window"]

_HOMES = {
    "RADAR_VERSION": ".models",
    "ApiChange": ".models",
    "RadarKind": ".models",
    "cache_key": ".models",
    "CommitInput": ".commit",
    "scan_window": ".driver",
}


__getattr__ = lazy_getattr(__name__, _HOMES)
