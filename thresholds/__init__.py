"""Thresholds stage: the limits the evaluator compares evidence with, where each came from, and the clock.

Stdlib only (the status line resolves thresholds too).
"""

import cortex  # noqa: F401 - installs cortex.ownfinder before this package's submodules are imported
