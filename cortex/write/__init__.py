"""Write-path wing: typed items, the per-call write context, routing, dispatch, notes, proposals, and the hot files' writer, guards, snapshots, write rows and locks.

It stands on core/ and hot/ (the hot files' format it writes); nothing below imports it
(tests/architecture/test_cortex_wings.py).
"""
