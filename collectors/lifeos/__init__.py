"""Collect stage (LifeOS): one module per evidence source of the LifeOS layout, each named by one row of health.judge.checks.CHECKS.

ROOT is a LifeOS config directory (ROOT/LIFEOS/MEMORY); layout.py is where it keeps things.
These collectors never run on a Dense Context tree (collectors.dense_context) and read through
the shared readers beside this package (collectors.readers: jsonl, rowscan, cursors, memos, fsprobe...).
"""
