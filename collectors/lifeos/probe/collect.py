"""Collect stage: the synthetic probe through the real hooks, in a throw-away copy of the install. Called by health.judge.checks' probe row.

Builds the copy (collectors.lifeos.probe.sandbox), runs the registered hooks and the governed-write
and review round trip (collectors.lifeos.probe.steps) one after the other, each within its timeout
and all within `budget_ms` (probe_timeout_ms), and records every step: what ran (program and
words only), its exit status, its latency, its timeout and why it failed (the first stderr
line, private spans removed). The temporary folder is removed in every case: the steps'
processes are killed and the folder removed on the way out, also when SIGINT, SIGTERM or
SIGHUP stops the probe (the signal is then delivered again, with its default action).
"""
from __future__ import annotations

import os
import signal
import time
from collections import namedtuple

from collectors.evidence import EvidenceStatus
from collectors.lifeos.hook_registry import read_registry
from collectors.lifeos.layout import Layout
from collectors.lifeos.probe import runner, sandbox as sandboxes, steps as plan, verdicts
from collectors.readers.text import clip
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.timestamps import iso_from_ms
from cortex.layout import REVIEWER_FIRES_LOG

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class ProbeStep(namedtuple("ProbeStep", "step kind event command status exit_status duration_ms timeout_ms "
                                        "timeout_declared reason stderr",
                                 defaults=(None, None, None, None, None, None, False, None, None))):
    """step: str; kind: hook | write | review | setup; event: str | None; command: str | None, the program and its
    words; status: passed | failed | skipped; exit_status: int | None; duration_ms: float | None; timeout_ms: int |
    None, the step's own timeout; timeout_declared: bool; reason: str | None, why it failed or was skipped; stderr:
    str | None, the first line it wrote on stderr.
    """

    __slots__ = ()


class ProbeEvidence(namedtuple("ProbeEvidence", "status budget_ms total_ms steps cleaned")):
    """status: EvidenceStatus; budget_ms: int; total_ms: float; steps: tuple[ProbeStep, ...] in the order run;
    cleaned: bool, the temporary folder is gone."""

    __slots__ = ()


def _stop(signum, _frame):
    runner.stop(signum)


def _handle_signals() -> dict:
    previous = {}
    try:
        for signum in STOP_SIGNALS:
            previous[signum] = signal.signal(signum, _stop)
    except ValueError:  # not the main thread: no handlers, the finally clauses still clean up
        pass
    return previous


def _block(previous: dict) -> bool:
    if not previous:
        return False
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    return True


def collect(layout: Layout, budget_ms: int) -> ProbeEvidence:
    started = time.monotonic()
    previous = _handle_signals()
    box, steps, stopped = None, [], None
    try:
        registry = read_registry(layout.root, layout.environ)
        if registry.problem:
            steps.append(ProbeStep("settings", "setup", status="failed",
                                   reason=f"{registry.path} gives no hooks to run: {clip(registry.problem, 200)}"))
        else:
            now_ms = layout.now_ms if layout.now_ms is not None else int(time.time() * 1000)
            box = sandboxes.make(layout.root, iso_from_ms(now_ms))
            steps = run_all(registry, box, layout, started + budget_ms / 1000)
    except runner.ProbeStopped as signal_received:
        stopped = signal_received.signum
    except OSError as error:
        steps.append(ProbeStep("sandbox", "setup", status="failed",
                               reason=f"the temporary copy cannot be made: {error.strerror or error}"))
    finally:
        blocked = _block(previous)  # a second signal must not interrupt the clean-up itself
        runner.SPAWNING.update(now=False, deferred=None)
        runner.kill_running()
        if box is not None:
            stop_spawned_reviewers(box)
        cleaned = box is None or sandboxes.remove(box.folder)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # one that came meanwhile is delivered now
    if stopped is not None:  # the folder is gone: now stop as the signal asked
        signal.signal(stopped, signal.SIG_DFL)
        os.kill(os.getpid(), stopped)
    return ProbeEvidence(EvidenceStatus.OK, budget_ms, round((time.monotonic() - started) * 1000, 3), tuple(steps),
                         cleaned)


def stop_spawned_reviewers(box: sandboxes.Sandbox, wait_s: float = 2.0) -> None:
    """A review the fire hook started in the copy (its row names the pid) runs detached: let it finish, briefly,
    then kill its session; only a process whose command line names the copy is touched (Linux /proc)."""
    pids = [row["pid"] for row in verdicts.log_rows(box.layout.evidence(REVIEWER_FIRES_LOG))
            if row.get("started") is True and type(row.get("pid")) is int and row["pid"] > 1]
    deadline = time.monotonic() + wait_s
    for pid in pids:
        while _ours(pid, box) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _ours(pid, box):
            try:
                os.killpg(pid, signal.SIGKILL)  # the reviewer leads its own session (cortex.review.cadence)
            except OSError:
                pass


def _ours(pid: int, box: sandboxes.Sandbox) -> bool:
    try:
        return box.memory.encode() in read_bounded(f"/proc/{pid}/cmdline", 1 << 20)
    except (OSError, UnsafeFile):
        return False


def run_all(registry, box: sandboxes.Sandbox, layout: Layout, deadline: float) -> list[ProbeStep]:
    env = plan.environment(layout.environ, registry, box, layout.root)
    done: list[ProbeStep] = []
    for step in plan.hook_steps(registry, box, layout.root, layout.environ):
        if step.judge is verdicts.gate:  # its check runs detached: wait for it, within the probe's budget
            judge = lambda outcome: verdicts.gate(outcome, box, settle_by=deadline)  # noqa: E731
        else:
            judge = lambda outcome, s=step: s.judge(outcome, box)  # noqa: E731
        done.append(run_step(step, env, box, deadline, judge))
    program = plan.cortex_program(registry, env)
    wrote = {}

    def remembered(outcome):
        data, problem = verdicts.envelope(outcome)
        wrote["id"] = verdicts.written_id(data) if data is not None else None
        return problem or (None if wrote["id"] else "answered ok but named no written record")

    done.append(run_step(plan.remember_step(program, box), env, box, deadline, remembered))
    for step, judge in ((plan.search_step(program, box), lambda data: verdicts.search_finds(data, wrote.get("id"))),
                        (plan.get_step(program, wrote.get("id") or "none"), lambda data: verdicts.get_returns(data, box)),
                        (plan.review_step(program, box), lambda data: verdicts.review_left_row(box))):
        if not wrote.get("id") and step.name in ("search", "get"):
            done.append(ProbeStep(step.name, step.kind, command=step.shown, status="skipped",
                                  reason="nothing was written to look for (remember failed)"))
            continue
        done.append(run_step(step, env, box, deadline, _enveloped(judge)))
    return done


def _enveloped(judge):
    def verdict(outcome):
        data, problem = verdicts.envelope(outcome)
        return problem or judge(data)
    return verdict


def run_step(step: plan.Step, env: dict, box: sandboxes.Sandbox, deadline: float, judge) -> ProbeStep:
    left_ms = (deadline - time.monotonic()) * 1000
    common = dict(event=step.event, command=step.shown, timeout_ms=step.timeout_ms,
                  timeout_declared=step.timeout_declared)
    if left_ms <= 0:
        return ProbeStep(step.name, step.kind, status="skipped", reason="the probe's time budget (probe_timeout_ms) "
                         "ran out before this step", **common)
    cut = left_ms < step.timeout_ms
    outcome = runner.run(step.command, env, step.stdin, min(step.timeout_ms, left_ms) / 1000, box.project)
    problem = verdicts.exit_problem(outcome)
    if problem and outcome.timed_out and cut:
        problem = "stopped when the probe's time budget (probe_timeout_ms) ran out"
    if problem is None:
        problem = judge(outcome)
    return ProbeStep(step.name, step.kind, status="failed" if problem else "passed", exit_status=outcome.exit_status,
                     duration_ms=outcome.duration_ms, reason=problem, stderr=outcome.stderr_line, **common)
