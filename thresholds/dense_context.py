"""Thresholds stage: the Dense Context layout's limits (plain data). Read by thresholds.defaults.

The caps come from the seed (STATUS.md / ISSUES.md: 80 lines and 6 KB; AGENTS.md: 120 lines
and 8 KB, KB = 1024 bytes); the access-log and stale-share limits from issue 16. These
thresholds exist only for `--layout dense-context`: a LifeOS run neither reads their
environment variables nor lists them in its report.
"""
from __future__ import annotations

DAY_MS = 24 * 60 * 60 * 1000
KIB = 1024
LAYOUT = "dense-context"

# (name, default, env, alias, unit, meaning): ThresholdSpec fields, built in thresholds.defaults
SPECS = (
    ("dc_status_max_lines", 80, "CORTEX_DC_STATUS_MAX_LINES", "dcStatusMaxLines", "count",
     "STATUS.md and ISSUES.md longer than this many lines warn (dc-cap-exceeded)"),
    ("dc_status_max_bytes", 6 * KIB, "CORTEX_DC_STATUS_MAX_BYTES", "dcStatusMaxBytes", "bytes",
     "STATUS.md and ISSUES.md larger than this warn (dc-cap-exceeded)"),
    ("dc_agents_max_lines", 120, "CORTEX_DC_AGENTS_MAX_LINES", "dcAgentsMaxLines", "count",
     "an AGENTS.md longer than this many lines warns (dc-cap-exceeded)"),
    ("dc_agents_max_bytes", 8 * KIB, "CORTEX_DC_AGENTS_MAX_BYTES", "dcAgentsMaxBytes", "bytes",
     "an AGENTS.md larger than this warns (dc-cap-exceeded)"),
    ("dc_access_log_stale_ms", 14 * DAY_MS, "CORTEX_DC_ACCESS_LOG_STALE_MS", "dcAccessLogStaleMs", "ms",
     "an access log whose newest row is older than the project's newest atom by more than this warns"),
    ("dc_stale_share", 50, "CORTEX_DC_STALE_SHARE", "dcStaleShare", "count",
     "stale candidates above this percentage of a project's active atoms warn (dc-stale-share)"),
)
