"""Test helper for the privacy canary sweep: one planted tree per input family (used by test_privacy_canary_sweep).

Families: `corpus` (Markdown and JSONL canonical records, frontmatter, a root *_MEMORY.md),
`hot` (hand-edited PRINCIPAL_MEMORY.md / DA_MEMORY.md holding private spans), `loop` (a
transcript, the reviewer config and the inference command's output), `writes` (remembered
items, proposals, `hot set` stdin) and `errors` (inputs whose error messages could quote
them: an escaped span in a timestamp, a broken config, a malformed transcript line) and
`evidence` (hand-edited or legacy OBSERVABILITY logs and state that the auditor reads, the hooks'
failure log included). The `errors` family's broken note and reviewer config also make the
hooks fail, so their own failure rows (O/hook-failures.jsonl) are among the files scanned.
Every family gets the same command sweep; only its own inputs carry canaries. The `writes`, `errors`
and `evidence` planters and the table of every family are in tests/canary_planters.py.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tests.canary_support import CLOSED_VARIANTS, JSON_VARIANTS, TEXT_VARIANTS, Planter
from tests.write_support import REPO, Tree, make_tree

INFERENCE = REPO / "tests" / "inference"
# Raw JSONL variants that the current recogniser neither fails closed on (which would cut the
# line and break the whole corpus) nor needs a JSON decode for.
JSONL_RAW_VARIANTS = ("plain", "attributes", "upper-case", "full-width-brackets", "dotted-capital-i", "nested")
JSONL_VARIANTS = JSONL_RAW_VARIANTS + tuple(JSON_VARIANTS)
HOT_VARIANTS = CLOSED_VARIANTS  # an unclosed opener would eat the END marker as well
SESSION = "sweep-session"


def _program(name: str, *args: str) -> list[str]:
    return [sys.executable, str(INFERENCE / f"{name}.py"), *args]


@dataclass
class Family:
    name: str
    tree: Tree
    planter: Planter
    transcript: Path
    labels: Path
    env: dict = field(default_factory=dict)  # extra environment for every command
    remember: list[str] = field(default_factory=list)  # item JSON for `cortex remember`
    propose: list[str] = field(default_factory=list)
    hot_set_stdin: str = ""
    extra_outputs: list[Path] = field(default_factory=list)  # report path, textfile, step summary
    health_config: Path | None = None  # --config for every cortex-health check

    @property
    def base(self) -> Path:
        return self.tree.root.parent


def _public_transcript(path: Path) -> Path:
    rows = []
    for i in range(3):
        rows.append({"type": "user", "message": {"role": "user", "content": f"sweep public question {i}"}})
        rows.append({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": f"sweep public answer {i}"}]}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _public_items() -> tuple[list[str], list[str], str]:
    remember = [
        {"type": "idea", "title": "Sweep public idea", "content": "sweep public idea body"},
        {"type": "knowledge", "entity_type": "research", "name": "Sweep public research", "content": "sweep public"},
    ]
    propose = [{"type": "proposal", "target_file": "PROJECTS.md", "target_kind": "projects", "edit": "- sweep public edit", "confidence": 0.5,
                "rationale": "sweep public rationale"}] * 2
    stdin = "PREFERENCE: sweep public stdin entry ~explicit\n"
    return [json.dumps(item) for item in remember], [json.dumps(item) for item in propose], stdin


def new_family(name: str, base: Path) -> Family:
    tree = make_tree(base)
    planter = Planter(name)
    transcript = _public_transcript(tree.home / ".claude" / "projects" / "sweep" / f"{SESSION}.jsonl")
    labels = base / "labels.jsonl"
    labels.write_text(json.dumps({"query": "sweep", "expected_ids": ["sweep-public"]}) + "\n", encoding="utf-8")
    remember, propose, stdin = _public_items()
    family = Family(name, tree, planter, transcript, labels, remember=remember, propose=propose, hot_set_stdin=stdin)
    family.env = {"CORTEX_REVIEWER_COMMAND": shlex.join(_program("curate"))}
    (tree.memory / "KNOWLEDGE").mkdir(parents=True, exist_ok=True)
    (tree.memory / "KNOWLEDGE" / "sweep-public.md").write_text(
        "---\nid: sweep-public\ntitle: Sweep public record\ncreated: 2026-01-01T00:00:00Z\n---\nsweep public body\n",
        encoding="utf-8")
    return family


# --- corpus ----------------------------------------------------------------------------------

def plant_corpus(family: Family) -> None:
    p, knowledge = family.planter, family.tree.memory / "KNOWLEDGE"
    for variant in TEXT_VARIANTS:
        where = f"KNOWLEDGE/sweep-{variant}.md"
        p.write(knowledge / f"sweep-{variant}.md", (
            "---\n"
            f"id: sweep-md-{variant}\n"
            f"title: Sweep md {p.span(where + ' title', variant)} title\n"
            "created: 2026-01-01T00:00:00Z\n"
            f"source: sweep {p.span(where + ' source', variant)}\n"
            f"source_session: {SESSION}{p.span(where + ' source_session', variant)}\n"
            f"tags: sweep {p.span(where + ' frontmatter tags', variant)}\n"
            "---\n"
            f"sweep public body {p.span(where + ' body', variant)} more public words\n"
            f"- slug: sweep-link{p.span(where + ' related slug', variant)}\n"))
    rows = []
    for number, variant in enumerate(JSONL_VARIANTS):
        where = "KNOWLEDGE/sweep-records.jsonl"

        def s(name: str, variant=variant, where=where) -> str:
            return p.json_span(f"{where} {name}", variant)

        rows.append({"id": f"sweep-jsonl-{number}{s('id')}", "type": f"memory{s('type')}",
                     "title": f"Sweep jsonl {s('title')} title", "created": "2026-01-01T00:00:00Z",
                     "updated": "2026-01-02T00:00:00Z", "source_kind": f"sweep{s('source_kind')}",
                     "source_session": f"{SESSION}{s('source_session')}", "content": f"sweep public {s('content')} end",
                     "related": [f"sweep-public{s('related')}"]})
    rows.append({"id": "sweep-jsonl-source", "type": "memory", "title": "Sweep jsonl source", "created":
                 f"{p.span('KNOWLEDGE/sweep-records.jsonl created')}2026-01-01T00:00:00Z", "updated": "2026-01-01",
                 "source": f"sweep{p.span('KNOWLEDGE/sweep-records.jsonl source')}", "content": "sweep public"})
    p.write(knowledge / "sweep-records.jsonl", "".join(p.dumps_line(row) + "\n" for row in rows))
    p.write(family.labels, p.dumps_line({"query": f"sweep {p.json_span('benchmark labels query', 'plain')}",
                                         "expected_ids": ["sweep-public"]}) + "\n" + p.dumps_line(
        {"query": f"sweep {p.json_span('benchmark labels query', 'json-escaped-brackets')} body",
         "expected_ids": ["sweep-public"]}) + "\n")
    p.write(family.tree.memory / "SWEEP_MEMORY.md",
            f"---\ntitle: Sweep root {p.span('MEMORY/SWEEP_MEMORY.md title')}\n---\nsweep root "
            f"{p.span('MEMORY/SWEEP_MEMORY.md body')}\n")


# --- hot files --------------------------------------------------------------------------------

def _hot_file(p: Planter, label: str) -> str:
    lines = [f"PREFERENCE: sweep {label} likes tea {p.span(f'{label} hot entry', v)} daily ~explicit"
             for v in HOT_VARIANTS]
    lines.append(f"sweep line without a prefix {p.span(f'{label} hot line without a prefix')}")
    lines.append(f"PREFERENCE: sweep overlong {p.span(f'{label} hot dropped (overlong) entry')} {'x' * 260} ~explicit")
    lines.append(f"<private>\nRULE: {p.canary(f'{label} hot multi-line span', 'multi-line')} ~explicit\n</private>")
    return ("---\nname: SWEEP\n---\n\n# Memory\n\n<!-- BEGIN ENTRIES -->\n" + "\n".join(lines)
            + "\n<!-- END ENTRIES -->\n")


def plant_hot(family: Family) -> None:
    family.planter.write(family.tree.principal, _hot_file(family.planter, "principal"))
    family.planter.write(family.tree.da, _hot_file(family.planter, "da"))
    _plant_hook_settings(family)


def _plant_hook_settings(family: Family) -> None:
    """settings.json registering the four hooks (the probe runs them): spans in a command and on a failing
    hook's stderr, which the probe reports by its first line."""
    p, scripts = family.planter, os.path.dirname(sys.executable)

    def hook(command: str) -> dict:
        return {"type": "command", "command": command, "timeout": 60}

    stderr = shlex.quote(f"sweep gate stderr {p.span('hook stderr line')}")
    settings = {"hooks": {
        "UserPromptSubmit": [{"hooks": [hook(f"{scripts}/cortex hot render"),
                                        hook(f"{scripts}/cortex recall --limit 5 # {p.span('hook command')}")]}],
        "Stop": [{"hooks": [hook(f"{scripts}/cortex review fire"),
                            hook(f"{scripts}/cortex-health gate --timeout 60 2>/dev/null; echo {stderr} >&2; exit 3")]}]}}
    p.write(family.tree.root / "settings.json", json.dumps(settings, ensure_ascii=False))


# --- transcript, config, model output ---------------------------------------------------------

def plant_loop(family: Family) -> None:
    p, rows = family.planter, []
    for variant in TEXT_VARIANTS:
        if variant == "unclosed":
            continue
        rows.append({"type": "user", "message": {"role": "user", "content":
                     f"sweep public question {p.span('transcript user message', variant)} tail"}})
        rows.append({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": f"sweep public answer {p.span('transcript assistant text', variant)} tail"}]}})
    across = [p.canary("transcript span across messages", f"message {i}") for i in range(3)]
    rows.append({"type": "user", "message": {"role": "user", "content": f"sweep opens <private> {across[0]}"}})
    rows.append({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": across[1]}]}})
    rows.append({"type": "user", "message": {"role": "user", "content": f"{across[2]} </private> sweep closes"}})
    rows.append({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}})
    rows.append({"type": "user", "message": {"role": "user", "content":
                 f"sweep last question {p.span('transcript unclosed opener', 'unclosed')}"}})
    rows.append({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "done"}]}})
    p.write(family.transcript, "".join(p.dumps_line(row) + "\n" for row in rows))
    answers = family.base / "answers"
    answers.mkdir()
    first = {"items": [{"type": "idea", "title": "x", "content": "y",
                        p.span("model output unknown key (rejected answer)"): 1}]}
    p.write(answers / "answer-1.txt", json.dumps({**first}, ensure_ascii=False))
    p.write(answers / "answer-2.txt", _model_answer(p))
    p.write(answers / "stderr-1.txt", f"model warning {p.span('model stderr')}\n")
    command = _program("canned", str(answers), "sweep" + p.span("reviewer config inference_command argument"))
    p.write(family.tree.lifeos / "USER" / "CONFIG" / "memory-review.json",
            json.dumps({"schema_version": 1, "inference_command": command}, ensure_ascii=False))
    family.env = {}


def _model_answer(p: Planter) -> str:
    variants = tuple(v for v in JSONL_VARIANTS)
    entries = [f"PREFERENCE: sweep model entry {n} {p.json_span('model memory entry', v)} ~explicit"
               for n, v in enumerate(variants)]
    items = [{"type": "memory", "actor": "principal", "op": "set", "entries": entries,
              "rationale": f"sweep {p.json_span('model memory rationale', 'plain')}"}]
    for v in variants:
        items.append({"type": "idea", "title": f"Sweep model idea {p.json_span('model idea title', v)}",
                      "content": f"sweep {p.json_span('model idea content', v)}"})
    items.append({"type": "proposal", "target_file": "PROJECTS.md", "target_kind": "projects", "edit": f"- sweep {p.json_span('model proposal edit', 'plain')}",
                  "confidence": 0.95, "rationale": f"sweep {p.json_span('model proposal rationale', 'json-escaped-brackets')}"})
    return "\n```json\n" + p.dumps_line({"items": items}) + "\n```\n"
