"""Collect stage: one package per memory layout (lifeos/, dense_context/), one module per evidence source, each named by one row of the check list (health.judge.checks); beside them the readers they share.

Collectors only measure. They return frozen evidence (what was read, from where, and in
which state) and never decide a severity. Stdlib only.
"""

import cortex  # noqa: F401 - installs cortex.ownfinder before this package's submodules are imported
