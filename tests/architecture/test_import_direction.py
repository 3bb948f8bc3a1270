"""Arrows run one way, by folder: cortex ← thresholds ← collectors ← reports ← health/judge ← health.

Every import in the tree (module level and inside functions, since a lazy import is still a
dependency) is read with ast and each module is placed on the floor of the deepest folder that
holds it; an import that runs back up, or any import cycle between our modules, fails with the
exact edge. reports/ (the report's vocabulary, value, schema and formats) imports nothing from
health/: a report read back from a stored line is joined to the catalogue by a lookup its caller
passes in. health/judge/ (catalogue, rules, the check list, the evaluator) imports nothing from
the application around it in health/.
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.health_support import REPO

PACKAGES = ("cortex", "thresholds", "collectors", "health", "reports")
# the floors, lowest first, each a folder; a module is on the floor of the deepest folder holding it
FLOORS = ("cortex", "thresholds", "collectors", "reports", "health/judge", "health")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((REPO / package).rglob("*.py"))}


def floor(module: str) -> int:
    path = module.replace(".", "/")
    return max((index for index, folder in enumerate(FLOORS) if path == folder or path.startswith(folder + "/")),
               key=lambda index: len(FLOORS[index]))


def imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in known and name != module)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {module: imports(module, path, known) for module, path in known.items()}


def test_every_module_is_on_a_floor_and_the_graph_is_not_empty():
    edges = graph()
    assert len(edges) > 100 and sum(map(len, edges.values())) > 200
    assert {floor(module) for module in edges} == set(range(len(FLOORS)))


def test_no_import_runs_back_up():
    upward = [f"{module} ({FLOORS[floor(module)]}) imports {target} ({FLOORS[floor(target)]})"
              for module, targets in graph().items() for target in sorted(targets) if floor(target) > floor(module)]
    assert upward == []


def test_there_is_no_import_cycle():
    edges = graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(module: str, trail: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                cycles.append(trail[trail.index(target):] + [target])
            elif target not in state:
                visit(target, trail + [target])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_the_checks_find_a_back_arrow_and_a_cycle():
    # the detectors themselves: a reports module importing the CLI is an upward edge
    assert floor("reports.document") < floor("health.cli") and floor("collectors.readers.jsonl") < floor("health.judge.model")
    assert floor("thresholds.clock") < floor("collectors.runner") < floor("reports.hints") < floor("health.judge.checks")
    assert floor("health.judge.catalogue.find") > floor("reports.report")  # a stored line's lookup is passed in
    # the judge is below the application around it: a rule importing the options runs back up
    assert floor("health.judge.rules.locks") < floor("health.options") == floor("health")
    assert floor("health.judge") == floor("health.judge.rules.dense_context.caps") > floor("reports.vocabulary")


def test_no_module_is_over_300_lines():
    """Small modules with one job each: the developers' guide's limit, kept by the wings split."""
    long = [f"{module}: {lines}" for module, path in modules().items()
            if (lines := path.read_text().count("\n")) > 300]
    assert long == []
