"""Every id and severity is written once, in its catalogue module: the rules report a declared Problem or Ok.

The rules (and the evaluator, health.run and the OTLP export, which report the run's outcomes)
are read with ast: no string that is a finding id (or the head of a templated one), no
severity literal, no Finding made by hand.
A live finding carries the entry of the Problem or Ok that reported it, the same one the lookup
finds for its id (so a report and its stored line render alike).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from health.judge import checks
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of
from health.judge.catalogue.find import known_ids, lookup
from tests.health_support import REPO

# the rules, and what reports the run's outcomes (collector errors; publication; the OTLP export)
EMITTERS = sorted((REPO / "health" / "judge" / "rules").rglob("*.py")) + [REPO / "health" / name for name in (
    "judge/evaluate.py", "run.py", "otel/export.py")]
SEVERITIES = {"warn", "critical"}
CONSTRUCTORS = {"ok", "warn", "critical", "Finding", "Severity"}


def skeleton(text: str) -> str:
    return re.sub(r"\{[a-z]+\}", "{}", text)


def id_shapes() -> tuple[set[str], set[str]]:
    """(every id's skeleton and the head of a templated one, every id's leading words: `install-`, `dc-cap-`)."""
    whole, prefixes = set(), set()
    for finding_id in known_ids():
        whole.add(skeleton(finding_id))
        head = finding_id.split("{", 1)[0]
        if "{" in finding_id and len(head) >= 8:
            whole.add(head.rstrip(":-"))
        prefixes.update(head[:i + 1] for i, char in enumerate(head) if char in "-:" and i >= 5)
    return whole, prefixes


def string_of(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
    return None


def written_twice(source: str, name: str = "<rule>") -> list[str]:
    """What in `source` writes an id or a severity the catalogue already holds."""
    whole, prefixes = id_shapes()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "health.judge.findings":
            found += [f"{name}:{node.lineno}: imports {a.name}" for a in node.names if a.name in CONSTRUCTORS]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Finding":
            found.append(f"{name}:{node.lineno}: makes a Finding")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Severity":
            found.append(f"{name}:{node.lineno}: uses Severity.{node.attr}")
        elif isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            text = string_of(node)
            if text in SEVERITIES:
                found.append(f"{name}:{node.lineno}: severity literal {text!r}")
            elif text in whole or text.rstrip(":-") in whole and len(text) >= 8:
                found.append(f"{name}:{node.lineno}: finding id {text!r}")
            elif isinstance(node, ast.JoinedStr) and len(node.values) > 1 and string_of(node.values[0]) in prefixes:
                found.append(f"{name}:{node.lineno}: templated finding id {text!r}")
    return found


def test_no_rule_writes_an_id_or_a_severity():
    found = [problem for path in EMITTERS
             for problem in written_twice(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))]
    assert found == []


@pytest.mark.parametrize("source", [
    'from health.judge.findings import warn\nyield warn("lock-stale:x", "m")',
    'yield LOCK.at(message="m", severity="critical")',
    'KINDS = {"duplicate-id": (DUP, "dc-duplicate-id", "the same id")}',
    'yield KINDS[kind].at(message=f"install-{kind}")',
    'return Finding(f"lock-held:{name}", Severity.OK, "m")',
    'ID = "reviewer-stale"',
])
def test_the_scan_finds_an_id_or_a_severity_written_in_a_rule(source):
    assert written_twice(source)


def test_the_scan_leaves_messages_and_states_alone():
    assert written_twice('if item.state != "ok":\n    yield X.at(message=f"{n} locks are stale: {why}.")') == []


def test_a_finding_carries_the_entry_its_id_looks_up():
    check = Check("locks:holder", "every held write lock has a live holder")
    held, stale = Ok("lock-held:{file}", check), Problem("lock-stale:{file}", WARN, check, "m.", ("c",), "f.")
    assert checks_of(held, stale) == (check._replace(ok=("lock-held:{file}",), problems=(stale,)),)
    finding = stale.at("memory.lock", message="held", pid=None, host="h")
    assert (finding.id, finding.severity.value, dict(finding.detail)) == ("lock-stale:memory.lock", WARN, {"host": "h"})
    assert finding.entry.problem is stale and finding.entry.label == "memory.lock"
    looked_up = lookup("lock-stale:memory.lock")
    assert (looked_up.problem.id, looked_up.label) == (stale.id, finding.entry.label)
    assert held.at("a.lock", message="ok").entry.problem is None
    # a slot value the lookup could not read back from the id: no entry, as its stored line would have none
    assert stale.at(".hidden lock", message="m").entry is None
    with pytest.raises(TypeError):
        stale.at(message="no slot value")


def test_every_problem_and_ok_constant_is_listed_in_its_module():
    import importlib

    for path in sorted((REPO / "health" / "judge" / "catalogue").glob("*.py")):
        module = importlib.import_module(f"health.judge.catalogue.{path.stem}")
        declared = {value.id for value in vars(module).values() if isinstance(value, (Ok, Problem))}
        if not declared:
            continue  # the package, the lookup, the reference generator
        listed = {entry_id for name in ("CHECKS", "INPUTS", "OUTCOMES") for check in getattr(module, name, ())
                  for entry_id in (*check.ok, *(p.id for p in check.problems))}
        assert declared == listed, path.name
    assert {p.severity for check in checks.catalogue() for p in check.problems} == {WARN, CRITICAL}
