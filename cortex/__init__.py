"""Cortex: the local, file-backed memory core that cortex-health audits.

Stdlib-only at import time: heavy dependencies (pydantic, rich, psutil) are imported
inside the modules that need them, so the status-line path can import cortex helpers.
"""

SCHEMA = "lifeos-cortex/v1"
