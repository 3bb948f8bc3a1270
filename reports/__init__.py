"""Report stage: the typed report, its published schema and its output formats.

`reports.report` (the frozen value every format renders) and `reports.document` (which
builds it for a run) are stdlib only; pydantic lives in `reports.schema` (the JSON path)
and rich in `reports.formats.text`, each imported only when that output is produced.
"""

import cortex  # noqa: F401 - installs cortex.ownfinder before this package's submodules are imported
