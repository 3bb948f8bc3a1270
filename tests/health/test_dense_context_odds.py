"""Dense Context odds and ends (issue 23, point 12), through the real CLI: the auditor's own log folder,
every cap threshold in --list-checks, and `explain` of a templated id in its bare form."""
from __future__ import annotations

import json
import shutil
import stat
import sys
from pathlib import Path

import pytest

from health.judge.catalogue.find import known_ids, lookup
from health.explain import bare_form, bare_templates
from tests.health_support import NOW, REPO, clean_env
from tests.ops_support import run_command

FIXTURE = REPO / "fixtures" / "dense-context"
CAPS = ("dc_status_max_lines", "dc_status_max_bytes", "dc_agents_max_lines", "dc_agents_max_bytes")


def health(*args: str) -> "subprocess.CompletedProcess[str]":  # noqa: F821
    return run_command([sys.executable, "-m", "health", *args], env=clean_env())


def test_a_first_publication_creates_the_private_log_folder_and_stays_green(tmp_path):
    tree = tmp_path / "cortex"
    shutil.copytree(FIXTURE, tree, symlinks=True)
    shutil.rmtree(tree / "logs")
    for _ in range(2):
        done = health("--root", str(tree), "--now", NOW, "--json")
        report = json.loads(done.stdout)
        assert done.returncode == 0, done.stdout
        assert "health-log-append-failed" not in {f["id"] for f in report["findings"]}
    assert stat.S_IMODE((tree / "logs").stat().st_mode) == 0o700
    assert len((tree / "logs" / "cortex-health.jsonl").read_text().splitlines()) == 2


def test_a_missing_cortex_home_is_still_not_created(tmp_path):
    """Only the one folder beside context/ is made: a log path whose parent is gone still fails, saying why."""
    from collectors.dense_context.layout import DenseLayout
    from health.publish import append_line

    layout = DenseLayout(str(tmp_path / "gone"), str(tmp_path / "gone" / "context"),
                         str(tmp_path / "gone" / "logs" / "cortex-health.jsonl"))
    failure = append_line(layout, "{}")
    assert failure and "cannot be created" in failure and not (tmp_path / "gone").exists()


def test_list_checks_shows_every_cap_threshold_in_text_and_json():
    listed = health("--list-checks", "--layout", "dense-context")
    row = next(line for line in listed.stdout.splitlines() if line.strip().startswith("dc-cap-exceeded:"))
    assert all(f"{name} = " in row for name in CAPS), row
    rows = json.loads(health("--list-checks", "--layout", "dense-context", "--json").stdout)
    exceeded = next(item for item in rows if item["id"] == "dc-cap-exceeded:{path}")
    assert [limit["name"] for limit in exceeded["thresholds"]] == list(CAPS)
    assert exceeded["threshold"] == exceeded["thresholds"][0]


def test_explain_accepts_the_bare_form_of_every_templated_id():
    bare = bare_templates()
    templated = [finding_id for finding_id in known_ids() if "{" in finding_id]
    assert sorted(bare.values()) == sorted(templated)  # one bare form each, none shared
    assert not set(bare) & set(known_ids())  # and none is another id
    done = health("explain", *bare)
    assert done.returncode == 0, done.stderr
    for template in templated:
        assert f"\n{template} (" in "\n" + done.stdout
    assert "dc_agents_max_bytes = 8KiB" in done.stdout  # every threshold of the id, not only the first


@pytest.mark.parametrize("template, expected", [("dc-cap-exceeded:{path}", "dc-cap-exceeded"),
                                                ("{collector}-collector-error", "collector-error"),
                                                ("hook-command-missing:{event}:{program}", "hook-command-missing"),
                                                ("{label}-memory-missing", "memory-missing")])
def test_bare_form(template, expected):
    assert bare_form(template) == expected and lookup(template) is not None


def test_explain_of_an_unknown_bare_word_still_exits_3():
    done = health("explain", "dc-cap-exceede")
    assert done.returncode == 3 and "dc-cap-exceeded" in done.stderr
