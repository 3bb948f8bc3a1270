"""Help command: `cortex-health setup claude-code|systemd|cron|prometheus [--write DEST]`. Called by health.cli.

Prints the ready-to-use snippet shipped in the package (health/contrib, the same files the
README shows) with the absolute paths of the installed console scripts, so a `pip install`
user needs no clone: hooks and units find `cortex` and `cortex-health` whatever PATH Claude
Code, systemd or cron give them. `--write DEST` writes it (DEST: a file, or a folder for the
systemd units); an existing file is never overwritten (exit 3, nothing written).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from cortex.core.durable import create_file

CONTRIB = Path(__file__).parent / "contrib"
TARGETS = {
    "claude-code": ("claude-code/settings.json",),
    "systemd": ("systemd/cortex-health.service", "systemd/cortex-health.timer",
                "systemd/cortex-health-failure@.service", "systemd/cortex-health-probe.service",
                "systemd/cortex-health-probe.timer"),
    "cron": ("cron/cortex-health.crontab",),
    "prometheus": ("prometheus/cortex-health.rules.yml",),
}
NEXT = {
    "claude-code": "Merge it into ~/.claude/settings.json (or write it there with --write when you have none yet); "
                   "then `cortex init --root ~/.claude` and `cortex-health --format text`.",
    "systemd": "cortex-health setup systemd --write ~/.config/systemd/user && systemctl --user daemon-reload && "
               "systemctl --user enable --now cortex-health.timer cortex-health-probe.timer",
    "cron": "Add the line with `crontab -e` (it needs flock and chronic: Debian packages util-linux, moreutils).",
    "prometheus": "Add the file to rule_files: in prometheus.yml and check it with `promtool check rules FILE`.",
}
USAGE = ("usage: cortex-health setup claude-code|systemd|cron|prometheus [--write DEST]\n"
         "  prints the snippet with absolute paths of the installed cortex and cortex-health;\n"
         "  --write DEST writes it (a folder for systemd's units) and never overwrites a file")


def script(name: str) -> str:
    """The installed console script: next to this interpreter (pip, pipx, a venv), else on PATH, else the bare name."""
    beside = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), name)
    if os.access(beside, os.X_OK) and not os.path.isdir(beside):
        return beside
    return shutil.which(name) or name


def _quoted(path: str) -> str:
    return path if all(c.isalnum() or c in "/._-+@" for c in path) else json.dumps(path)


def _hook_command(command: str) -> str:
    program, _, rest = command.partition(" ")
    if program not in ("cortex", "cortex-health"):
        return command
    return _quoted(script(program)) + (" " + rest if rest else "")


def claude_code(text: str) -> str:
    settings = json.loads(text)
    settings["statusLine"]["command"] = _hook_command(settings["statusLine"]["command"])
    for groups in settings["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                hook["command"] = _hook_command(hook["command"])
    return json.dumps(settings, indent=2) + "\n"


def rendered(target: str) -> list[tuple[str, str]]:
    """(file name, text) of each file of a target, the console scripts' paths filled in."""
    health = _quoted(script("cortex-health"))
    files = []
    for relative in TARGETS[target]:
        text = (CONTRIB / relative).read_text(encoding="utf-8")
        if target == "claude-code":
            text = claude_code(text)
        elif target == "systemd":
            text = text.replace("ExecStart=/usr/bin/env cortex-health", f"ExecStart={health}")
        elif target == "cron":
            text = text.replace(" chronic cortex-health ", f" chronic {health} ")
        files.append((os.path.basename(relative), text))
    return files


def write(files: list[tuple[str, str]], dest: str) -> tuple[list[str], str | None]:
    """Write every file or none: (paths written, why nothing was)."""
    folder = os.path.isdir(dest) or len(files) > 1
    if folder and not os.path.isdir(dest):
        return [], f"{dest} is not a folder (the systemd units are several files)"
    paths = [os.path.join(dest, name) if folder else dest for name, _ in files]
    taken = [path for path in paths if os.path.lexists(path)]
    if taken:
        return [], f"{', '.join(taken)} already exists; nothing was overwritten (merge it by hand, or remove it)"
    written = []
    for path, (_, text) in zip(paths, files):
        try:
            create_file(path, text.encode("utf-8"), mode=0o644)  # whole or not at all; never replaces a file
        except OSError as error:
            return written, f"cannot create {path}: {error.strerror or error}"
        written.append(path)
    return written, None


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = list(argv)
    if any(a in ("-h", "--help") for a in args):
        stdout.write(USAGE + "\n")
        return 0
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("target", nargs="?")
    parser.add_argument("--write", metavar="DEST")
    parsed, extra = parser.parse_known_args(args)
    if parsed.target not in TARGETS or extra:
        from cortex.core.spelling import nearest

        near = nearest(str(parsed.target), TARGETS)
        hint = f" (did you mean {near[0]}?)" if near and parsed.target else ""
        stderr.write(f"cortex-health setup: unknown or missing target {parsed.target!r}{hint}"
                     f"{'; unexpected ' + ' '.join(extra) if extra else ''}\n{USAGE}\n")
        return 3
    files = rendered(parsed.target)
    if parsed.write is None:
        for name, text in files:
            if len(files) > 1:
                stdout.write(f"# ==> {name} <==\n")
            stdout.write(text if text.endswith("\n") else text + "\n")
        stderr.write(f"next: {NEXT[parsed.target]}\n")
        return 0
    written, problem = write(files, os.path.expanduser(parsed.write))
    for path in written:
        stdout.write(f"wrote {path}\n")
    if problem:
        stderr.write(f"cortex-health setup: {problem}\n")
        return 3
    stderr.write(f"next: {NEXT[parsed.target]}\n")
    return 0
