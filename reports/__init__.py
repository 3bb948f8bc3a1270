"""Report stage: the report document, its published schema and its output formats.

`reports.document` is stdlib only; pydantic lives in `reports.schema` (the JSON path) and
rich in `reports.formats.text`, each imported only when that output is produced.
"""
