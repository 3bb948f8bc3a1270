"""The hot-content memo is a hint: the verdicts with it, without it and after any damage to it are the same."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from collectors.lifeos.hot_content import collect
from collectors.lifeos.layout import Layout
from tests import hot_content_scenarios as hc
from tests.health_support import REPO, clean_env, copy_demo


def layout_of(root, cursors) -> Layout:
    return Layout.for_root(str(root), environ=clean_env())._replace(cursors=str(cursors) if cursors else None)


def verdicts(root, cursors):
    return collect(layout_of(root, cursors))


def memos(cursors) -> list:
    return sorted(cursors.glob("*.content")) if cursors.exists() else []


@pytest.fixture
def flagged(tmp_path):
    root = copy_demo(tmp_path)
    hc.principal_imperative(root)
    hc.da_duplicate(root)
    hc.principal_dated_soon(root)
    return root


@pytest.mark.parametrize("damage", [b"", b"not json", b'{"format": "cortex-health-hot-content/1"}',
                                    "rewrite-lines", "foreign-file", "other-key"])
def test_the_verdicts_never_depend_on_the_memo(flagged, tmp_path, damage):
    cursors = tmp_path / "cursors"
    cursors.mkdir()
    fresh = verdicts(flagged, None)
    assert verdicts(flagged, cursors) == fresh and len(memos(cursors)) == 2
    assert verdicts(flagged, cursors) == fresh  # from the memo
    for path in memos(cursors):
        memo = json.loads(path.read_text())
        if damage == "rewrite-lines":  # lines that no entry of the file has
            memo["judged"]["imperative"] = [1, [[9999, "made up", None]]]
        elif damage == "foreign-file":
            memo["file"] = "/elsewhere/PRINCIPAL_MEMORY.md"
        elif damage == "other-key":
            memo["key"] = "0" * 32
            memo["judged"]["imperative"] = [0, []]
        path.write_bytes(damage if isinstance(damage, bytes) else json.dumps(memo).encode())
    assert verdicts(flagged, cursors) == fresh


def test_an_edited_file_is_judged_again(flagged, tmp_path):
    cursors = tmp_path / "cursors"
    cursors.mkdir()
    before = verdicts(flagged, cursors)
    hc.principal_injection(flagged)
    after = verdicts(flagged, cursors)
    assert before.files[0].injection.total == 0 and after.files[0].injection.total == 1
    assert after == verdicts(flagged, None)


def test_a_remembered_file_loads_no_detector(flagged, tmp_path):
    code = ("import sys; from health.cli import run; "
            f"run(['--root', {str(flagged)!r}, '--now', '2026-11-29T12:00:00Z', '--no-write', '--json']); "
            "print(sorted(m for m in sys.modules if m in ('collectors.lifeos.hot_patterns', 'collectors.lifeos.hot_ephemera', "
            "'collectors.lifeos.hot_duplicates')), file=sys.stderr)")
    env = clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"))
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    second = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO,
                            timeout=120)
    assert first.stderr.strip().splitlines()[-1] != "[]" and second.stderr.strip().splitlines()[-1] == "[]"
    assert json.loads(first.stdout)["findings"] == json.loads(second.stdout)["findings"]
