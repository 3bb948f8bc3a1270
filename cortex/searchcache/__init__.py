"""Search cache: a verified, derived sqlite cache of each canonical file's validated, privacy-stripped parse.

Used by the read commands (status, search, timeline, get, export), `cortex recall` and
`cortex cache`. Never a source of truth: an entry is used only when its file's device,
inode, size, mtime and ctime all match and the file was older than the entry by
cortex.searchcache.entries.RACY_MARGIN_NS; everything else is re-read and re-validated.
"""
