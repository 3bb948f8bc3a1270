"""Output formats: every format renders every overall; nagios, health+json and github meet their conventions."""
from __future__ import annotations

import inspect
import io
import json
import re
import subprocess
import sys

import jsonschema
import pytest

from reports.formats import FORMAT_MODULES, load, names
from reports.formats.github import annotations, escape_data, escape_property, summary_markdown
from reports.formats.nagios import MAX_FIRST_LINE
from health.judge.catalogue.find import lookup
from reports.report import from_document
from tests import health_scenarios as s
from tests.health_support import NOW, REPO, clean_env, copy_demo
from tests.ops_support import documents, health

NAGIOS_PERF = re.compile(r"'(?:[^']|'')+'=-?[0-9.]+(?:s|ms|us|%|B|KB|MB|TB|c)?(?:;-?[0-9.]*){0,4}")


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> dict[str, dict]:
    return documents(tmp_path_factory.mktemp("docs"))


def render(name: str, document: dict, **context) -> str:
    out = io.StringIO()
    load(name).render(from_document(document, lookup=lookup), out, tty=False, **context)
    return out.getvalue()


def test_the_documents_cover_every_overall(docs):
    assert {name: doc["overall"] for name, doc in docs.items()} == {
        "ok": "ok", "warn": "warn", "critical": "critical", "unknown": "unknown"}


def test_every_format_renders_every_overall_and_takes_the_same_keywords(docs):
    assert {"json", "text", "statusline", "prometheus", "nagios", "health+json", "github"} <= set(names())
    assert FORMAT_MODULES["health+json"] == "health_json" and "health_json" not in names()
    for name in names():
        parameters = inspect.signature(load(name).render).parameters
        assert {"tty", "verbose", "environ"} <= set(parameters), name
        for overall, document in docs.items():
            assert render(name, document, verbose=True, environ={}).strip(), (name, overall)


def test_listing_the_formats_imports_no_module_walker():
    # pkgutil.iter_modules imports inspect (ast, dis, tokenize): milliseconds on every parsed command line
    code = "import sys, reports.formats as f; f.names(); print(sorted({'pkgutil', 'inspect'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


def test_unknown_format_is_a_key_error():
    with pytest.raises(KeyError):
        load("yaml")


# ---- nagios -------------------------------------------------------------------------------

def test_nagios_first_line_status_and_length(docs):
    words = {"ok": "OK", "warn": "WARNING", "critical": "CRITICAL", "unknown": "UNKNOWN"}
    for overall, document in docs.items():
        lines = render("nagios", document).splitlines()
        assert lines[0].startswith(f"CORTEX HEALTH {words[overall]} - "), lines[0]
        status, perfdata = lines[0].split(" | ")  # the perfdata on the first line: NRPE v2 keeps it
        assert len(status) < 80 and perfdata.startswith("'critical'=")


def test_nagios_long_ids_are_cut_within_80_characters(docs):
    document = json.loads(json.dumps(docs["critical"]))
    document["findings"] = [dict(document["findings"][0], id=f"very-long-finding-id-number-{i}") for i in range(9)]
    status = render("nagios", document).splitlines()[0].split(" | ")[0]
    assert len(status) <= MAX_FIRST_LINE and status.endswith("...")


def test_nagios_perfdata_follows_the_plugin_api(docs):
    text = render("nagios", docs["warn"])
    assert text.count("|") == 1  # one separator: messages never add a second
    first, long_text = text.split("\n", 1)
    perfdata = first.split(" | ")[1]
    assert "[WARNING] retrieval-stale:" in long_text and "[WARNING] proposal-backlog-high:" in long_text
    items = perfdata.split()
    assert items and all(NAGIOS_PERF.fullmatch(item) for item in items), items
    assert "'warn'=2;0;;0" in items and "'critical'=0;;0;0" in items
    assert "'pending_proposals'=11;10;;0" in items
    assert any(item.startswith("'retrieval_age_seconds'=90000s;86400") for item in items)


def test_nagios_strips_pipes_and_newlines_from_messages(docs):
    document = json.loads(json.dumps(docs["critical"]))
    document["findings"][0]["message"] = "a | b\n| c"
    text = render("nagios", document)
    assert text.count("|") == 1 and "a / b / c" in text


def test_nagios_exit_codes_through_the_cli(tmp_path):
    root = copy_demo(tmp_path)
    base = ["--root", str(root), "--now", NOW, "--no-write", "--format", "nagios"]
    assert health(*base).returncode == 0
    assert health(*base, "--threshold", "proposal_backlog=1").returncode == 1
    s.reviewer_failed(root)
    done = health(*base)
    assert done.returncode == 2 and done.stdout.startswith("CORTEX HEALTH CRITICAL - 1 critical: reviewer-latest")
    missing = health("--root", str(tmp_path / "nowhere"), "--format", "nagios")
    assert missing.returncode == 3 and missing.stdout.startswith("CORTEX HEALTH UNKNOWN - root ")


# ---- health+json ---------------------------------------------------------------------------

HEALTH_JSON_SCHEMA = {  # draft-inadarei-api-health-check: the fields we emit and their types
    "type": "object",
    "required": ["status", "checks"],
    "properties": {
        "status": {"enum": ["pass", "fail", "warn"]},
        "version": {"type": "string"}, "serviceId": {"type": "string"}, "description": {"type": "string"},
        "output": {"type": "string"}, "notes": {"type": "array", "items": {"type": "string"}},
        "checks": {"type": "object", "propertyNames": {"pattern": "^[^:]+:[^:]+$"},
                   "additionalProperties": {"type": "array", "minItems": 1, "items": {
                       "type": "object", "required": ["status", "time", "componentId"],
                       "properties": {"status": {"enum": ["pass", "fail", "warn"]},
                                      "componentId": {"type": "string"}, "componentType": {"type": "string"},
                                      "observedValue": {"type": "number"}, "observedUnit": {"type": "string"},
                                      "time": {"type": "string", "format": "date-time"},
                                      "output": {"type": "string"}},
                       "additionalProperties": False}}},
    },
    "additionalProperties": False,
}


def test_health_json_follows_the_draft_and_maps_severities(docs):
    statuses = {}
    for overall, document in docs.items():
        body = json.loads(render("health+json", document))
        jsonschema.validate(body, HEALTH_JSON_SCHEMA)
        statuses[overall] = body["status"]
    assert statuses == {"ok": "pass", "warn": "warn", "critical": "fail", "unknown": "fail"}
    warned = json.loads(render("health+json", docs["warn"]))
    stale = warned["checks"]["retrieval:latest"]
    assert stale == [{"componentId": "retrieval", "componentType": "component", "status": "warn",
                      "time": NOW.replace("Z", ".000Z"), "observedValue": 90_000_000, "observedUnit": "ms",
                      "output": stale[0]["output"]}]
    assert warned["checks"]["proposals:pending"][0]["observedValue"] == 11
    assert {item["componentId"] for item in warned["checks"]["hot-memory:markers"]} == {"principal", "da"}
    assert all(item["status"] == "pass" and "output" not in item for item in warned["checks"]["reviewer:latest-run"])
    assert "retrieval-stale" in warned["output"]


def test_health_json_through_the_cli_name_with_a_plus(tmp_path):
    done = health("--root", str(copy_demo(tmp_path)), "--now", NOW, "--no-write", "--format", "health+json")
    assert done.returncode == 0 and json.loads(done.stdout)["status"] == "pass"


# ---- github -------------------------------------------------------------------------------

def test_github_escaping_follows_the_runner():
    assert escape_data("50% done\r\nnext::x") == "50%25 done%0D%0Anext::x"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_github_annotations_are_worst_first_escaped_and_within_the_step_limit(docs):
    document = json.loads(json.dumps(docs["critical"]))
    base = document["findings"][0]
    document["findings"] = ([dict(base, id=f"crit-{i}", message=f"line one\nline {i}") for i in range(12)]
                            + [dict(base, id="w-1", severity="warn", message="100% sure, really")])
    lines = annotations(from_document(document, lookup=lookup))
    errors = [line for line in lines if line.startswith("::error ")]
    assert len(errors) == 10 and errors[-1].endswith("3 more critical findings: see the job summary or run "
                                                     "cortex-health -v")
    assert errors[0] == "::error title=cortex-health crit-0::line one%0Aline 0"
    assert lines.index(errors[-1]) < lines.index("::warning title=cortex-health w-1::100%25 sure, really")
    assert all("\n" not in line for line in lines)


def test_github_summary_is_appended_as_markdown(docs, tmp_path):
    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step\n")
    out = render("github", docs["warn"], environ={"GITHUB_STEP_SUMMARY": str(summary)})
    text = summary.read_text()
    assert text.startswith("earlier step\n## cortex-health: WARN")
    assert "| warn | `retrieval-stale` |" in text and "<details><summary>ok checks</summary>" in text
    assert out.splitlines()[-1] == "cortex-health WARN: critical 0, warn 2, ok 62"


def test_github_summary_escapes_table_cells(docs):
    document = json.loads(json.dumps(docs["critical"]))
    document["findings"][0]["message"] = "a|b <script>\nc"
    markdown = summary_markdown(from_document(document, lookup=lookup))
    row = next(line for line in markdown.splitlines() if "a\\|b" in line)
    assert "&lt;script&gt; c" in row and row.count(" | ") == 4


def test_github_summary_write_failure_is_an_annotation(docs, tmp_path):
    out = render("github", docs["ok"], environ={"GITHUB_STEP_SUMMARY": str(tmp_path)})  # a directory
    assert "::warning title=cortex-health::job summary not written" in out


def test_github_is_the_default_under_github_actions(tmp_path):
    summary = tmp_path / "summary.md"
    root = copy_demo(tmp_path)
    env = clean_env(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    done = health("--root", str(root), "--now", NOW, "--no-write", "--threshold", "proposal_backlog=1", env=env)
    assert done.returncode == 1
    assert done.stdout.startswith("::warning title=cortex-health proposal-backlog-high::")
    assert "## cortex-health: WARN" in summary.read_text()
    kept = health("--root", str(root), "--now", NOW, "--no-write", "--json", env=env)
    assert json.loads(kept.stdout)["overall"] == "ok"


# ---- exit-code policy and loudness -----------------------------------------------------------

def test_fail_on_chooses_what_fails_the_job(tmp_path):
    root = copy_demo(tmp_path)
    base = ["--root", str(root), "--now", NOW, "--no-write", "--threshold", "proposal_backlog=1"]
    assert [health(*base, *extra).returncode for extra in ([], ["--fail-on", "warn"], ["--fail-on", "critical"],
                                                            ["--fail-on", "never"])] == [1, 1, 0, 0]
    s.reviewer_failed(root)
    assert health(*base, "--fail-on", "critical").returncode == 2
    assert health(*base, "--fail-on", "never").returncode == 0
    assert health("--root", str(tmp_path / "nowhere"), "--fail-on", "never").returncode == 3


def test_quiet_prints_nothing_when_ok_and_everything_otherwise(tmp_path):
    root = copy_demo(tmp_path)
    base = ["--root", str(root), "--now", NOW, "--no-write", "--format", "text", "--quiet"]
    ok = health(*base)
    assert ok.returncode == 0 and ok.stdout == "" and ok.stderr == ""
    warned = health(*base, "--threshold", "proposal_backlog=1")
    assert warned.returncode == 1 and "proposal-backlog-high" in warned.stdout
    assert health(*base, "-v").stdout == ""  # -v with --quiet: still nothing when ok
    both = health(*base, "-v", "--threshold", "proposal_backlog=1")  # and the verbose report otherwise
    assert both.returncode == 1 and "threshold: proposal_backlog = 1 (cli --threshold)" in both.stdout


def test_statusline_format_of_a_fresh_run(docs):
    assert render("statusline", docs["ok"]) == "mem ✓ ok\n"
    assert render("statusline", docs["warn"]) == "mem ▲ warn 2 · retrieval-stale\n"
    assert render("statusline", docs["critical"]) == "mem ✖ crit 2 · reviewer-latest-failed\n"
    assert render("statusline", docs["unknown"]) == "mem ? unknown · root /nowhere is not a directory\n"
