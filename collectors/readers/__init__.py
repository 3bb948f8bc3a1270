"""Collect stage: the shared reading machinery under the collectors; none of these is a collector (no check row names it).

What may be read (fsprobe), JSONL logs and small JSON files (jsonl over rowscan), incremental
reads from remembered positions (cursors, exportcursors for the OTLP exporter), the sealed memos
beside them (memos, tailstamps), the agent's settings and hooks (settings; which hooks a LifeOS
install registers is collectors.lifeos.hook_registry), what the agent did (activity), the reviewer's row classes (reviewer_rows),
evidence kept small (text) and a LifeOS ROOT's plain paths for the status line (paths).
Each module imports only what it reads with (orjson only for rowscan's fast path).
"""
