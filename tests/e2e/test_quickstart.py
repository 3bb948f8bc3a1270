"""The README's quick start, as written, on a stock-like Python that refuses `pip install` outside a venv, then the
walk from that `pip install` to a green audit of a new user's own tree with `claude` stubbed on PATH (issue 23).

The stock-like interpreter is this one's base interpreter run with PYTHONHOME pointing at a copy of its prefix
made of links: the standard library, pip only in site-packages, and an EXTERNALLY-MANAGED marker (PEP 668), as
Debian and Ubuntu ship it. One module-scoped clone pays for the README's `python3 -m venv` and `pip install .` once;
both tests use the console scripts that install put in the clone's .venv.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.health_support import REPO, wait_for_gate

STOCK_PATH = "/usr/bin:/bin"
CLONE_IGNORES = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", "build", ".pytest_cache",
                                       ".hypothesis")


def readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def stock_python(folder: Path) -> Path:
    """A `python3` that is no venv, has pip, and whose stdlib carries EXTERNALLY-MANAGED: pip refuses to install."""
    import pip

    stdlib = Path(os.__file__).parent
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    lib = folder / "lib" / version
    (lib / "site-packages").mkdir(parents=True)
    for entry in stdlib.iterdir():
        if entry.name not in ("site-packages", "dist-packages", "EXTERNALLY-MANAGED"):
            (lib / entry.name).symlink_to(entry)
    (lib / "site-packages" / "pip").symlink_to(Path(pip.__file__).parent)
    (lib / "EXTERNALLY-MANAGED").write_text("[externally-managed]\nError=This Python is managed by the system; "
                                            "use a virtual environment: python3 -m venv\n")
    base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    python = folder / "bin" / "python3"
    python.parent.mkdir()
    python.write_text(f'#!/bin/sh\nPYTHONHOME="{folder}" exec "{base}" "$@"\n')
    python.chmod(0o755)
    return python.parent


def stock_env(bin_dir: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("CORTEX_", "CLAUDE", "VIRTUAL_ENV", "PYTHON", "GITHUB_"))}
    env["PATH"] = f"{bin_dir}:{STOCK_PATH}"
    return env


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory):
    """A copy of the repository after the README's first quick-start line, run by /bin/sh on the stock-like Python."""
    base = tmp_path_factory.mktemp("quickstart")
    clone = base / "clone"
    shutil.copytree(REPO, clone, ignore=CLONE_IGNORES, symlinks=True)
    env = stock_env(stock_python(base / "stock"))
    refused = subprocess.run(["python3", "-m", "pip", "install", "."], cwd=clone, env=env, capture_output=True,
                             text=True, timeout=120)
    started = time.monotonic()
    demo = subprocess.run(["/bin/sh", "-c", readme_commands()[0]], cwd=clone, env=env, capture_output=True, text=True,
                          timeout=900)
    return clone, refused, demo, time.monotonic() - started


def test_the_quick_start_works_on_a_python_that_refuses_pip_outside_a_venv(quickstart):
    clone, refused, demo, seconds = quickstart
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stdout + refused.stderr
    assert demo.returncode == 0, (demo.stdout[-3000:], demo.stderr[-3000:])
    verdict = re.search(r"^cortex-health (OK|WARN|CRITICAL|UNKNOWN)  .*$", demo.stdout, re.M)  # after pip's lines
    assert verdict and verdict.group(0).startswith("cortex-health OK  critical 0, warn 0"), demo.stdout[-3000:]
    assert "No problems found." in demo.stdout
    assert (clone / ".venv" / "bin" / "cortex").exists() and (clone / ".venv" / "bin" / "cortex-health").exists()
    for launcher in ("cortex", "cortex-health"):  # written by the up-to-date pip (>= 25.0): no `import re` before main
        text = (clone / ".venv" / "bin" / launcher).read_text(encoding="utf-8")
        assert "from cortex" in text or "from health" in text
        assert "import re\n" not in text, text
    print(f"quick start (venv, pip install ., demo audit): {seconds:.1f} s")


def test_ci_runs_exactly_the_readme_test_command_in_the_same_venv():
    demo, tests = readme_commands()
    assert len(readme_commands()) == 2
    ci = (REPO / ".ci" / "run").read_text()
    assert ci.rstrip().splitlines()[-1] == tests
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert demo.startswith(venv) and tests.startswith("bash .ci/install-tools; " + venv)
    assert "--no-write" in demo  # auditing the demo leaves the clone as it was


def _hook_payloads(transcript: Path) -> dict[str, dict]:
    return {"UserPromptSubmit": {"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "tea?",
                                 "transcript_path": str(transcript), "cwd": "/home/me/project"},
            "Stop": {"session_id": "s1", "hook_event_name": "Stop", "stop_hook_active": False,
                     "transcript_path": str(transcript), "cwd": "/home/me/project"}}


def _transcript(path: Path) -> Path:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 60))
    rows = []
    for i in range(3):
        rows.append({"type": "user", "message": {"role": "user", "content": f"I prefer green tea ({i})"},
                     "sessionId": "s1", "timestamp": stamp, "cwd": "/home/me/project"})
        rows.append({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text",
                     "text": "Noted."}]}, "sessionId": "s1", "timestamp": stamp})
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_from_pip_install_to_a_green_audit_with_claude_stubbed(quickstart, tmp_path):
    """cortex init, setup --write (refused: a settings.json exists) and --merge, Claude Code's hook calls, the
    reviewer fired on Stop running `claude -p` (a stub on PATH), then an OK audit."""
    clone, _refused, demo, _seconds = quickstart
    assert demo.returncode == 0
    home = tmp_path / "home"
    claude = home / ".claude"
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    answer = ('I reviewed the session.\n\n```json\n{"items": [{"type": "memory", "actor": "principal", "op": "set", '
              '"entries": ["PREFERENCE: prefers green tea ~explicit"]}]}\n```\n')
    (stubs / "claude").write_text(f"#!/bin/sh\n[ \"$1\" = -p ] || exit 64\ncat >/dev/null\ncat <<'EOF'\n{answer}EOF\n")
    (stubs / "claude").chmod(0o755)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("CORTEX_", "CLAUDE", "VIRTUAL_ENV", "PYTHON", "GITHUB_"))}
    env.update(HOME=str(home), PATH=f"{stubs}:{clone / '.venv' / 'bin'}:{STOCK_PATH}")

    def run(*argv: str, stdin: str = "") -> subprocess.CompletedProcess:
        return subprocess.run(list(argv), input=stdin, capture_output=True, text=True, env=env, cwd=home,
                              timeout=120)

    home.mkdir()
    assert run("cortex", "init", "--root", str(claude)).returncode == 0
    config = claude / "LIFEOS" / "USER" / "CONFIG" / "memory-review.json"
    assert json.loads(config.read_text())["inference_command"] == ["claude", "-p"]
    config.write_text(config.read_text().replace('"turn_threshold": 8', '"turn_threshold": 1'))  # review on 1st Stop
    settings = claude / "settings.json"
    settings.write_text(json.dumps({"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]}, "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}, indent=2))
    refused = run("cortex-health", "setup", "claude-code", "--write", str(settings))
    assert refused.returncode == 3 and f"cortex-health setup claude-code --merge {settings}" in refused.stderr
    merged = run("cortex-health", "setup", "claude-code", "--merge", str(settings))
    assert merged.returncode == 0 and "next: `cortex-health --format text`" in merged.stderr, merged.stderr
    wired = json.loads(settings.read_text())
    assert wired["model"] == "opus" and wired["hooks"]["Stop"][0]["hooks"][0]["command"] == "true"
    transcript = _transcript(claude / "projects" / "-home-me-project" / "s1.jsonl")
    for event, payload in _hook_payloads(transcript).items():  # as Claude Code runs them: a shell, JSON on stdin
        for group in wired["hooks"][event]:
            for hook in group["hooks"]:
                done = run("/bin/sh", "-c", hook["command"], stdin=json.dumps(payload))
                assert done.returncode == 0, (hook["command"], done.stderr)
    rows = _terminal_rows(claude, deadline_s=90)
    assert rows[-1]["ok"] is True and rows[-1]["transcript"] == str(transcript), rows
    assert "PREFERENCE: prefers green tea ~explicit" in (claude / "LIFEOS" / "USER" / "PRINCIPAL" /
                                                         "PRINCIPAL_MEMORY.md").read_text()
    wait_for_gate(claude)  # the Stop hook's gate returned at once; its check (and the gate's heartbeat) may still run
    audit = run("cortex-health", "--format", "text")
    assert audit.returncode == 0, audit.stdout
    assert audit.stdout.startswith("cortex-health OK") and "No problems found." in audit.stdout


def _terminal_rows(claude: Path, deadline_s: float) -> list[dict]:
    """The detached reviewer's rows, once there is one (it is not our child: poll)."""
    log = claude / "LIFEOS" / "MEMORY" / "OBSERVABILITY" / "reviewer-runs.jsonl"
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if log.exists() and log.read_text().strip():
            return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        time.sleep(0.05)
    raise AssertionError(f"no reviewer row within {deadline_s} s")
