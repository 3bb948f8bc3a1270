"""Cortex: the local, file-backed memory core that cortex-health audits.

Stdlib-only at import time: heavy dependencies (pydantic, rich, psutil) are imported
inside the modules that need them, so the status-line path can import cortex helpers.
"""

from cortex import ownfinder as _ownfinder

_ownfinder.install()  # before any submodule: ours are found without the general search

SCHEMA = "lifeos-cortex/v1"
# The release (pyproject.toml reads it: [tool.setuptools.dynamic]); cortex.core.version.installed()
# asks the installed metadata, reports carry this constant (importlib.metadata costs more than an audit).
__version__ = "0.1.0"
