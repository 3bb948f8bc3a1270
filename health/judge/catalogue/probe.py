"""Help data: the synthetic probe's finding ids (health.judge.rules.probe), reported with --probe and by `cortex-health probe`.

`{step}` is a probe step: render, recall, fire, gate (a registered hook; render-2 for a
second registration), remember, search, get, review (the round trip in the copy), or settings
and sandbox (what the probe needs before any step).
"""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

PROBE_STEP = Check("probe:step", "each probe step runs as documented in a throw-away copy of the install")
PROBE_PASSED = Ok("probe-passed:{step}", PROBE_STEP)
PROBE_FAILED = Problem(
    "probe-failed:{step}", CRITICAL, PROBE_STEP,
    "A probe step failed: the hook (or the cortex command of the round trip) could not start, exited with "
    "an error, was killed at its timeout, or printed or left the wrong thing (render: not one "
    "<lifeos-memory> block; recall: no <lifeos-recall> block naming the probe note; fire and gate: output on "
    "stdout or no row logged; remember, search, get, review: no ok envelope, the write not found or read "
    "back, no terminal review row). The finding gives the command (program and words), the exit status and "
    "the first stderr line. The agent meets the same failure on its next prompt or Stop.",
    ("a hook command that resolves but cannot start: a venv whose Python was upgraded or removed (exit 126 "
     "or 127), a script that lost its executable bit, a missing module", "a PATH in settings.json's env "
     "that lacks the folder of cortex", "CORTEX_SUBAGENT set where the agent runs (render prints nothing)",
     "a recall slower than its timeout on a large corpus", "a broken memory-review.json (review)"),
    "Run the command the finding names in a shell with the same environment; reinstall (`pip install "
    "--force-reinstall cortex-health`, or recreate the venv) and rewrite the hooks with `cortex-health setup "
    "claude-code`; fix settings.json's env PATH; raise the hook's timeout or build the search cache for a "
    "slow recall.")
PROBE_SLOW = Problem(
    "probe-slow:{step}", WARN, PROBE_STEP,
    "A probe step passed but took more than half its timeout (the hook's registered timeout, else Claude "
    "Code's 60 s; 60 s for the round trip's commands): the agent kills a hook at its timeout and the prompt "
    "goes on without it.",
    ("a large corpus without the search cache", "a slow disk or a loaded machine", "a low timeout"),
    "See hook-slow:{hook} for the same hook in real use; build the search cache (`cortex cache status`), "
    "or raise the hook's timeout in settings.json.")

PROBE_RUN = Check("probe:run", "the probe runs every step within its time budget and removes its copy")
PROBE_COMPLETE = Ok("probe-complete", PROBE_RUN)
PROBE_CLEANED = Ok("probe-cleaned", PROBE_RUN)
PROBE_INCOMPLETE = Problem(
    "probe-incomplete", WARN, PROBE_RUN,
    "The probe's total time budget (probe_timeout_ms) ran out before some steps could run; they are "
    "listed, and were not judged.",
    ("slow hooks eating the budget", "a budget lower than the hooks' timeouts"),
    "Raise probe_timeout_ms (e.g. `--threshold probe_timeout_ms=5m`), and look at the probe-slow findings.",
    threshold="probe_timeout_ms")
PROBE_NOT_CLEANED = Problem(
    "probe-not-cleaned", WARN, PROBE_RUN,
    "The probe's temporary folder (cortex-probe-<pid>-* in the temporary directory) could not be removed.",
    ("a hook created files the user cannot delete",),
    "Remove the folder by hand; the next probe also removes folders of probes whose process is gone.")

CHECKS = checks_of(PROBE_PASSED, PROBE_FAILED, PROBE_SLOW, PROBE_COMPLETE, PROBE_CLEANED, PROBE_INCOMPLETE,
                   PROBE_NOT_CLEANED)
