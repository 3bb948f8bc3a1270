"""After `cortex init` and a few governed writes, the auditor finds the tree healthy except for evidence nobody produced."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.write_support import REPO, make_tree, register_cortex_hooks, run_in_process

NOT_YET_PRODUCED = {"reviewer-evidence-missing", "retrieval-missing", "state-missing"}


@pytest.mark.skipif(importlib.util.find_spec("health.cli") is None, reason="cortex-health is not installed yet")
def test_the_auditor_agrees_with_the_write_path(tmp_path):
    tree = make_tree(tmp_path)  # `cortex init` as a subprocess
    assert tree.hot_set("principal", ["NAME: Ada ~explicit", "PREFERENCE: terse replies ~explicit"]).code == 0
    assert tree.hot_set("da", ["ROLE: research assistant ~explicit"]).code == 0
    assert tree.hot_set("principal", []).code == 5  # a refused write leaves evidence, not damage
    idea = {"type": "idea", "title": "Health", "content": "Evidence, not hope."}
    assert run_in_process(tree, "remember", json.dumps(idea), "--adapter", "claude", "--allow-write").code == 0
    proposal = {"type": "proposal", "target_file": "PROJECTS.md", "target_kind": "projects", "edit": "Cortex",
                "confidence": 0.5, "rationale": "Mentioned daily."}
    ids = [run_in_process(tree, "propose", json.dumps(proposal), "--adapter", "hermes", "--allow-write")
           .data["result"]["detail"]["id"] for _ in range(3)]
    assert run_in_process(tree, "proposals", "approve", ids[0]).code == 0
    assert run_in_process(tree, "proposals", "reject", ids[1]).code == 0
    register_cortex_hooks(tree.root)  # a cortex-native install, as the auditor requires one
    rendered = subprocess.run([sys.executable, "-m", "cortex", "hot", "render"], capture_output=True, env=tree.env(),
                              cwd=str(REPO), timeout=60)  # the prompt hook ran: the surface heartbeat is current
    assert rendered.returncode == 0 and rendered.stdout.startswith(b"<lifeos-memory>")

    proc = subprocess.run([sys.executable, "-m", "health", "--root", str(tree.root), "--json", "--no-write",
                           "--now", tree.now], capture_output=True, env=tree.env(), cwd=str(REPO), timeout=60)
    report = json.loads(proc.stdout)
    findings = {finding["id"] for finding in report["findings"]}
    assert findings <= NOT_YET_PRODUCED, report["findings"]
    assert report["counts"]["critical"] == 0 and proc.returncode in (0, 1)
    for ok in ("index-no-index-v1", "markers-ok:principal", "markers-ok:da", "entries-valid:principal",
               "proposal-evidence-ok", "proposal-backlog-ok", "observability-evidence-present"):
        assert ok in report["ok_summary"]
    assert report["evidence"]["proposals"]["pending"] == 1
