"""Collect stage: one module per evidence source, each named by one row of the check list (health.judge.checks).

Collectors only measure. They return frozen evidence (what was read, from where, and in
which state) and never decide a severity. Stdlib only.
"""
