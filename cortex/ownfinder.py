"""Find our own packages' submodules without the general import search.

Python's import system asks every finder on `sys.meta_path` for each module (setuptools'
distutils hook, the built-in and frozen importers, then `PathFinder`, whose `FileFinder`
tries every suffix in the parent's folder, all in interpreted importlib code): about 0.3M
instructions per module, more than an empty module's loading. A hook imports 40-150 of our
modules, so that search was a fifth of its cost. This finder, first on `sys.meta_path`, answers
only for submodules of our five packages: it looks the name up in one listing of the parent's
folder and hands the file to the standard `SourceFileLoader`, which reads, validates and writes
the bytecode cache exactly as before. Anything else, or anything it is unsure of (an extension
module or a folder without `__init__.py` of that name, a parent with several folders, a name
the listing lacks), it leaves to the usual finders, so what is imported never changes.
"""

import sys
from os import listdir

try:  # importlib's own classes, as importlib.machinery exports them (importing that costs 1.8M instructions)
    from _frozen_importlib import ModuleSpec
    from _frozen_importlib_external import EXTENSION_SUFFIXES, SourceFileLoader
except ImportError:  # an interpreter without CPython's frozen importlib: the usual search only
    ModuleSpec = None

OWN = frozenset({"cortex", "collectors", "health", "reports", "thresholds"})
_listings: dict[str, frozenset[str]] = {}  # folder -> its names; a name added later misses and takes the usual path


def _names(folder: str) -> frozenset[str]:
    names = _listings.get(folder)
    if names is None:
        try:
            names = frozenset(listdir(folder))
        except OSError:  # not a folder (a zip's inside, say): nothing found here
            names = frozenset()
        _listings[folder] = names
    return names


class OwnFinder:
    """The `sys.meta_path` finder for our packages' submodules (a class: finders may be classes)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        top, _, rest = name.partition(".")
        if not rest or top not in OWN or path is None or len(path) != 1:
            return None
        folder = path[0]
        leaf = rest.rpartition(".")[2]
        names = _names(folder)
        if any(leaf + suffix in names for suffix in EXTENSION_SUFFIXES):
            return None  # an extension module would win the usual search: let it
        base = f"{folder}/{leaf}"
        if leaf in names:  # a package folder wins over a module file, as in FileFinder
            inside = _names(base)  # listed once: its own submodules are looked up in it next
            if "__init__.py" not in inside or any("__init__" + suffix in inside for suffix in EXTENSION_SUFFIXES):
                return None  # a namespace portion, a stray folder or a compiled package: the usual search decides
            init = base + "/__init__.py"
            spec = ModuleSpec(name, SourceFileLoader(name, init), origin=init, is_package=True)
            spec.submodule_search_locations = [base]
        elif leaf + ".py" in names:
            source = base + ".py"
            spec = ModuleSpec(name, SourceFileLoader(name, source), origin=source)
        else:
            return None
        spec.has_location = True
        return spec


def install() -> None:
    """Put the finder first on `sys.meta_path`, once."""
    if ModuleSpec is not None and OwnFinder not in sys.meta_path:
        sys.meta_path.insert(0, OwnFinder)
