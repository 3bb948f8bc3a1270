"""Hot-memory wing: the hot files' format, input, writer, guards, snapshots, render and locks."""
