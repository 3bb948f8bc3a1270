"""Test helpers for the Cortex CLI: run the real CLI and validate every envelope it prints."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "cortex" / "schemas" / "lifeos-cortex-v1.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def base_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORTEX_")}
    env.update(extra)
    return env


def cortex(*args: str, env: dict | None = None, input: str | None = None, preexec_fn=None, cwd=None):
    """Run `python -m cortex ARGS`; returns (exit code, envelope) after checking the envelope contract."""
    proc = subprocess.run(
        [sys.executable, "-m", "cortex", *args],
        capture_output=True,
        text=True,
        env=env if env is not None else base_env(),
        input=input,
        preexec_fn=preexec_fn,
        cwd=cwd,
        timeout=120,
    )
    assert proc.stderr == "", proc.stderr
    lines = proc.stdout.split("\n")
    assert len(lines) == 2 and lines[1] == "", f"expected exactly one line, got {proc.stdout!r}"
    envelope = json.loads(lines[0])
    assert lines[0] == json.dumps(envelope, separators=(",", ":"), ensure_ascii=False) or "." in lines[0]
    VALIDATOR.validate(envelope)
    assert list(envelope) == ["schema", "ok", "command", "data", "error"]
    return proc.returncode, envelope


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def md(path: Path, body: str = "Body text.", **fields: str) -> Path:
    front = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return write(path, f"---\n{front}---\n{body}\n")


def jsonl(path: Path, *rows: dict) -> Path:
    return write(path, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def row(record_id: str, content: str = "content", **extra) -> dict:
    base = {"id": record_id, "type": "memory", "title": f"Title {record_id}", "created": "2026-01-01T00:00:00Z",
            "updated": "2026-01-01T00:00:00Z", "content": content}
    base.update(extra)
    return base
