"""Health auditor (`cortex-health`): collect evidence, judge it, report it.

Stdlib-only at import time: the status line imports collectors, thresholds and the
evaluator without paying for pydantic or rich.
"""

import cortex  # noqa: F401 - installs cortex.ownfinder before this package's submodules are imported
