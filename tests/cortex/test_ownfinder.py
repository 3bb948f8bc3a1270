"""cortex.ownfinder: our submodules are found where the usual search finds them, and anything unusual is left to it."""
from __future__ import annotations

import importlib
import pkgutil
import sys
from importlib.machinery import PathFinder
from pathlib import Path

import pytest

from cortex import ownfinder
from cortex.ownfinder import OWN, OwnFinder

REPO = Path(__file__).resolve().parents[2]


def our_module_names() -> list[str]:
    names = []
    for top in sorted(OWN):
        package = importlib.import_module(top)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, top + ".", onerror=lambda _: None)]
    return names


def parent_path(name: str) -> list[str]:
    return importlib.import_module(name.rpartition(".")[0]).__path__


def test_the_finder_is_first_once_any_of_our_packages_is_imported():
    assert sys.meta_path[0] is OwnFinder
    ownfinder.install()
    assert sys.meta_path.count(OwnFinder) == 1


def test_every_submodule_is_found_where_the_usual_search_finds_it():
    names = our_module_names()
    assert len(names) > 300  # the walk saw the whole tree, not an empty package
    for name in names:
        path = parent_path(name)
        ours, usual = OwnFinder.find_spec(name, path), PathFinder.find_spec(name, path)
        assert ours is not None, name
        assert (ours.origin, ours.submodule_search_locations, type(ours.loader)) == \
            (usual.origin, usual.submodule_search_locations, type(usual.loader)), name
        assert ours.cached == usual.cached and ours.parent == usual.parent, name


def test_imported_modules_came_through_it_and_load_as_usual():
    import collectors.lifeos.layout as module

    assert module.__spec__.loader.__class__.__name__ == "SourceFileLoader"
    assert module.__file__ == str(REPO / "collectors" / "lifeos" / "layout.py")
    assert module.__cached__.endswith(".pyc") and module.__package__ == "collectors.lifeos"


@pytest.mark.parametrize("name", ["cortex", "json", "json.decoder", "pydantic.fields"])
def test_names_outside_our_submodules_are_left_alone(name):
    path = None if "." not in name else ["/nowhere"]
    assert OwnFinder.find_spec(name, path) is None


def test_unusual_folders_are_left_to_the_usual_search(tmp_path):
    """A compiled module, a compiled package, a folder without __init__.py and a missing name: all None."""
    folder = tmp_path / "pkg"
    (folder / "plain").mkdir(parents=True)  # a namespace portion
    (folder / "compiled.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (folder / "compiled.py").write_text("X = 1\n")
    (folder / "cpkg").mkdir()
    (folder / "cpkg" / "__init__.abi3.so").write_bytes(b"")
    (folder / "cpkg" / "__init__.py").write_text("")
    (folder / "mod.py").write_text("X = 1\n")
    (folder / "sub").mkdir()
    (folder / "sub" / "__init__.py").write_text("")
    path = [str(folder)]
    for leaf in ("plain", "compiled", "cpkg", "absent"):
        assert OwnFinder.find_spec(f"health.{leaf}", path) is None, leaf
    assert OwnFinder.find_spec("health.mod", path).origin == str(folder / "mod.py")
    package = OwnFinder.find_spec("health.sub", path)
    assert package.origin == str(folder / "sub" / "__init__.py")
    assert package.submodule_search_locations == [str(folder / "sub")]
    assert OwnFinder.find_spec("health.mod", [str(folder), str(tmp_path)]) is None  # several folders: usual search
    assert OwnFinder.find_spec("health.mod", [str(tmp_path / "missing")]) is None


def test_a_module_added_after_its_folder_was_listed_takes_the_usual_search(tmp_path):
    """The listing is a hint: a name it lacks is left to the usual search, which finds the new file."""
    (tmp_path / "old.py").write_text("X = 1\n")
    path = [str(tmp_path)]
    assert OwnFinder.find_spec("reports.old", path) is not None  # the folder is listed now
    (tmp_path / "new.py").write_text("X = 2\n")
    assert OwnFinder.find_spec("reports.new", path) is None
    assert PathFinder.find_spec("reports.new", path).origin == str(tmp_path / "new.py")
