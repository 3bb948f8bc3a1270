"""Collect stage (Dense Context): one bounded pass over every project and atom, shared by the collectors.

Run once per audit by the layout's prepare step (collectors.dense_context.shared_scan), which
keeps the result on the layout value; the dc_* collectors read it there (`scanned_tree`,
`analysed`), so a run walks and parses the tree once. An atom is any `.md` file in a project's
experiments/, knowledge/ or patterns/ folder except index.md and names starting with `_` or
`.` (what the upstream generator reads). Only what the checks need is kept per atom. A
symlinked folder inside CONTEXT (projects/, a project, an atom folder) is reported as a folder
not listed and never followed.
"""
from __future__ import annotations

import os
import re
import stat
from collections import namedtuple
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from types import MappingProxyType

from collectors.dense_context import frontmatter
from collectors.dense_context.layout import ATOM_FOLDERS, DenseLayout
from collectors.readers.fsprobe import describe_os_error
from cortex.core.privacy import strip_private_content
from cortex.core.safeio import UnsafeFile, open_regular
from cortex.core.timestamps import parse_timestamp_ms

ATOM_ID = re.compile(r"(EXP-\d+[a-z]?|K-\d+|PAT-\d+)\Z")
REF_FIELDS = ("evidence", "links", "source-experiments")
MAX_LISTED = 200  # rows kept per problem kind; the totals are always exact


class Atom(namedtuple("Atom", "rel project folder stem problem problem_line fields lines id status date_ms")):
    """One atom file, reduced to what the checks use.

    rel: str (path under CONTEXT); project, folder, stem: str; problem: str | None (why the file or
    its frontmatter cannot be read as YAML); problem_line: int | None; fields: dict (parsed, or for
    invalid YAML read key by key, frontmatter trimmed to KEPT); lines: dict (key → file line);
    id: str | None (the frontmatter id, None when absent or not text); status: str (lower case, ""
    when absent); date_ms: int | None (the frontmatter date).
    """

    __slots__ = ()


def make_atom(rel: str, project: str, folder: str, stem: str, problem: str | None, problem_line: int | None,
              fields: dict, lines: dict) -> Atom:
    fields = {key: value for key, value in fields.items() if key in KEPT}
    atom_id, status, date = fields.get("id"), fields.get("status"), fields.get("date")
    return Atom(rel, project, folder, stem, problem, problem_line, fields, lines,
                atom_id if isinstance(atom_id, str) and atom_id else None,
                status.strip().lower() if isinstance(status, str) else "",
                date_ms(date) if isinstance(date, str) else None)


@lru_cache(maxsize=4096)
def date_ms(text: str) -> int | None:
    """Atom dates repeat across a tree: parse each distinct one once."""
    return parse_timestamp_ms(text)


class Project(namedtuple("Project", "name path atoms folders atom_count results unlisted",
                          defaults=(0, MappingProxyType({}), ()))):
    """One project folder.

    name, path: str; atoms: tuple[Atom, ...] (only while the project is analysed; () in the cached
    tree: flat memory); folders: tuple[str, ...] (atom folders that exist); atom_count: int;
    results: Mapping (analysis name → its per-project result, or the exception it raised);
    unlisted: tuple[str, ...] (atom folders that exist but could not be listed: their atoms are unknown).
    """

    __slots__ = ()


class Tree(namedtuple("Tree", "projects unreadable", defaults=((),))):
    """Every project. projects: tuple[Project, ...]; unreadable: tuple[str, ...] (folders not listed, why)."""

    __slots__ = ()


# Per-project analyses, (collector name, analysis): collectors.dense_context.shared_scan lists them. The
# scan runs them on each project while its atoms are in memory, then drops the atoms: memory holds one
# project's atoms plus bounded per-project results, whatever the size of the tree.
Analyses = Sequence[tuple[str, Callable[[DenseLayout, Project], object]]]


def scanned_tree(layout: DenseLayout) -> Tree:
    """The run's shared scan, kept on the layout; the exception it raised raises here, in each collector reading it."""
    if layout.tree is None:
        raise RuntimeError("the Dense Context tree was not scanned before its collectors ran")
    if isinstance(layout.tree, Exception):
        raise layout.tree
    return layout.tree


def analysed(layout: DenseLayout, name: str) -> Iterator[tuple[Project, object]]:
    """(project, the result of analysis `name` for it); an analysis that raised raises here, in its collector."""
    for project in scanned_tree(layout).projects:
        result = project.results[name]
        if isinstance(result, Exception):
            raise result
        yield project, result


def analyse(layout: DenseLayout, project: Project, analyses: Analyses) -> Project:
    results = {}
    for name, analysis in analyses:
        try:
            results[name] = analysis(layout, project)
        except Exception as error:  # noqa: BLE001 - it becomes that collector's failure, not everyone's
            results[name] = error
    return project._replace(atoms=(), atom_count=len(project.atoms), results=MappingProxyType(results))


KEPT = frozenset(["id", "date", "project", "summary", "tags", "status", *REF_FIELDS])


def read_head(path: str, limit: int) -> bytes:
    """The first `limit` + 1 bytes: enough to find the frontmatter, never the whole of a huge file."""
    fd = open_regular(path)
    try:
        return os.read(fd, limit + 1)
    finally:
        os.close(fd)


def read_atom(path: str, rel: str, project: str, folder: str, stem: str) -> Atom:
    def broken(problem: str, line: int | None = None, fields: dict | None = None, lines: dict | None = None) -> Atom:
        return make_atom(rel, project, folder, stem, problem, line, fields or {}, lines or {})

    try:
        head = read_head(path, frontmatter.MAX_FRONTMATTER_BYTES + 8)
    except UnsafeFile as error:
        return broken(f"unreadable: {error}")
    except OSError as error:
        return broken(f"unreadable: {describe_os_error(error)}")
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < frontmatter.MAX_FRONTMATTER_BYTES:
            return broken(f"unreadable: invalid UTF-8 at byte {error.start}")
        text = head[:error.start].decode("utf-8")
    split = frontmatter.split_frontmatter(strip_private_content(text))  # the privacy boundary, on the way in
    if isinstance(split, str):
        too_big = len(head) > frontmatter.MAX_FRONTMATTER_BYTES and "not closed" in split
        return broken(f"frontmatter larger than {frontmatter.MAX_FRONTMATTER_BYTES} bytes" if too_big else split, 1)
    block, first = split
    parsed, lines = frontmatter.parse(block, first)
    if isinstance(parsed, str):
        loose = frontmatter.loose_fields(block)
        m = re.match(r"line (\d+): ", parsed)
        return broken(f"not valid YAML: {parsed}", int(m.group(1)) if m else first, loose, lines)
    return make_atom(rel, project, folder, stem, None, None, parsed, lines)


def list_dir(path: str, *, tree_root: bool = False) -> list[os.DirEntry] | str:
    """The folder's entries by name; [] when it is absent; why not when it cannot be listed. Every folder the
    audit walks is listed here, and a symlink inside the tree is never listed (it could lead outside it); only
    CONTEXT itself (`tree_root`) may be an alias, like the memory root on the LifeOS side."""
    try:
        if not tree_root and stat.S_ISLNK(os.lstat(path).st_mode):
            return "is a symlink (not followed)"
        with os.scandir(path) as entries:
            return sorted(entries, key=lambda entry: entry.name)
    except FileNotFoundError:
        return []
    except OSError as error:
        return describe_os_error(error)


def is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def is_atom_name(name: str) -> bool:
    return name.endswith(".md") and name != "index.md" and not name.startswith(("_", "."))


def scan_project(layout: DenseLayout, name: str, path: str, unreadable: list[str]) -> Project:
    atoms: list[Atom] = []
    folders: list[str] = []
    unlisted: list[str] = []
    for folder in ATOM_FOLDERS:
        where = os.path.join(path, folder)
        entries = list_dir(where)
        if isinstance(entries, str):
            unreadable.append(f"{layout.rel(where)}: {entries}")
            unlisted.append(folder)
            continue
        if entries or os.path.isdir(where):
            folders.append(folder)
        for entry in entries:
            if is_atom_name(entry.name):
                rel = f"projects/{name}/{folder}/{entry.name}"
                atoms.append(read_atom(entry.path, rel, name, folder, entry.name[:-3]))
    return Project(name, path, tuple(atoms), tuple(folders), unlisted=tuple(unlisted))


def scan(layout: DenseLayout, analyses: Analyses) -> Tree:
    """Every project under CONTEXT/projects with what each analysis found in its atoms."""
    unreadable: list[str] = []
    entries = list_dir(layout.projects)
    if isinstance(entries, str):
        return Tree((), (f"projects: {entries}",))
    unreadable.extend(f"projects/{entry.name}: is a symlink (not followed)" for entry in entries
                      if not entry.name.startswith(".") and entry.is_symlink())
    projects = [analyse(layout, scan_project(layout, entry.name, entry.path, unreadable), analyses)
                for entry in entries if not entry.name.startswith(".") and is_dir(entry)]
    return Tree(tuple(projects), tuple(unreadable))


def regular_file(path: str) -> str | None:
    """None for a regular, non-symlink file; else why not ('missing' when absent)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        return describe_os_error(error)
    if stat.S_ISLNK(info.st_mode):
        return "is a symlink"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    return None
