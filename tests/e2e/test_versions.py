"""Conventions people expect (issue 23, point 7): --version on both CLIs (the installed version), the version in
every report, a LICENSE, a changelog, and pyproject metadata whose comments are true."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import metadata, version

import jsonschema
import pytest

import cortex
from tests.health_support import NOW, REPO, clean_env, copy_demo
from tests.architecture.test_startup_imports import modules_after

INSTALLED = version("cortex-health")


def script(name: str) -> str:
    return shutil.which(name, path=os.path.dirname(sys.executable))


@pytest.mark.parametrize("program, args", [("cortex", ["--version"]), ("cortex", ["-V"]),
                                           ("cortex-health", ["--version"]), ("cortex-health", ["-V"]),
                                           ("cortex-health", ["--root", "/nowhere", "--version"])])
def test_both_clis_print_the_installed_version(program, args):
    done = subprocess.run([script(program), *args], capture_output=True, text=True, env=clean_env(), timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{program} {INSTALLED} (cortex-health)\n", "")


def test_the_source_release_is_the_installed_version_and_the_help_names_the_flag():
    assert cortex.__version__ == INSTALLED
    helped = subprocess.run([script("cortex-health"), "--help"], capture_output=True, text=True, env=clean_env())
    assert "--version" in helped.stdout
    assert "cortex --version" in subprocess.run([script("cortex"), "--help"], capture_output=True, text=True).stdout


def test_every_report_carries_the_version_and_validates(tmp_path):
    schema = json.loads((REPO / "reports" / "schemas" / "cortex-health-report.schema.json").read_text())
    root = copy_demo(tmp_path)
    done = subprocess.run([script("cortex-health"), "--root", str(root), "--now", NOW, "--json"],
                          capture_output=True, text=True, env=clean_env(), timeout=120)
    report = json.loads(done.stdout)
    assert report["version"] == INSTALLED and list(report)[-1] == "version"
    jsonschema.validate(report, schema)
    line = json.loads((root / "LIFEOS/MEMORY/OBSERVABILITY/memory-health.jsonl").read_text().splitlines()[-1])
    assert line["version"] == INSTALLED and list(line)[-2:] == ["version", "chain"]  # the chain stays last
    unknown = subprocess.run([script("cortex-health"), "--root", str(tmp_path / "nowhere"), "--json"],
                             capture_output=True, text=True, env=clean_env(), timeout=120)
    assert unknown.returncode == 3 and json.loads(unknown.stdout)["version"] == INSTALLED


def test_a_line_without_a_version_still_reads_and_writes_back_without_one():
    from reports.report import from_document
    from reports.reportjson import report_json

    old = {"schema": "cortex-health/v1", "ts": NOW, "overall": "ok", "counts": {"critical": 0, "warn": 0, "ok": 0},
           "thresholds": {}, "evidence": {}, "findings": [], "ok_summary": [], "root": None, "duration_ms": 1.0,
           "reason": None}
    assert json.loads(report_json(from_document(old).document())) == old


def test_asking_for_the_version_costs_the_audit_nothing(tmp_path):
    modules = modules_after("health", ["--root", str(copy_demo(tmp_path)), "--now", NOW, "--json", "--no-write"],
                            clean_env(), tmp_path)
    assert "importlib.metadata" not in modules and "email" not in modules


def test_license_changelog_and_pyproject_metadata():
    assert (REPO / "LICENSE").read_text().startswith("MIT License\n")
    changelog = (REPO / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and f"## [{INSTALLED}]" in changelog
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    # PEP 639: an SPDX expression, not the deprecated table and license classifier (setuptools fails those from 2027)
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert not any(classifier.startswith("License ::") for classifier in project["classifiers"])
    assert project["keywords"] and {"Homepage", "Changelog"} <= set(project["urls"])
    meta = metadata("cortex-health")
    assert "Topic :: System :: Monitoring" in meta.get_all("Classifier") and meta["License-Expression"] == "MIT"
    orjson = next(line for line in (REPO / "pyproject.toml").read_text().splitlines() if '"orjson' in line)
    assert "required" in orjson and "optional" not in orjson
