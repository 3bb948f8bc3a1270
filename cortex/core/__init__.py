"""Core wing: the corpus, records, privacy boundary, search, timestamps, JSON and safe I/O."""
