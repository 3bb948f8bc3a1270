"""Core corpus files, the walk by names: a canonical folder's files from os.listdir, without the careful walk's
entry per name; used by cortex.core.corpusfiles (canonical_files with `quick`).

os.listdir makes no DirEntry (~2,000 instructions a name less than os.scandir's walk), and a folder holding
only notes has its paths joined at C speed. The lstat of each file, which the search cache's key needs anyway,
stands for its entry's type (cortex.core.corpus.canonical_files_stats); anything the names alone cannot
decide goes back to the careful walk.
"""
from __future__ import annotations

import os
import stat


def named_files(top_real: str, listed: list, suffixes: tuple[str, ...], max_files: int) -> list[str] | None:
    """The careful walk's files from the names alone (os.listdir makes no DirEntry: ~2,000 instructions a name
    less), or None when only the careful walk can decide. A name with a canonical suffix is taken as a regular
    file: canonical_files_stats' lstat of every file confirms it, else walks carefully (a folder or symlink
    named so). Every other name is lstat'ed: a folder is walked, a symlink is the careful walk's error. None
    too for a name that is not UTF-8, too many files, or a listing or lstat that fails (the careful walk
    raises what it raises, at its point). `listed` receives (folder, its lstat) of each folder below `top_real`;
    `suffixes` and `max_files` are cortex.core.corpusfiles' (which imports this module where it is used)."""
    files: list[str] = []
    folders = [top_real]  # real, as in the careful walk: a folder below is no symlink
    try:
        for folder in folders:  # grows while it is walked
            prefix = os.path.join(folder, "")
            names = os.listdir(folder)
            if not (prefix + "".join(names)).isascii() and not _utf8_names(prefix, names):
                return None
            if _all_canonical(names, suffixes):  # the usual folder of notes: its paths made at C speed, no step per name
                files += (prefix + "\0".join(names).replace("\0", "\0" + prefix)).split("\0")
                continue
            others = []
            for name in names:
                if name[0] in "_.":  # (a name is never empty)
                    continue
                if name.endswith(suffixes):
                    files.append(prefix + name)
                else:
                    others.append(prefix + name)
            for path in others:
                info = os.lstat(path)
                if stat.S_ISLNK(info.st_mode):
                    return None
                if stat.S_ISDIR(info.st_mode):
                    folders.append(path)
                    listed.append((path, info))
    except OSError:
        return None
    return files if len(files) <= max_files else None


def _all_canonical(names: list[str], suffixes: tuple[str, ...]) -> bool:
    """Whether there are names and each has one of the `suffixes` (none of which ends another) and no leading `_`
    or `.` (counted in the names joined by NUL, which no name holds: each name ends just before a NUL)."""
    joined = "\0" + "\0".join(names) + "\0"
    return bool(names) and "\0_" not in joined and "\0." not in joined and \
        sum(joined.count(suffix + "\0") for suffix in suffixes) == len(names)


def _utf8_names(prefix: str, names: list[str]) -> bool:
    """Whether every path is UTF-8 (os.listdir decodes undecodable bytes to lone surrogates)."""
    try:
        (prefix + "".join(names)).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
