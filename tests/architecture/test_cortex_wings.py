"""Cortex's wings run one way: each folder under cortex/ imports only the folders on the floors below it.

Every import (module level and inside functions: a lazy import is still a dependency) is read
with tests.architecture.test_import_direction's reader. A wing is a folder under cortex/; each module at the
top of cortex/ (errors, layout, the evidence rows, the CLI plumbing) is a node of its own, since
they sit on different floors (errors and layout below core, the rows just above it, the CLI at
the top). The wings' floors are stated by folder; a wing that imports one above it, or any loop
between wings and top-level modules, fails with the edges that make it.
"""
from __future__ import annotations

from tests.architecture.test_import_direction import graph

# lowest first; a wing imports only wings before it (and top-level modules that do the same)
WINGS = ("cortex/core", "cortex/hot", "cortex/write", "cortex/searchcache", "cortex/review", "cortex/benchmark",
         "cortex/commands", "cortex/schemas")


def node(module: str) -> str:
    """The wing folder holding `module`, or the module itself for one at the top of cortex/."""
    path = module.replace(".", "/")
    return next((wing for wing in WINGS if path == wing or path.startswith(wing + "/")), path)


def wing_edges() -> dict[str, dict[str, list[str]]]:
    """node -> node it imports -> the module imports that make the edge."""
    edges: dict[str, dict[str, list[str]]] = {}
    for module, targets in graph().items():
        if not module.startswith("cortex"):
            continue
        for target in targets:
            if target.startswith("cortex") and node(target) != node(module):
                edges.setdefault(node(module), {}).setdefault(node(target), []).append(f"{module} -> {target}")
    return edges


def test_a_wing_imports_no_wing_above_it():
    upward = [f"{source} imports {target}: {sorted(made)}" for source, targets in wing_edges().items()
              if source in WINGS for target, made in targets.items()
              if target in WINGS and WINGS.index(target) > WINGS.index(source)]
    assert upward == []


def test_there_is_no_loop_between_wings():
    edges = wing_edges()
    state: dict[str, int] = {}
    loops: list[str] = []

    def visit(current: str, trail: list[str]) -> None:
        state[current] = 1
        for target in sorted(edges.get(current, {})):
            if state.get(target) == 1:
                loop = trail[trail.index(target):] + [target]
                loops.append(" -> ".join(loop) + f" ({edges[current][target][0]})")
            elif target not in state:
                visit(target, trail + [target])
        state[current] = 2

    for start in sorted(edges):
        if start not in state:
            visit(start, [start])
    assert loops == []


def test_the_checks_see_every_wing_and_a_loop():
    edges = wing_edges()
    assert set(WINGS) <= set(edges) | {target for targets in edges.values() for target in targets}
    assert node("cortex.core.search") == "cortex/core" and node("cortex.errors") == "cortex/errors"
    assert "cortex/core" in edges["cortex/hot"] and "cortex/hot" in edges["cortex/write"]  # what the floors rest on
