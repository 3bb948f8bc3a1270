"""Test helpers for the governed write path: real CLI subprocesses, envelope validation, fresh trees."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "cortex" / "schemas"
NOW = "2026-01-02T03:04:05.678Z"
_ENVELOPE = json.loads((SCHEMAS / "lifeos-cortex-v1.schema.json").read_text())
_VALIDATORS: dict[str, jsonschema.Draft202012Validator] = {}


def schema_validator(name: str) -> jsonschema.Draft202012Validator:
    if name not in _VALIDATORS:
        _VALIDATORS[name] = jsonschema.Draft202012Validator(json.loads((SCHEMAS / name).read_text()))
    return _VALIDATORS[name]


def check_envelope(envelope: dict) -> dict:
    jsonschema.validate(envelope, _ENVELOPE, cls=jsonschema.Draft202012Validator)
    return envelope


@dataclass
class Result:
    code: int
    envelope: dict
    stderr: str

    @property
    def data(self) -> dict:
        return self.envelope["data"]

    @property
    def error(self) -> dict:
        return self.envelope["error"]


@dataclass
class Tree:
    """A fresh `cortex init` tree under tmp_path, plus the environment every call uses."""

    root: Path
    home: Path
    now: str = NOW

    @property
    def lifeos(self) -> Path:
        return self.root / "LIFEOS"

    @property
    def memory(self) -> Path:
        return self.lifeos / "MEMORY"

    @property
    def obs(self) -> Path:
        return self.memory / "OBSERVABILITY"

    @property
    def principal(self) -> Path:
        return self.lifeos / "USER" / "PRINCIPAL" / "PRINCIPAL_MEMORY.md"

    @property
    def da(self) -> Path:
        return self.lifeos / "USER" / "DIGITAL_ASSISTANT" / "DA_MEMORY.md"

    def env(self, **extra: str) -> dict:
        env = {key: value for key, value in os.environ.items() if not key.startswith(("CORTEX_", "CLAUDE_CONFIG_DIR"))}
        env.update(HOME=str(self.home), CORTEX_NOW=self.now, CORTEX_MEMORY_ROOT=str(self.memory))
        env.update(extra)
        return env

    def cortex(self, *args: str, stdin: bytes | str | None = None, **env: str) -> Result:
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        proc = subprocess.run(
            [sys.executable, "-m", "cortex", *args], input=data if data is not None else b"",
            capture_output=True, env=self.env(**env), timeout=60, cwd=str(REPO),
        )
        lines = proc.stdout.decode("utf-8").splitlines()
        assert len(lines) == 1, f"expected one envelope line, got {proc.stdout!r} / {proc.stderr!r}"
        assert b"Traceback" not in proc.stderr, proc.stderr.decode()
        return Result(proc.returncode, check_envelope(json.loads(lines[0])), proc.stderr.decode())

    def hot_set(self, label: str, entries: list[str], *flags: str, **env: str) -> Result:
        return self.cortex("hot", "set", label, *flags, stdin="".join(e + "\n" for e in entries), **env)

    def rows(self, name: str) -> list[dict]:
        path = self.obs / name
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def register_cortex_hooks(root: Path) -> None:
    """ROOT/settings.json of a cortex-native install: the four cortex hooks, by absolute path to this venv's scripts."""
    scripts = os.path.dirname(sys.executable)

    def hooks(*commands: str) -> list:
        return [{"hooks": [{"type": "command", "command": os.path.join(scripts, c)} for c in commands]}]

    settings = {"hooks": {"UserPromptSubmit": hooks("cortex hot render", "cortex recall"),
                          "Stop": hooks("cortex review fire", "cortex-health gate")}}
    (root / "settings.json").write_text(json.dumps(settings))


def make_tree(tmp_path: Path, now: str = NOW, *, subprocess_init: bool = True) -> Tree:
    tree = Tree(tmp_path / "claude", tmp_path / "home", now)
    tree.home.mkdir(parents=True, exist_ok=True)
    init = tree.cortex if subprocess_init else lambda *args: run_in_process(tree, *args)
    result = init("init", "--root", str(tree.root))
    assert result.code == 0, result.envelope
    return tree


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    """A fresh tree (initialised in-process: test_write_init covers `cortex init` as a subprocess)."""
    return make_tree(tmp_path, subprocess_init=False)


def entries(count: int, tag: str = "fact") -> list[str]:
    return [f"PREFERENCE: {tag} number {i} ~explicit" for i in range(count)]


def all_bytes_under(path: Path) -> list[tuple[Path, bytes]]:
    found = []
    for current, _dirs, files in os.walk(path):
        for name in files:
            file_path = Path(current) / name
            if not file_path.is_symlink():
                found.append((file_path, file_path.read_bytes()))
    return found


def run_in_process(tree: Tree, *args: str, stdin: str = "", **env: str) -> Result:
    """The same CLI code path without a process start (for tests that need many writes)."""
    import io

    from cortex.cli import run

    code, envelope = run(list(args), environ=tree.env(**env), stdin=io.StringIO(stdin))
    return Result(code, check_envelope(envelope), "")
