"""The tamper-evident health history: chained lines, the checkpoint, `history --verify` and the audit's own check."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.health_support import NOW, SCHEMA_FILE, clean_env, copy_demo, obs, run_cli
from tests.ops_support import health, health_log, publish_runs

VALIDATOR = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))


def lines_of(root) -> list[bytes]:
    return health_log(root).read_bytes().splitlines(keepends=True)


def write(root, lines: list[bytes]) -> None:
    health_log(root).write_bytes(b"".join(lines))


def checkpoint(root) -> dict:
    return json.loads((obs(root) / "memory-health.checkpoint").read_text())


def verify(root, *extra: str) -> subprocess.CompletedProcess:
    return health("history", "--root", str(root), "--verify", *extra)


def audit(root, write_log: bool = False):
    return run_cli("--json", root=root, now="2026-11-29T12:30:00Z", write=write_log)


@pytest.fixture
def chained(tmp_path):
    root = copy_demo(tmp_path)
    publish_runs(root, [6, 5, 4, 3, 2, 1])
    return root


def test_each_line_links_to_the_previous_bytes_and_stays_a_valid_report(chained):
    lines = lines_of(chained)
    assert len(lines) == 6
    for number, raw in enumerate(lines, start=1):
        row = json.loads(raw)
        VALIDATOR.validate(row)
        assert list(row)[-1] == "chain" and row["chain"]["seq"] == number
        expected = hashlib.sha256(lines[number - 2] if number > 1 else b"").hexdigest()
        assert row["chain"]["prev"] == expected
    point = checkpoint(chained)
    assert point["seq"] == 6 and point["line"] == 6 and point["head"] == hashlib.sha256(lines[-1]).hexdigest()
    assert point["end"] == health_log(chained).stat().st_size and point["ts"] == "2026-11-29T11:59:00.000Z"


def test_printed_report_equals_the_line_without_its_chain(tmp_path):
    root = copy_demo(tmp_path)
    done = run_cli("--json", root=root, write=True)
    line = json.loads(lines_of(root)[0])
    printed = json.loads(done.stdout)
    assert "chain" not in printed and line.pop("chain") == {"seq": 1, "prev": hashlib.sha256(b"").hexdigest()}
    assert line == printed


def test_first_chained_line_commits_to_every_earlier_byte(tmp_path):
    root = copy_demo(tmp_path)
    legacy = b'{"legacy": 1}\nnot json\n'
    health_log(root).write_bytes(legacy)
    publish_runs(root, [2, 1])
    first = json.loads(lines_of(root)[2])["chain"]
    assert first == {"seq": 1, "prev": hashlib.sha256(legacy).hexdigest()}
    assert verify(root).returncode == 0
    write(root, [b'{"legacy": 2}\n'] + lines_of(root)[1:])
    done = verify(root)
    assert done.returncode == 2 and "chain BROKEN at line 3 (edited)" in done.stdout and "lines 1-2" in done.stdout


def test_verify_intact_lists_no_break(chained):
    done = verify(chained)
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("chain intact: 6 line(s), head seq 6\ncheckpoint: seq 6 at line 6")


@pytest.mark.parametrize("tamper, line, kind", [
    (lambda lines: lines[:2] + [lines[2].replace(b'"overall":"ok"', b'"overall":"critical"')] + lines[3:], 3, "edited"),
    (lambda lines: lines[:3] + [lines[1]] + lines[3:], 4, "inserted"),
    (lambda lines: lines[:2] + lines[3:], 3, "deleted"),
    (lambda lines: lines[:2] + [lines[3], lines[2]] + lines[4:], 3, "reordered"),
    (lambda lines: lines[:4], 5, "truncated"),
    (lambda lines: lines[:1] + [lines[1].replace(b'"chain":{"seq":2', b'"chain":{"seq":"2"')] + lines[2:], 2, "edited"),
])
def test_verify_names_the_first_broken_line_and_what_broke(chained, tamper, line, kind):
    write(chained, tamper(lines_of(chained)))
    done = verify(chained)
    assert done.returncode == 2, done.stdout
    assert done.stdout.startswith(f"chain BROKEN at line {line} ({kind}): ")
    body = json.loads(verify(chained, "--json").stdout)
    assert body["intact"] is False and body["broken"]["line"] == line and body["broken"]["kind"] == kind


def test_edit_of_the_head_line_is_caught_by_the_checkpoint(chained):
    lines = lines_of(chained)
    write(chained, lines[:-1] + [lines[-1].replace(b'"overall":"ok"', b'"overall":"warn"')])
    done = verify(chained)
    assert done.returncode == 2 and "line 6 (edited)" in done.stdout and "checkpoint" in done.stdout


def test_audit_reports_tampering_and_keeps_reporting_it(chained):
    lines = lines_of(chained)
    write(chained, lines[:5])  # the head line is cut
    first = audit(chained, write_log=True)
    finding = first.finding("health-history-tampered")
    assert first.code == 2 and finding["severity"] == "critical" and finding["detail"]["kind"] == "truncated"
    assert checkpoint(chained)["seq"] == 6  # not advanced over a break
    again = audit(chained)
    assert again.finding("health-history-tampered")["detail"]["kind"] in ("truncated", "edited")
    newest = json.loads(lines_of(chained)[-1])
    assert newest["chain"]["seq"] == 6 and "health-history-tampered" in [f["id"] for f in newest["findings"]]


def test_audit_verifies_incrementally_from_the_checkpoint(chained):
    done = audit(chained)
    evidence = done.report["evidence"]["health_history"]
    assert "health-history-intact" in done.report["ok_summary"]
    assert evidence["mode"] == "incremental" and evidence["verified_from_line"] == 7 and evidence["head_seq"] == 6
    lines = lines_of(chained)
    write(chained, [lines[0].replace(b'"overall":"ok"', b'"overall":"no"')] + lines[1:])
    quiet = audit(chained)  # a same-length edit before the verified point is left to the full --verify
    assert "health-history-intact" in quiet.report["ok_summary"]
    assert verify(chained).stdout.startswith("chain BROKEN at line 1 (edited)")
    write(chained, [lines[0].replace(b'"overall":"ok"', b'"overall":"warn"')] + lines[1:])
    moved = audit(chained)  # a length change moves the head: the audit falls back to a full verification
    assert moved.finding("health-history-tampered")["detail"] == {
        "path": str(health_log(chained)), "line": 1, "kind": "edited", "mode": "full",
        "reason": "line 1 was edited (or a line after it deleted): its hash is not the prev of line 2 (seq 2)",
        "checkpoint": str(obs(chained) / "memory-health.checkpoint")}


def test_unchained_lines_and_a_missing_checkpoint_warn(chained):
    with open(health_log(chained), "ab") as handle:
        handle.write(b'{"written": "by another tool"}\n')
    done = audit(chained)
    assert done.finding("health-history-unchained")["detail"]["lines"] == [7]
    listed = verify(chained)
    assert listed.returncode == 0 and "unchained: line 7 carries no chain link (not a report: " in listed.stdout
    publish_runs(chained, [0])  # the next append chains over the foreign line
    assert json.loads(lines_of(chained)[-1])["chain"]["prev"] == hashlib.sha256(lines_of(chained)[6]).hexdigest()
    assert "health-history-intact" in audit(chained).report["ok_summary"]  # covered from the checkpoint on


def test_a_missing_checkpoint_warns(chained):
    (obs(chained) / "memory-health.checkpoint").unlink()
    missing = audit(chained)
    assert "checkpoint is missing" in missing.finding("health-history-unchained")["message"]
    assert missing.report["evidence"]["health_history"]["mode"] == "full"


def test_a_broken_checkpoint_or_a_deleted_log_is_tampering(chained):
    (obs(chained) / "memory-health.checkpoint").write_text("{}")
    assert audit(chained).finding("health-history-tampered")["detail"]["reason"].startswith("not a cortex-health")
    assert verify(chained).returncode == 2
    publish_runs(chained, [0])
    assert (obs(chained) / "memory-health.checkpoint").read_text() == "{}"
    root = copy_demo(chained.parent / "other")
    publish_runs(root, [1])
    health_log(root).unlink()
    assert audit(root).finding("health-history-tampered")["detail"]["kind"] == "truncated"
    assert verify(root).returncode == 2


def test_a_torn_last_line_is_ended_and_covered(chained):
    with open(health_log(chained), "ab") as handle:
        handle.write(b'{"torn')
    assert "torn" in verify(chained).stdout
    publish_runs(chained, [0])
    lines = lines_of(chained)
    assert lines[6] == b'{"torn\n' and json.loads(lines[7])["chain"]["prev"] == hashlib.sha256(b'{"torn\n').hexdigest()
    assert verify(chained).returncode == 0


def test_concurrent_appends_keep_one_chain(tmp_path):
    root = copy_demo(tmp_path)
    code = ("import sys; from health.cli import run; "
            "[run(['--root', sys.argv[1], '--now', '%s', '--json'], stdout=open('/dev/null', 'w')) for _ in range(3)]"
            % NOW)
    children = [subprocess.Popen([sys.executable, "-c", code, str(root)], env=clean_env()) for _ in range(4)]
    assert all(child.wait(timeout=120) in (0, 1, 2) for child in children)
    seqs = [json.loads(line)["chain"]["seq"] for line in lines_of(root)]
    assert seqs == list(range(1, 13)) and verify(root).returncode == 0 and checkpoint(root)["seq"] == 12


def test_prometheus_exports_the_head_seq_and_promtool_accepts_it(chained, tmp_path):
    from tests.ops_support import run_command, tool

    textfile = tmp_path / "cortex_health.prom"
    done = run_cli("--prometheus-textfile", str(textfile), root=chained)
    assert done.code == 0
    text = textfile.read_text()
    assert "# TYPE cortex_health_history_head_seq gauge\ncortex_health_history_head_seq 6\n" in text
    checked = run_command([tool("promtool", "prometheus"), "check", "metrics"], input=text, stdin=None)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.fixture(scope="module")
def small_chain(tmp_path_factory):
    root = copy_demo(tmp_path_factory.mktemp("small"))
    publish_runs(root, [3, 2, 1])
    return health_log(root).read_bytes(), (obs(root) / "memory-health.checkpoint").read_bytes()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_byte_change_is_detected(small_chain, tmp_path, data):
    from collectors.healthlog.verify import verify
    from collectors.healthlog.chain import parse_checkpoint

    log, point = small_chain
    position = data.draw(st.integers(0, len(log) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != log[position]))
    path = tmp_path / "memory-health.jsonl"
    path.write_bytes(log[:position] + bytes([byte]) + log[position + 1:])
    checkpoint = parse_checkpoint(point)
    assert verify(str(path), checkpoint, incremental=False).broken is not None
    assert verify(str(path), checkpoint).broken is not None or position < checkpoint.start


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(garbage=st.binary(max_size=400))
def test_hostile_bytes_never_raise(tmp_path, garbage):
    from collectors.healthlog.verify import verify
    from collectors.healthlog.chain import parse_checkpoint

    path = tmp_path / "memory-health.jsonl"
    path.write_bytes(garbage)
    result = verify(str(path), None, incremental=False)
    assert result.walk.offset == len(garbage)
    assert isinstance(parse_checkpoint(garbage), (str, type(None))) or parse_checkpoint(garbage).seq >= 1


def test_an_overlong_line_is_hashed_not_kept_and_listed(chained):
    with open(health_log(chained), "ab") as handle:
        handle.write(b"x" * (3 << 20) + b"\n")
    done = verify(chained)
    assert done.returncode == 0 and "unchained: line 7 carries no chain link (not a report: line longer than" in done.stdout
    publish_runs(chained, [0])
    assert verify(chained).returncode == 0


def test_a_checkpoint_that_is_a_directory_is_refused(chained):
    point = obs(chained) / "memory-health.checkpoint"
    point.unlink()
    point.mkdir()
    found = audit(chained).finding("health-history-tampered")
    assert "not a regular file" in found["detail"]["reason"]


def edit_checkpoint(root, reseal: bool, **changes) -> None:
    """Change fields of the checkpoint; `reseal`: written whole again by Checkpoint.text (a forger's edit)."""
    from collectors.healthlog.chain import Checkpoint

    path = obs(root) / "memory-health.checkpoint"
    row = {**json.loads(path.read_text()), **changes}
    path.write_text(Checkpoint(*(row[name] for name in ("seq", "head", "ts", "line", "start", "end"))).text() if reseal
                    else json.dumps(row, separators=(",", ":")) + "\n")


CHECKPOINT_EDITS = [  # (what, fields changed, written whole again by Checkpoint.text as a forger would)
    ("seq-ahead", {"seq": 9}, False), ("seq-ahead", {"seq": 9}, True),
    ("seq-behind", {"seq": 3}, False), ("seq-behind", {"seq": 3}, True),
    ("ts", {"ts": "2026-11-29T11:58:00.000Z"}, False), ("ts", {"ts": "2026-11-29T11:58:00.000Z"}, True),
    ("line", {"line": 4}, False),  # a resealed line number is seen by --verify only (the README says so)
    ("byte-range", {"start": 1, "end": 2}, False), ("byte-range", {"start": 1, "end": 2}, True),
]


@pytest.mark.parametrize("changes, reseal", [edit[1:] for edit in CHECKPOINT_EDITS],
                         ids=[f"{edit[0]}-{'resealed' if edit[2] else 'edited'}" for edit in CHECKPOINT_EDITS])
def test_an_edited_checkpoint_is_verified_against_its_line_before_use(chained, changes, reseal):
    """Issue 21, defect 7: the audit, the next publication and --verify never trust a checkpoint the log contradicts."""
    true_lines = lines_of(chained)
    edit_checkpoint(chained, reseal, **changes)
    done = audit(chained)
    evidence = done.report["evidence"]["health_history"]
    assert done.code == 2 and "health-history-intact" not in done.report["ok_summary"]
    assert "checkpoint" in done.finding("health-history-tampered")["message"]
    assert evidence["mode"] == "full" and evidence["head_seq"] == 6 and evidence["lines"] == 6  # from the log
    publish_runs(chained, [0])
    assert lines_of(chained)[:6] == true_lines
    assert json.loads(lines_of(chained)[6])["chain"] == {"seq": 7, "prev": hashlib.sha256(true_lines[5]).hexdigest()}
    body = json.loads(verify(chained, "--json").stdout)
    assert body["broken"] is None and body["head_seq"] == 7 and body["checkpoint_problem"]  # no phantom deletion
    assert "health-history-intact" not in audit(chained).report["ok_summary"]  # never advanced past the edit


def test_a_checkpoint_written_before_seals_is_used_by_a_full_verification_then_replaced(chained):
    path = obs(chained) / "memory-health.checkpoint"
    row = json.loads(path.read_text())
    del row["seal"]
    path.write_text(json.dumps(row, separators=(",", ":")) + "\n")
    done = audit(chained)
    evidence = done.report["evidence"]["health_history"]
    assert "health-history-intact" in done.report["ok_summary"] and evidence["mode"] == "full"
    publish_runs(chained, [0])
    assert checkpoint(chained)["seq"] == 7 and "seal" in checkpoint(chained)
    assert audit(chained).report["evidence"]["health_history"]["mode"] == "incremental"


@pytest.mark.parametrize("start, end", [(0, 1 << 40), (0, 5 << 20), (1, 2)])
def test_a_checkpoint_pointing_anywhere_is_refused_without_reading_there(chained, start, end):
    edit_checkpoint(chained, True, start=start, end=end)
    found = audit(chained).finding("health-history-tampered")
    assert "checkpoint" in found["message"] and found["detail"]["reason"].startswith("it records seq 6 at line 6")
