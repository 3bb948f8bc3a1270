"""Help command: `cortex-health setup claude-code|systemd|cron|prometheus|otel [--write DEST | --merge FILE]`. Called by health.cli.

Prints the ready-to-use snippet shipped in the package (health/contrib, the same files the
README shows) with the absolute paths of the installed console scripts, so a `pip install`
user needs no clone: hooks and units find `cortex` and `cortex-health` whatever PATH Claude
Code, systemd or cron give them. `--write DEST` writes it (DEST: a file, or a folder for the
systemd units, created when missing); an existing file is never overwritten (exit 3, nothing
written). `claude-code --merge FILE` adds the hooks and status line to an existing
settings.json (health.settings_merge). What to do next goes to stderr, never the command just run.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from cortex.core.durable import create_file
from cortex.core.safeio import read_bounded
from health.commands.base import Call, Command, UsageError

CONTRIB = Path(__file__).parent / "contrib"
MAX_SNIPPET_BYTES = 1 << 20  # the shipped snippets are a few KiB
TARGETS = {
    "claude-code": ("claude-code/settings.json",),
    "systemd": ("systemd/cortex-health.service", "systemd/cortex-health.timer",
                "systemd/cortex-health-failure@.service", "systemd/cortex-health-probe.service",
                "systemd/cortex-health-probe.timer"),
    "cron": ("cron/cortex-health.crontab",),
    "prometheus": ("prometheus/cortex-health.rules.yml",),
    "otel": ("otel/otelcol-config.yaml",),
}
# What to do after printing the snippet, and after writing it (None: the same).
NEXT = {
    "claude-code": ("Save it: `cortex-health setup claude-code --write ~/.claude/settings.json` when you have no "
                    "settings.json yet, else `--merge ~/.claude/settings.json` (adds to yours, keeps a backup).", None),
    "systemd": ("cortex-health setup systemd --write ~/.config/systemd/user && systemctl --user daemon-reload && "
                "systemctl --user enable --now cortex-health.timer cortex-health-probe.timer",
                "systemctl --user daemon-reload && systemctl --user enable --now cortex-health.timer "
                "cortex-health-probe.timer"),
    "cron": ("Add the line with `crontab -e` (it needs flock and chronic: Debian packages util-linux, moreutils).",
             None),
    "prometheus": ("Add the file to rule_files: in prometheus.yml and check it with `promtool check rules FILE`.",
                   None),
    "otel": ("Run a Collector with it (`otelcol-contrib --config FILE`), then `cortex-health --otlp` (docs/otel.md).",
             None),
}
USAGE = ("usage: cortex-health setup claude-code|systemd|cron|prometheus|otel [--write DEST]\n"
         "       cortex-health setup claude-code --merge FILE\n"
         "  prints the snippet with absolute paths of the installed cortex and cortex-health;\n"
         "  --write DEST writes it (a folder for systemd's units) and never overwrites a file;\n"
         "  --merge FILE adds the hooks and status line to an existing settings.json (backup beside it)")


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
        text = read_bounded(CONTRIB / relative, MAX_SNIPPET_BYTES).decode("utf-8")
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
    if folder and not os.path.lexists(dest):
        try:
            os.makedirs(dest, mode=0o755)
        except OSError as error:
            return [], f"cannot create the folder {dest}: {error.strerror or error}"
    if folder and not os.path.isdir(dest):
        return [], f"{dest} is not a folder (the systemd units are several files)"
    paths = [os.path.join(dest, name) if folder else dest for name, _ in files]
    taken = [path for path in paths if os.path.lexists(path)]
    if taken:
        return [], f"{', '.join(taken)} already exists; nothing was overwritten"
    written = []
    for path, (_, text) in zip(paths, files):
        try:
            create_file(path, text.encode("utf-8"), mode=0o644)  # whole or not at all; never replaces a file
        except OSError as error:
            return written, f"cannot create {path}: {error.strerror or error}"
        written.append(path)
    return written, None


def usage_problem(parsed: argparse.Namespace, extra: list[str]) -> str | None:
    if parsed.target is None:
        return f"which snippet? name a target: {', '.join(TARGETS)}"
    if parsed.target not in TARGETS:
        from cortex.core.spelling import nearest

        near = nearest(parsed.target, TARGETS)
        return f"unknown target {parsed.target!r}" + (f" (did you mean {near[0]}?)" if near else "") + \
            f"; targets: {', '.join(TARGETS)}"
    if extra:
        return f"unexpected {' '.join(extra)}"
    if parsed.merge is not None and (parsed.target != "claude-code" or parsed.write is not None):
        return "--merge FILE is for claude-code's settings.json, and goes without --write"
    return None


def hooks_memory_root(environ: Mapping[str, str]) -> str:
    """The memory root the hook commands will use (cortex's own default: CORTEX_MEMORY_ROOT, else ~/.claude)."""
    home = environ.get("HOME") or os.path.expanduser("~")
    return os.path.abspath(os.path.expanduser(environ.get("CORTEX_MEMORY_ROOT")
                                              or os.path.join(home, ".claude", "LIFEOS", "MEMORY")))


def user_units(environ: Mapping[str, str]) -> str:
    config = environ.get("XDG_CONFIG_HOME") or os.path.join(environ.get("HOME") or os.path.expanduser("~"), ".config")
    return os.path.realpath(os.path.join(config, "systemd", "user"))


def after_claude_code(environ: Mapping[str, str]) -> str:
    memory = hooks_memory_root(environ)
    if os.path.isdir(memory):
        return "`cortex-health --format text` (it warns until the loop has run once: use Claude Code for a session)"
    root = os.path.dirname(os.path.dirname(memory))
    return (f"`cortex init --root {root}`: the hooks use {memory}, which does not exist yet; then "
            "`cortex-health --format text`")


def claude_code_folder_problem(dest: str) -> str | None:
    """--write/--merge into a folder that is not there: say what to run first instead of a bare ENOENT."""
    folder = os.path.dirname(os.path.abspath(dest))
    if os.path.isdir(folder):
        return None
    return (f"{folder} does not exist: run `cortex init --root {folder}` first if it is your Claude Code folder (it "
            "creates the folder and the memory tree the hooks use), else create it; then this command again")


def merge(snippet: str, dest: str, environ: Mapping[str, str], stdout: TextIO, stderr: TextIO) -> int:
    from health.settings_merge import MergeRefused, merge_file

    try:
        target, lines, backup = merge_file(dest, snippet, environ)
    except MergeRefused as refused:
        stderr.write(f"cortex-health setup: {refused}\n")
        return 3
    if backup is None:
        stdout.write(f"nothing to change in {target}: it already has every cortex hook and a status line\n")
    else:
        stdout.write(f"merged into {target} (the old file is kept as {backup}); every other key and hook kept:\n")
    stdout.write("\n".join(lines) + "\n")
    stderr.write(f"next: {after_claude_code(environ)}\n")
    return 0


class SetupCommand(Command):
    name = "setup"
    help_text = USAGE

    def parser(self):
        from health.parser import Parser

        parser = Parser(prog=self.prog, add_help=False, allow_abbrev=False)
        parser.add_argument("target", nargs="?")
        parser.add_argument("--write", metavar="DEST")
        parser.add_argument("--merge", metavar="FILE")
        return parser

    def parse(self, call: Call) -> argparse.Namespace:
        if any(a in ("-h", "--help") for a in call.argv):
            self.show_help(call)
        parsed, extra = self.parser().parse_known_args(call.argv)
        problem = usage_problem(parsed, extra)
        if problem:
            raise UsageError(problem)
        return parsed

    def usage_error(self, message: str, call: Call) -> int:
        call.stderr.write(f"{self.prog}: {message}\n{USAGE}\n")
        return 3

    def run(self, parsed: argparse.Namespace, call: Call) -> int:
        environ, stdout, stderr = call.environ, call.stdout, call.stderr
        files = rendered(parsed.target)
        printed, written_next = NEXT[parsed.target]
        if parsed.write is None and parsed.merge is None:
            for name, text in files:
                if len(files) > 1:
                    stdout.write(f"# ==> {name} <==\n")
                stdout.write(text if text.endswith("\n") else text + "\n")
            stderr.write(f"next: {printed}\n")
            return 0
        dest = os.path.expanduser(parsed.write or parsed.merge)
        folder_problem = claude_code_folder_problem(dest) if parsed.target == "claude-code" else None
        if folder_problem:
            stderr.write(f"cortex-health setup: {folder_problem}\n")
            return 3
        if parsed.merge is not None:
            return merge(files[0][1], dest, environ, stdout, stderr)
        written, problem = write(files, dest)
        for path in written:
            stdout.write(f"wrote {path}\n")
        if problem:
            merge_it = f" (to add the hooks to it: cortex-health setup claude-code --merge {dest})"
            stderr.write(f"cortex-health setup: {problem}{merge_it if parsed.target == 'claude-code' else ''}\n")
            return 3
        after = after_claude_code(environ) if parsed.target == "claude-code" else written_next or printed
        if parsed.target == "systemd" and os.path.realpath(dest) != user_units(environ):
            after = f"`systemctl --user link` each file in {dest} (or copy them to ~/.config/systemd/user), then {after}"
        stderr.write(f"next: {after}\n")
        return 0


main = SetupCommand().main
