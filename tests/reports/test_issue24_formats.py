"""Every new id of issue 24 (probe, hook latency, hot content) shows in every output format, from one real run."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from reports.formats import load, names
from health.judge.catalogue.find import lookup
from reports.report import from_document
from tests import hot_content_scenarios as hc
from tests.health_support import NOW, REPO
from tests.latency_scenarios import recall_rows
from tests.probe_support import edit_hook, probe_env, wired_tree

IDS = ["probe-failed:render", "hook-slow:recall", "hot-entry-imperative:principal", "hot-entry-injection:principal",
       "hot-entries-duplicate:da", "hot-entry-ephemeral:principal"]


@pytest.fixture(scope="module")
def document(tmp_path_factory):
    base = tmp_path_factory.mktemp("formats")
    root = wired_tree(base)
    for mutate in (hc.principal_imperative, hc.principal_injection, hc.principal_ephemeral):
        mutate(root)
    hc.add_entries(root, "da", "NAME: Kestrel ~explicit", "NAME: kestrel ~inferred")  # init's DA file is empty
    recall_rows(root, [9000.0] * 10)  # the recall timeout setup writes is 10 s
    edit_hook(root, "hot render", env={"CORTEX_SUBAGENT": "1"})  # render prints nothing in the probe
    done = subprocess.run([sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write",
                           "--format", "json", "--probe"], capture_output=True, text=True, env=probe_env(base),
                          cwd=REPO, timeout=300)
    report = json.loads(done.stdout)
    assert set(IDS) <= {finding["id"] for finding in report["findings"]}, report["findings"]
    return report


@pytest.mark.parametrize("name", [name for name in names() if name != "statusline"])
def test_every_new_id_shows_in_every_format(document, name):
    out = io.StringIO()
    load(name).render(from_document(document, lookup=lookup), out, tty=False, verbose=True, environ={})
    text = out.getvalue()
    for finding_id in IDS:
        assert finding_id in text or finding_id.replace(":", "%3A") in text, (name, finding_id)


def test_the_status_line_counts_them(document):
    out = io.StringIO()
    load("statusline").render(from_document(document, lookup=lookup), out, tty=False, environ={})
    # the line counts the problems and names the first critical id only
    assert out.getvalue().startswith(f"mem ✖ crit {len(document['findings'])} · ")
