"""Test helper for the privacy canary sweep: plants unique canaries inside private spans and finds them again.

Used by tests/e2e/test_privacy_canary_sweep.py. A canary is `CANARY` plus 12 random hex
digits: one alphanumeric run, so it survives the tokenizer (which lowercases it) and JSON
escaping, and a case-insensitive search finds it in any output. Every canary is wrapped in
one private-span *variant* (plain, attributes, upper case, full-width brackets, full-width
letters, a dotted capital I that case-folds to `i`, a combining mark, nesting, an unclosed
opener, and inside JSON strings the escaped forms `\\u003cprivate\\u003e` and
`<\\u0070rivate>`), and the Planter remembers where it planted it, so a leak names its site.
"""
from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

# Text spans: usable in any text file (Markdown, hot files, transcripts, stdin, argv).
TEXT_VARIANTS: dict[str, Callable[[str], str]] = {
    "plain": lambda c: f"<private>{c}</private>",
    "attributes": lambda c: f'<private reason="health">{c}</private>',
    "upper-case": lambda c: f"<PRIVATE>{c}</PRIVATE>",
    "full-width-brackets": lambda c: f"\uff1cprivate\uff1e{c}\uff1c/private\uff1e",
    "full-width-letters": lambda c: f"<\uff50\uff52\uff49\uff56\uff41\uff54\uff45>{c}</\uff50\uff52\uff49\uff56\uff41\uff54\uff45>",
    "dotted-capital-i": lambda c: f"<PR\u0130VATE>{c}</PR\u0130VATE>",
    "combining-mark": lambda c: f"<private\u0301>{c}</private\u0301>",
    "nested": lambda c: f"<private>outer <private>inner</private> {c}</private>",
    "unclosed": lambda c: f"<private>{c}",
}
# JSON-only spans: the raw line holds these escapes, the decoded string holds a private span.
JSON_VARIANTS: dict[str, Callable[[str], str]] = {
    "json-escaped-brackets": lambda c: f"\\u003cprivate\\u003e{c}\\u003c/private\\u003e",
    "json-escaped-letter": lambda c: f"<\\u0070rivate>{c}</\\u0070rivate>",
    "json-escaped-full-width": lambda c: f"\\uff1cprivate\\uff1e{c}\\uff1c/private\\uff1e",
}
# Variants a single-line value can carry whatever follows it (an unclosed opener eats the rest).
CLOSED_VARIANTS = tuple(name for name in TEXT_VARIANTS if name != "unclosed")


@dataclass(frozen=True)
class Site:
    family: str
    where: str  # e.g. "KNOWLEDGE/records.jsonl title"
    variant: str

    def __str__(self) -> str:
        return f"{self.where} [{self.variant}]"


@dataclass
class Planter:
    """Makes canaries for one input family and remembers every planted file's bytes."""

    family: str
    sites: dict[str, Site] = field(default_factory=dict)
    planted: dict[Path, bytes] = field(default_factory=dict)
    _placeholders: dict[str, str] = field(default_factory=dict)

    def canary(self, where: str, variant: str) -> str:
        token = f"CANARY{secrets.token_hex(6).upper()}"
        self.sites[token] = Site(self.family, where, variant)
        return token

    def span(self, where: str, variant: str = "plain") -> str:
        """A private span in `variant` around a fresh canary (text variants only)."""
        return TEXT_VARIANTS[variant](self.canary(where, variant))

    def json_span(self, where: str, variant: str) -> str:
        """A placeholder for a JSON string; `dumps_line` swaps in the raw span (escaped variants stay escaped)."""
        if variant in TEXT_VARIANTS:
            return self.span(where, variant)
        placeholder = f"@@PLACEHOLDER{len(self._placeholders)}@@"
        self._placeholders[placeholder] = JSON_VARIANTS[variant](self.canary(where, variant))
        return placeholder

    def dumps_line(self, value: object) -> str:
        """One compact JSON line with every placeholder replaced by its raw (escaped) span."""
        line = json.dumps(value, ensure_ascii=False)
        for placeholder, raw in self._placeholders.items():
            line = line.replace(placeholder, raw)
        return line

    def write(self, path: Path, text: str) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        self.planted[path] = data
        return path

    def leaks(self, text: str) -> list[Site]:
        """The sites of every canary that appears in `text` (case-insensitive)."""
        folded = text.lower()
        return [site for token, site in self.sites.items() if token.lower() in folded]


def leak_report(found: Iterable[tuple[str, Site]]) -> str:
    lines = sorted({f"  {surface}: {site}" for surface, site in found})
    return "private canaries leaked:\n" + "\n".join(lines)


def written_files(roots: Iterable[Path], planter: Planter, *, skip_dirs: tuple[str, ...] = ("memory-snapshots",)):
    """(path, text to scan) for every file under `roots`, snapshot folders left out.

    A planted file is input, not output: an unchanged one is skipped, and in one that was
    rewritten or appended to (a hot file after `hot set`, a log after a run) only the lines
    that are not planted lines kept byte for byte are scanned.
    """
    for root in roots:
        paths = [root] if root.is_file() else []
        for current, dirs, files in os.walk(root) if root.is_dir() else ():
            dirs[:] = [name for name in dirs if name not in skip_dirs]
            paths += [Path(current) / name for name in files]
        for path in paths:
            if path.is_symlink() or not path.is_file():
                continue
            data = path.read_bytes()
            planted = planter.planted.get(path)
            if planted is not None:
                kept = set(planted.splitlines())
                data = b"\n".join(line for line in data.splitlines() if line not in kept)
            yield path, data.decode("utf-8", "replace")


def scan_files(files: Iterable[tuple[Path, str]], planter: Planter, base: Path) -> list[tuple[str, Site]]:
    found = []
    for path, text in files:
        label = f"file {path.relative_to(base)}" if path.is_relative_to(base) else f"file {path}"
        found.extend((label, site) for site in planter.leaks(text))
    return found


# --- running the surfaces ---------------------------------------------------------------------

@dataclass(frozen=True)
class Output:
    """What one command printed: the surface name is the command words (options left out)."""

    surface: str
    argv: tuple[str, ...]
    code: int
    stdout: str
    stderr: str


def run_cortex_in_process(argv: list[str], env: dict, stdin: str = "") -> Output:
    """`cortex ARGV` through the CLI's own run(); stdout is exactly what main() would print."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from cortex.cli import run
    from cortex.core.jsjson import dumps

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code, result = run(list(argv), environ=env, stdin=io.StringIO(stdin), stderr=err)
    printed = result if isinstance(result, str) else dumps(result) + "\n"
    return Output(command_words(argv), tuple(argv), code, out.getvalue() + printed, err.getvalue())


def run_subprocess(program: list[str], argv: list[str], env: dict, stdin: str = "", cwd: Path | None = None) -> Output:
    import subprocess

    proc = subprocess.run([*program, *argv], input=stdin.encode("utf-8"), capture_output=True, env=env,
                          cwd=cwd, timeout=120)
    return Output(command_words(argv), tuple(argv), proc.returncode, proc.stdout.decode("utf-8", "replace"),
                  proc.stderr.decode("utf-8", "replace"))


def run_health_in_process(argv: list[str], env: dict) -> Output:
    """`cortex-health ARGV` through health.cli (the check) or the subcommand module's main()."""
    import importlib
    import inspect
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from health.cli import run
    from health.commands import COMMANDS

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        if argv and argv[0] in COMMANDS:
            main = importlib.import_module(COMMANDS[argv[0]].module).main
            offered = {"environ": env, "stdout": out, "stderr": err}
            accepted = inspect.signature(main).parameters
            code = main(list(argv[1:]), **{k: v for k, v in offered.items() if k in accepted})
        else:
            code = run(list(argv), environ=env, stdout=out, stderr=err)
    return Output(health_words(argv), tuple(argv), code, out.getvalue(), err.getvalue())


def command_words(argv) -> str:
    """`cortex` surface name: the command and its sub-verb, e.g. "hot read", "review run"."""
    words = [arg for arg in argv[:2] if not arg.startswith("-")]
    from cortex.commands import registry

    if len(words) == 2 and f"{words[0]} {words[1]}" in registry():
        return " ".join(words)
    if words and words[0] in sub_verbs() and len(words) == 2:
        return " ".join(words)
    return words[0] if words else ""


def health_words(argv) -> str:
    from health.commands import COMMANDS

    if argv and argv[0] in COMMANDS:
        return argv[0]
    if "--format" in argv:
        return f"--format {argv[list(argv).index('--format') + 1]}"
    return "check"


def sub_verbs() -> dict[str, tuple[str, ...]]:
    """Commands that take a sub-verb, from each command module's SUBCOMMANDS table."""
    import sys as _sys

    from cortex.commands import registry

    found = {}
    for name, spec in registry().items():
        table = getattr(_sys.modules[spec.handler.__module__], "SUBCOMMANDS", None)
        if table:
            found[name] = tuple(table)
    return found


def cortex_surfaces() -> set[str]:
    """Every `cortex` command and sub-verb the code registers."""
    from cortex.commands import registry

    verbs = sub_verbs()
    names = set()
    for name in registry():
        names.update(f"{name} {verb}" for verb in verbs[name]) if name in verbs else names.add(name)
    return names


def cortex_flags() -> set[tuple[str, str]]:
    """Every (command, flag option) pair the code registers (flags change what a command does)."""
    from cortex.commands import registry

    return {(name, flag) for name, spec in registry().items() for flag in spec.flag_options}


def health_surfaces() -> set[str]:
    """Every `cortex-health` subcommand and every `--format` choice of the check's own parser."""
    from health.commands import COMMANDS
    from health.checkparser import build_parser
    from reports.formats import names

    parser = build_parser(names())
    formats = next(action.choices for action in parser._actions if action.dest == "format")
    return set(COMMANDS) | {f"--format {name}" for name in formats}
