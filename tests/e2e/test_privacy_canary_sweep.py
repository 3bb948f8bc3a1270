"""The privacy canary sweep: canaries planted in private spans of every input never reach any output.

Each input family (tests/canary_families.py) gets one tree; every `cortex` command, every
`cortex-health` format and subcommand then runs over it once (module-scoped), and each
test looks for the family's canaries in one surface: a command's stdout and stderr, the
requests an `--otlp` export posted to a loopback receiver, or the files written (run
directories, prompts, logs, cursors, the report path, the Prometheus textfile, the GitHub
step summary). Snapshots keep the old file byte for byte, so they are left out
of the file scan, but their content must never be printed. A meta-test derives the
commands, sub-verbs, flags, subcommands and formats from the code and fails when the
sweep misses one. Commands run in-process through the CLIs' own entry functions; the
prompt hooks (`hot render`, `recall`, `review fire`) run as real subprocesses, their
contract being stdin/stdout of a child process.
"""
from __future__ import annotations

import json
import os
import shlex
import socket
import sys
import time
from dataclasses import dataclass, field

import pytest

from cortex.commands import registry
from cortex.core.timestamps import iso_from_ms
from tests.canary_families import INFERENCE, SESSION, Family, new_family
from tests.canary_planters import PLANTERS, stale_lock
from tests.canary_support import (
    Output, cortex_flags, cortex_surfaces, health_surfaces, leak_report, run_cortex_in_process,
    run_health_in_process, run_subprocess, scan_files, written_files,
)
from tests.health_support import wait_for_gate
from tests.write_support import REPO

NOW = "2026-01-02T03:04:05.678Z"
# The plain-text hook commands (`hot render`, `recall`, `review fire`): run as real children.
HOOKS = frozenset(name for name, spec in registry().items() if not spec.enveloped)
FAMILIES = tuple(PLANTERS)


@dataclass
class Sweep:
    family: Family
    cortex: list[Output] = field(default_factory=list)
    health: list[Output] = field(default_factory=list)
    refused: list[Output] = field(default_factory=list)  # runs that fail on purpose (a held lock)
    failed: list[Output] = field(default_factory=list)  # reviews whose model command fails on purpose

    @property
    def outputs(self) -> list[Output]:
        return self.cortex + self.health


def _cortex(sweep: Sweep, *argv: str, stdin: str = "", **extra_env: str) -> Output:
    # The search cache goes under the tree's home, which the file scan covers.
    cache = {"CORTEX_CACHE_DIR": str(sweep.family.tree.home / ".cache" / "cortex")}
    env = sweep.family.tree.env(**{**cache, **sweep.family.env, **extra_env})
    if " ".join(argv[:2]) in HOOKS or argv[0] in HOOKS:  # a hook's contract is a child's stdin/stdout
        result = run_subprocess([sys.executable, "-m", "cortex"], list(argv), env, stdin, cwd=REPO)
    else:
        result = run_cortex_in_process(list(argv), env, stdin)
    sweep.cortex.append(result)
    return result


def _data(result: Output) -> dict:
    envelope = json.loads(result.stdout)
    return envelope["data"] or {}


def _age_canonical_files(memory) -> None:
    """Canonical files older than the racy margin, so the search cache stores (and the scan sees) their entries."""
    for current, _dirs, files in os.walk(memory):
        for name in files:
            if name.endswith((".md", ".jsonl")):
                os.utime(os.path.join(current, name), ns=(1_700_000_000 * 10**9,) * 2, follow_symlinks=False)


def _sweep_cortex(sweep: Sweep) -> None:
    family, tree = sweep.family, sweep.family.tree
    _age_canonical_files(tree.memory / "KNOWLEDGE")
    _cortex(sweep, "cache", "clear")
    _cortex(sweep, "status")
    ids = [card["id"] for card in _data(_cortex(sweep, "search", "sweep", "--page-size", "100")).get("items", [])]
    _cortex(sweep, "cache", "status")
    _cortex(sweep, "cache", "verify")
    anchor = ids[0] if ids else "sweep-public"
    _cortex(sweep, "search", "sweep", "--expand", anchor, "--max-nodes", "100", "--max-tokens", "50000")
    _cortex(sweep, "timeline", "--anchor", anchor, "--before", "50", "--after", "50")
    _cortex(sweep, "get", *(ids or ["sweep-public"]))
    _cortex(sweep, "export", *(ids or ["sweep-public"]))
    _cortex(sweep, "rebuild", "--from-canonical")
    _cortex(sweep, "benchmark", "--labels", str(family.labels), "--samples", "1",
            "--output", str(tree.memory / "BENCHMARKS" / "cortex-benchmark-v1-sweep.json"))
    _cortex(sweep, "init", "--root", str(tree.root))
    for label in ("principal", "da"):
        _cortex(sweep, "hot", "read", label)
    _cortex(sweep, "hot", "render")
    _cortex(sweep, "recall", "sweep public tea", "--limit", "5")
    for item in family.remember:
        _cortex(sweep, "remember", item, "--adapter", "claude", "--allow-write")
    proposal_ids = []
    for item in family.propose:
        result = _data(_cortex(sweep, "propose", item, "--adapter", "claude", "--allow-write")).get("result") or {}
        proposal_ids.append(result.get("detail", {}).get("id"))
    _cortex(sweep, "proposals", "list")
    _cortex(sweep, "proposals", "approve", proposal_ids[0] or "missing")
    _cortex(sweep, "proposals", "reject", proposal_ids[1] or "missing")
    _cortex(sweep, "hot", "set", "principal", "--allow-drastic", stdin=family.hot_set_stdin)
    _cortex(sweep, "hot", "snapshots")
    snapshots = _data(_cortex(sweep, "hot", "snapshots", "principal")).get("items", [])
    oldest = snapshots[-1]["name"] if snapshots else "missing"
    _cortex(sweep, "hot", "restore", "principal", oldest, "--allow-drastic")
    _cortex(sweep, "review", "run", "--input", str(family.transcript), "--dry-run")
    _cortex(sweep, "review", "run", "--input", str(family.transcript))
    _replay_failed_items(sweep)
    _failing_model_commands(sweep)
    _cortex(sweep, "review", "fire", "--session", SESSION, "--transcript", str(family.transcript))


def _replay_failed_items(sweep: Sweep) -> None:
    """A review whose items meet a live writer's lock keeps them (failed-items.json); `review replay` sends them."""
    family, tree = sweep.family, sweep.family.tree
    lock = tree.principal.parent / (tree.principal.name + ".lock")
    stamp = {"pid": os.getpid(), "host": socket.gethostname(), "ts": iso_from_ms(int(time.time() * 1000)), "token": "t"}
    lock.write_text(json.dumps(stamp))  # this live process holds it, stamped after it started
    sweep.refused.append(_cortex(sweep, "review", "run", "--input", str(family.transcript), CORTEX_LOCK_WAIT_MS="0"))
    lock.unlink()
    runs = tree.rows("reviewer-runs.jsonl")
    _cortex(sweep, "review", "replay", runs[-1]["runId"] if runs else "missing")


def _failing_model_commands(sweep: Sweep) -> None:
    """A program the config names but that is not installed, then one that fails with spans on its stderr: the
    errors (and the audit's reviewer findings, the last run being the newest) name the cause, never a span."""
    family, p = sweep.family, sweep.family.planter
    config = family.tree.lifeos / "USER" / "CONFIG" / "memory-review.json"
    kept = config.read_bytes() if config.exists() else None
    p.write(config, json.dumps({"schema_version": 1, "inference_command": [
        f"sweep-missing-model{p.span('reviewer config inference_command program (not installed)')}"]},
        ensure_ascii=False))
    sweep.failed.append(_cortex(sweep, "review", "run", "--input", str(family.transcript), PATH="/nonexistent",
                                CORTEX_REVIEWER_COMMAND=""))  # empty: unset, so the config names the program
    if kept is None:
        config.unlink()
        del p.planted[config]
    else:
        p.write(config, kept.decode("utf-8"))  # the family's own config again (still input, not output)
    stderr = p.write(family.base / "model-stderr.txt",
                     f"sweep model refused {p.span('inference stderr first line')} <private>\n"
                     f"{p.canary('inference stderr span across lines', 'multi-line')}\n</private> sweep public tail\n")
    sweep.failed.append(_cortex(sweep, "review", "run", "--input", str(family.transcript),
                                CORTEX_REVIEWER_COMMAND=shlex.join([sys.executable, str(INFERENCE / "garbage.py"),
                                                                    "crash", str(stderr)])))


def _sweep_health(sweep: Sweep) -> None:
    family = sweep.family
    if not any(family.tree.obs.glob("*.lock")):  # the evidence family plants its own, holding spans
        stale_lock(family.tree.obs / "sweep-dead.jsonl.lock")
    # The audit's log cursors go under the tree's home too, which the file scan covers.
    env = family.tree.env(**family.env, CORTEX_HEALTH_NOW=NOW, GITHUB_STEP_SUMMARY=str(family.base / "summary.md"),
                          CORTEX_CACHE_DIR=str(family.tree.home / ".cache" / "cortex"))
    report, textfile = family.base / "report.json", family.base / "cortex_health.prom"
    family.extra_outputs = [report, textfile, family.base / "summary.md"]
    root = ["--root", str(family.tree.root), *(["--config", str(family.health_config)] if family.health_config else [])]

    def health(*argv: str, **extra_env: str) -> Output:
        result = run_health_in_process(list(argv), {**env, **extra_env})
        sweep.health.append(result)
        return result

    health("statusline", "--root", str(family.tree.root))  # before this sweep publishes: the planted log's newest
    health("history", *root[:2])
    published = health(*root, "--format", "json", "--report-path", str(report), "--prometheus-textfile", str(textfile))
    from health.checkparser import build_parser
    from reports.formats import names

    formats = next(action.choices for action in build_parser(names())._actions if action.dest == "format")
    for name in formats:
        health(*root, "--format", name, "--no-write")
    health(*root, "--format", "text", "-v", "--no-write")
    _sweep_otlp(sweep, env, root, health)
    health(*root, "--list-checks")
    health("statusline", "--root", str(family.tree.root))
    health("statusline", "--root", str(family.tree.root), "--refresh")
    health("gate", *root, "--timeout", "60")  # its line is the newest published report's; its check runs detached
    wait_for_gate(family.tree.root)
    health("gate", *root, "--timeout", "60", "--wait")  # its line is this check's
    health("probe", *root, "--format", "text", "-v")  # the hooks and a round trip in a throw-away copy
    health(*root, "--probe", "--format", "json", "--no-write")
    health("history", *root)
    health("history", *root, "--json")
    health("fix", *root[:2], "--dry-run")
    health("fix", *root[:2])
    ids = sorted({finding["id"] for finding in json.loads(published.stdout or "{}").get("findings", [])})
    for finding_id in ids[:3] or ["retrieval-stale"]:
        health("explain", finding_id)
    for target in ("claude-code", "systemd", "cron", "prometheus", "otel"):  # reads no tree, but joins the sweep
        health("setup", target)
    health("setup", "claude-code", "--write", str(family.base / "setup-settings.json"))
    family.extra_outputs.append(family.base / "setup-settings.json")
    theirs = family.planter.write(family.base / "merge-settings.json", json.dumps({  # the user's file: not scanned
        "env": {"SWEEP_TOKEN": family.planter.span("settings.json env value (merge)")},
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command":
                                       f"cortex review fire # {family.planter.span('settings.json hook (merge)')}"}]}]}}))
    health("setup", "claude-code", "--merge", str(theirs))
    _sweep_dashboard(sweep, env)


def _sweep_otlp(sweep: Sweep, env: dict, root: list[str], health) -> None:
    """`--otlp` to a real loopback receiver, message content capture on: every body it received is one more output."""
    from tests.otlp_support import Receiver

    with Receiver() as receiver:
        health(*root, "--otlp", "--format", "json", "--no-write", **{
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url, "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true"})
    bodies = "\n".join(body.decode("utf-8", "replace") for _, _, body in receiver.received)
    sweep.health.append(Output("otlp export", ("--otlp",), 0, bodies, ""))


def _sweep_dashboard(sweep: Sweep, env: dict) -> None:
    """`cortex-health serve`: every page the dashboard serves, from a real server on a free loopback port."""
    from tests.serve_support import Server

    server = Server(sweep.family.tree.root, env=env)
    try:
        pages = "".join(server.get(path) for path in ("/", "/history", "/checks"))
    finally:
        stderr = server.stop()
    sweep.health.append(Output("serve", ("serve", "--root", str(sweep.family.tree.root)), 0, pages, stderr))


@pytest.fixture(scope="module", params=FAMILIES)
def sweep(request, tmp_path_factory) -> Sweep:
    family = new_family(request.param, tmp_path_factory.mktemp(f"canary-{request.param}"))
    PLANTERS[request.param](family)
    result = Sweep(family)
    _sweep_cortex(result)
    _sweep_health(result)
    return result


def _leaks_in(sweep: Sweep, outputs: list[Output]) -> list:
    found = []
    for output in outputs:
        name = f"{'cortex' if output in sweep.cortex else 'cortex-health'} {' '.join(output.argv)}"[:160]
        found += [(f"{name} (stdout)", site) for site in sweep.family.planter.leaks(output.stdout)]
        found += [(f"{name} (stderr)", site) for site in sweep.family.planter.leaks(output.stderr)]
    return found


@pytest.mark.parametrize("surface", sorted(cortex_surfaces()))
def test_no_canary_on_cortex_stdout_or_stderr(sweep: Sweep, surface: str):
    outputs = [output for output in sweep.cortex if output.surface == surface]
    assert outputs, f"the sweep never ran cortex {surface}"
    found = _leaks_in(sweep, outputs)
    assert not found, leak_report(found)


@pytest.mark.parametrize("surface", sorted(health_surfaces()))
def test_no_canary_on_cortex_health_stdout_or_stderr(sweep: Sweep, surface: str):
    outputs = [output for output in sweep.health if output.surface == surface]
    assert outputs, f"the sweep never ran cortex-health {surface}"
    found = _leaks_in(sweep, outputs)
    assert not found, leak_report(found)


def test_no_canary_in_the_check_without_a_format_or_list_checks(sweep: Sweep):
    found = _leaks_in(sweep, [output for output in sweep.health if output.surface == "check"])
    assert not found, leak_report(found)


def test_no_canary_in_the_otlp_export(sweep: Sweep):
    """Every OTLP request the receiver got (metrics, finding records, spans of the planted hook rows)."""
    exports = [output for output in sweep.health if output.surface == "otlp export"]
    assert exports and "resourceMetrics" in exports[0].stdout and "resourceLogs" in exports[0].stdout
    if sweep.family.name == "evidence":  # its planted hook rows: the valid ones are spans, the rest never leave
        assert "resourceSpans" in exports[0].stdout
    found = _leaks_in(sweep, exports + [output for output in sweep.health if "--otlp" in output.argv])
    assert not found, leak_report(found)


def test_no_canary_in_any_file_written(sweep: Sweep):
    family = sweep.family
    roots = [family.tree.root, family.tree.home, *[path for path in family.extra_outputs if path.exists()]]
    files = list(written_files(roots, family.planter))
    assert any("reviewer-runs" in str(path) for path, _text in files), "the sweep wrote no reviewer run"
    assert any(path.name == "search.sqlite" and "sweep" in text for path, text in files), "no search cache was scanned"
    assert any(path.parent.parent.name == "audit" for path, _text in files), "no audit cursor was scanned"
    assert any(path.suffix == ".stamps" for path, _text in files), "no heartbeat tail-stamp memo was scanned"
    assert any(path.parent.parent.name == "otlp" for path, _text in files), "no OTLP export cursor was scanned"
    found = scan_files(files, family.planter, family.base)
    assert not found, leak_report(found)


def test_the_report_path_and_textfile_were_written(sweep: Sweep):
    assert all(path.exists() for path in sweep.family.extra_outputs[:2]), sweep.health[0].stderr


def test_snapshots_keep_the_old_file_byte_for_byte_and_are_never_printed(sweep: Sweep):
    family = sweep.family
    folder = family.tree.obs / "memory-snapshots"
    snapshots = {path.name: path.read_bytes() for path in folder.iterdir()} if folder.exists() else {}
    assert snapshots, "the sweep took no snapshot"
    planted = family.planter.planted.get(family.tree.principal)
    if planted is not None:
        assert planted in snapshots.values(), "no snapshot holds the planted principal file byte for byte"
    printed = "".join(output.stdout + output.stderr for output in sweep.outputs)
    for name, data in snapshots.items():
        body = data.decode("utf-8", "replace").split("<!-- BEGIN ENTRIES -->")[-1].strip()
        assert not body or body not in printed, f"snapshot {name} was printed"


def test_the_sweep_reached_the_planted_inputs(sweep: Sweep):
    """Guards against a vacuous sweep: public text next to the spans does reach the outputs."""
    family, printed = sweep.family, "".join(output.stdout for output in sweep.outputs)
    assert family.planter.sites, "nothing was planted"
    expected = {"corpus": "sweep public body", "hot": "sweep principal likes tea", "loop": "sweep public question",
                "writes": "sweep stdin", "errors": "sweep-bad-time", "evidence": "reviewer-latest-failed"}[family.name]
    prompts = "".join(path.read_text("utf-8", "replace") for path in family.tree.obs.rglob("prompt*.txt"))
    assert expected in printed or expected in prompts
    if family.name != "errors":  # the failing model commands' causes reached the errors and the audit's findings
        assert "inference command not found: sweep-missing-model is not on PATH" in printed
        assert "status 3: sweep model refused sweep public tail" in printed
    if family.name == "loop":  # the canned model answer was accepted on the retry and its items written
        rows = [row for row in family.tree.rows("reviewer-runs.jsonl") if row.get("parse_ok")]
        assert rows and rows[-1]["dispatch_summary"]["succeeded"] > 0, rows


# Commands that must succeed in every family but `errors` (whose inputs are broken on purpose):
# a sweep whose commands fail early would pass without ever showing the planted text.
MUST_SUCCEED = frozenset(["status", "search", "timeline", "get", "export", "rebuild", "hot read", "hot set",
                          "hot restore", "propose", "proposals list", "proposals approve", "proposals reject",
                          "review run", "review replay"])


def test_the_swept_commands_succeeded(sweep: Sweep):
    if sweep.family.name == "errors":
        pytest.skip("the errors family's inputs are broken on purpose")
    failed = [f"{output.surface}: {output.stdout[:300]}" for output in sweep.cortex
              if output.surface in MUST_SUCCEED and output.code != 0 and output not in sweep.refused + sweep.failed]
    assert not failed, failed
    assert all("ELOCK_HELD" in output.stdout for output in sweep.refused), "the held lock kept no item to replay"


def test_every_command_sub_verb_flag_subcommand_and_format_is_swept(sweep: Sweep):
    """A new command, sub-verb, flag, subcommand or --format must be added to the sweep."""
    ran = {output.surface for output in sweep.cortex}
    assert cortex_surfaces() <= ran, f"not swept: cortex {sorted(cortex_surfaces() - ran)}"
    registered = registry()
    flags = {(output.surface if output.surface in registered else output.surface.split()[0], arg)
             for output in sweep.cortex for arg in output.argv if arg.startswith("--")}
    assert cortex_flags() <= flags, f"flags not swept: {sorted(cortex_flags() - flags)}"
    ran_health = {output.surface for output in sweep.health}
    assert health_surfaces() <= ran_health, f"not swept: cortex-health {sorted(health_surfaces() - ran_health)}"


def test_saved_model_text_spells_out_escapes_but_not_escaped_backslashes():
    from cortex.review.reviewruns import spelled_out

    assert spelled_out(r'{"a": "\u003cprivate\u003ex\u003c/private\u003e"}') == '{"a": "<private>x</private>"}'
    assert spelled_out(r'"\\u003c \u0022 \u000a \ud83d\ude00"') == r'"\\u003c \u0022 \u000a \ud83d\ude00"'
    assert spelled_out("no escapes <b>") == "no escapes <b>"


def test_a_config_key_with_a_private_span_is_never_quoted(tmp_path):
    from cortex.invocation import Invocation
    from cortex.review.reviewconfig import ConfigError, load_config
    from cortex.write.writecontext import WriteContext
    from tests.write_support import make_tree

    tree = make_tree(tmp_path, subprocess_init=False)
    layout = WriteContext.from_invocation(Invocation("review run", {}, [], tree.env())).layout
    config = tree.lifeos / "USER" / "CONFIG" / "memory-review.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    for text in ('{"schema_version": 1, "x<private>SECRETKEY</private>": 1}',
                 '{"schema_version": 1, "a": 1, "a<private>SECRETKEY</private>": 2}'):
        config.write_text(text)
        with pytest.raises(ConfigError) as raised:
            load_config(layout, {})
        assert "SECRETKEY" not in raised.value.message and "<private" not in raised.value.message


def test_decoded_json_loses_private_spans_in_keys_and_strings_and_refuses_collisions():
    from cortex.core.privatejson import KeyCollision, strip_private_json

    value = {"a<private>k</private>": ["x\u003cprivate>v</private>y", 1, None], "b": {"c": "<private>z</private>"}}
    assert strip_private_json(value) == {"a": ["xy", 1, None], "b": {"c": ""}}
    with pytest.raises(KeyCollision):
        strip_private_json({"a": 1, "a<private>k</private>": 2})
