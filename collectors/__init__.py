"""Collect stage: one module per evidence source, found by `collectors.registry`.

Collectors only measure. They return frozen evidence (what was read, from where, and in
which state) and never decide a severity. Stdlib only.
"""
