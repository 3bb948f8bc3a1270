"""Hot-memory wing, the prompt hooks' read side: the hot files' format, input and template, the render, the recall and the surface heartbeat.

Its floor is core/ (and the modules at the top of cortex/ that sit on core): it imports nothing
from write/, which writes the hot files (hotwriter, guards, snapshots, locks) on top of it
(tests/architecture/test_cortex_wings.py).
"""
