"""Core corpus files: which files are canonical, their limits, and their text read safely; used by cortex.core.corpus and the writers.

Paths are checked before content is read: symlinks below the root, escapes, non-regular
files, names that are not UTF-8 and the count and byte limits raise IntegrityError, and
canonical text must be valid UTF-8 without control characters or lone surrogates.
"""
from __future__ import annotations

import os
import stat

from cortex.errors import IntegrityError
from cortex.core.jscompat import utf16_key
from cortex.core.patterns import compiled
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.safepaths import is_within, pin_tree


MAX_FILES = 10_000
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_TOTAL_BYTES = 128 * 1024 * 1024
SUFFIXES = (".md", ".jsonl")  # a canonical file's name ends so
# assert_canonical_text's rule on valid UTF-8 bytes, where no surrogate can occur and C1 controls are exactly
# C2 80..C2 9F: deleting every allowed single byte (C speed) leaves the forbidden ones, about
# ten times faster than the text pattern on a large corpus.
_ALLOWED_BYTES = bytes(b for b in range(256) if not (b <= 0x08 or b in (0x0B, 0x0C) or 0x0E <= b <= 0x1F or b == 0x7F))


# Compiled when first needed (cortex.core.patterns): a C2 byte (Latin-1 supplement, C1 controls); text checked
# whole (~0.6 ms to compile). Every importer (each hook, the auditor) would otherwise pay for `re`.
_C1_UTF8 = rb"\xc2[\x80-\x9f]"
_FORBIDDEN_TEXT = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]"


def _checked_realpath(path: str, root_real: str) -> str:
    if os.path.islink(path):
        raise IntegrityError(f"Canonical path is a symlink: {path}").at(file=path, rule="symlink")
    # The real root itself, or a name in it that is no symlink, is its own realpath (an lstat per name spared).
    parent, name = os.path.split(path)
    real = path if path == root_real or (parent == root_real and name not in ("", ".", "..")) else os.path.realpath(path)
    if not is_within(root_real, real):
        raise IntegrityError(f"Canonical path escapes root: {path}").at(file=path, rule="escape")
    return real


def require_utf8_name(path: str) -> None:
    # os.scandir decodes undecodable bytes to lone surrogates; IDs and digests need real text.
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        shown = path.encode('utf-8', 'backslashreplace').decode()
        raise IntegrityError(f"Canonical path is not valid UTF-8: {shown}").at(file=shown, rule="utf8-name") from None


def pin_canonical_root(root: str) -> str:
    """Resolve the (possibly aliased) root once and require a directory: the trust boundary."""
    return pin_tree(root, what="Canonical root", hint="")


def _files_under(top: str, corpus_root: str, quick: bool = False, folders: list | None = None) -> list[str] | None:
    """The canonical files below `top`, unordered; with `quick`, the walk by names' list (None: walk carefully,
    cortex.core.namewalk), each folder it lists added to `folders` (when given) with its lstat, taken before its
    listing."""
    if not os.path.exists(top):
        return []
    top_real = _checked_realpath(top, corpus_root)  # corpus_root is real: canonical_files' root_real
    info = os.lstat(top_real)
    if not stat.S_ISDIR(info.st_mode):
        raise IntegrityError(f"Canonical corpus path is not a directory: {top}").at(file=top, rule="not-directory")
    if quick:
        if folders is not None:
            folders.append((top_real, info))
        from cortex.core.namewalk import named_files  # here: a call that takes the listing memo walks no folder

        return named_files(top_real, [] if folders is None else folders, SUFFIXES, MAX_FILES)
    files: list[str] = []

    def walk(directory: str) -> None:
        ascii_folder = directory.isascii()  # then only a name can bring a surrogate into a path below it
        with os.scandir(directory) as entries:
            for entry in entries:
                name = entry.name
                if name[0] in "_.":  # (a name is never empty) not startswith: its argument parsing, twice a file
                    continue
                path = entry.path  # os.path.join(directory, name), already built by scandir
                if not (ascii_folder and name.isascii()):
                    require_utf8_name(path)
                canonical = name.endswith(SUFFIXES)
                if canonical and entry.is_file(follow_symlinks=False):  # the usual entry: regular, no link, no folder
                    if len(files) >= MAX_FILES:
                        raise IntegrityError(f"Canonical corpus exceeds file count limit ({MAX_FILES})").at(
                            rule="file-count-limit")
                    files.append(path)
                    continue
                if entry.is_symlink():
                    raise IntegrityError(f"Canonical path is a symlink: {path}").at(file=path, rule="symlink")
                is_dir = entry.is_dir(follow_symlinks=False)
                if canonical and not is_dir and not entry.is_file(follow_symlinks=False):
                    raise IntegrityError(f"Canonical path is not a regular file: {path}").at(file=path, rule="not-regular")
                # No realpath per entry: `directory` is real (top_real, then only non-symlink
                # folders), and this entry is no symlink, so `path` is already its own realpath.
                if is_dir:
                    walk(path)
                elif canonical:
                    if len(files) >= MAX_FILES:
                        raise IntegrityError(f"Canonical corpus exceeds file count limit ({MAX_FILES})").at(
                            rule="file-count-limit")
                    files.append(path)

    walk(top_real)
    return files  # unordered: canonical_files sorts once


def canonical_files(root_real: str, quick: bool = False, folders: list | None = None) -> list[str] | None:
    """KNOWLEDGE/ plus root-level *_MEMORY.md; else MEMORY/KNOWLEDGE/; else the whole root (`root_real`: a real
    path, as pin_canonical_root gives it). With `quick` the folders are walked by their names
    (cortex.core.namewalk): None when the careful walk must decide; in the first layout `folders` (when given)
    receives (folder, its lstat) of every folder whose listing the files depend on: the root, KNOWLEDGE and each
    folder below it. (The others follow a symlink's target: os.path.exists.)"""
    knowledge = os.path.join(root_real, "KNOWLEDGE")
    nested = os.path.join(root_real, "MEMORY", "KNOWLEDGE")
    if os.path.exists(knowledge):
        if quick and folders is not None:
            folders.append((root_real, os.lstat(root_real)))  # before its listing: a change after it shows
        hot: list[str] = []
        with os.scandir(root_real) as entries:
            for entry in entries:
                if entry.name.endswith("_MEMORY.md"):
                    path = os.path.join(root_real, entry.name)
                    require_utf8_name(path)
                    if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
                        raise IntegrityError(f"Canonical path is not a regular file: {path}").at(file=path,
                                                                                                 rule="not-regular")
                    _checked_realpath(path, root_real)
                    hot.append(path)
        files = _files_under(knowledge, root_real, quick, folders)
        return None if files is None else _js_sorted(files + hot)
    files = _files_under(nested if os.path.exists(nested) else root_real, root_real, quick)
    return None if files is None else _js_sorted(files)


def _js_sorted(paths: list[str]) -> list[str]:
    """JavaScript's order (UTF-16 code units): for ASCII paths (the usual case) that is code point order, so a
    sort without a key per path (one encode each) does."""
    if "".join(paths).isascii():
        return sorted(paths)
    return sorted(paths, key=utf16_key)


def regular_stats(files: list[str]) -> list[os.stat_result] | None:
    """Each file's lstat when every one is a regular file; None when one is not, or is gone."""
    try:
        infos = list(map(os.lstat, files))
    except OSError:
        return None
    return infos if all(map(stat.S_ISREG, [info.st_mode for info in infos])) else None


def within_limits(files: list[str], infos: list[os.stat_result]) -> bool:
    """Whether regular files of these lstat results keep the count and byte limits (the usual corpus)."""
    sizes = [info.st_size for info in infos]
    return len(files) <= MAX_FILES and max(sizes, default=0) <= MAX_FILE_BYTES and sum(sizes) <= MAX_TOTAL_BYTES


def check_limits(files: list[str], root: str) -> list[os.stat_result]:
    """Every metadata limit; each file's lstat, in order (the search cache's trust key needs no second one)."""
    if len(files) > MAX_FILES:
        raise IntegrityError(f"Canonical corpus exceeds file count limit ({MAX_FILES})").at(rule="file-count-limit")
    infos = regular_stats(files)  # every lstat, then every limit at once: the usual corpus passes them all
    if infos is not None and within_limits(files, infos):
        return infos
    # File by file: a failing lstat is met after the checks of the files before it, as always.
    total = 0
    infos = []
    for path in files:
        info = os.lstat(path)
        infos.append(info)
        if not stat.S_ISREG(info.st_mode):
            raise IntegrityError(f"Canonical path is not a regular file: {path}").at(file=path, rule="not-regular")
        if info.st_size > MAX_FILE_BYTES:
            raise IntegrityError(
                f"Canonical file exceeds per-file byte limit ({MAX_FILE_BYTES}): {os.path.relpath(path, root)}"
            ).at(file=path, rule="file-bytes-limit")
        total += info.st_size
        if total > MAX_TOTAL_BYTES:
            raise IntegrityError(f"Canonical corpus exceeds total byte limit ({MAX_TOTAL_BYTES})").at(
                file=path, rule="total-bytes-limit")
    return infos


def assert_canonical_text(text: str, where: str) -> None:
    if compiled(_FORBIDDEN_TEXT).search(text):
        raise IntegrityError(f"Canonical text contains forbidden control or malformed Unicode at {where}").at(
            rule="control-character")


def _forbidden_utf8(data: bytes) -> bool:
    """assert_canonical_text's rule for bytes already known to be valid UTF-8."""
    return bool(data.translate(None, _ALLOWED_BYTES)) or (
        b"\xc2" in data and compiled(_C1_UTF8).search(data) is not None)


def assert_canonical_utf8(data: bytes, where: str) -> None:
    """assert_canonical_text(data.decode("utf-8"), where) for bytes that decode strictly (no surrogate can occur):
    the bytes rule, which compiles no pattern for text without a C2 byte (`hot render`'s hot files)."""
    if _forbidden_utf8(data):
        raise IntegrityError(f"Canonical text contains forbidden control or malformed Unicode at {where}").at(
            rule="control-character")


def read_canonical_utf8(path: str, label: str) -> str:
    return canonical_text(read_canonical_bytes(path, label), label)


def read_canonical_bytes(path: str, label: str) -> bytes:
    """A canonical file's bytes, read with its bounds (canonical_text checks and decodes them)."""
    try:
        return read_bounded(path, MAX_FILE_BYTES)
    except UnsafeFile as error:
        raise IntegrityError(f"Canonical path is not a readable regular file: {label} ({error})").at(
            file=label, rule="unreadable") from None


def canonical_text(data: bytes, label: str) -> str:
    """The text of a canonical file's bytes: valid UTF-8 (a leading byte order mark dropped) with no control
    character or lone surrogate, else IntegrityError naming the line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IntegrityError(f"Canonical text is not valid UTF-8 at {label}").at(
            file=label, line=data.count(b"\n", 0, error.start) + 1, rule="utf8") from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte order mark is encoding, not content
    if _forbidden_utf8(data):
        found = compiled(_FORBIDDEN_TEXT).search(text)
        line = text.count("\n", 0, found.start()) + 1 if found else None
        raise IntegrityError(f"Canonical text contains forbidden control or malformed Unicode at {label}").at(
            file=label, line=line, rule="control-character")
    return text


def forbidden_utf8(data: bytes) -> bool:
    """Whether valid UTF-8 `data` holds a character canonical text forbids (a control character)."""
    return _forbidden_utf8(data)


def holds_del_or_c1(data: bytes) -> bool:
    """Whether valid UTF-8 `data` holds DEL or a C1 control: the forbidden characters a JSON string may hold raw."""
    return data.find(b"\x7f") >= 0 or (data.find(b"\xc2") >= 0 and compiled(_C1_UTF8).search(data) is not None)
