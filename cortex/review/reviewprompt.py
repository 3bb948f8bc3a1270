"""Reviewer stage: the curation prompt (rules + current hot memory + recent exchanges); used by the reviewer.

The rules are the reference reviewer's curation contract (seed 002 §3): the model returns,
per hot file, the FULL desired entry list via op "set" — what it omits is forgotten — so
adding, consolidating, superseding and forgetting all happen in one review. Everything that
reaches this module has already passed the privacy boundary.
"""
from __future__ import annotations

from dataclasses import dataclass

from cortex.hot.hotmemory import CONSOLIDATE_AT, MAX_CHARS_PER_ENTRY, MAX_ENTRIES
from cortex.core.jscompat import js_len
from cortex.write.proposal_targets import PROPOSAL_TARGETS
from cortex.review.transcript import Exchange


RULES = f"""You are the memory reviewer of a personal AI assistant. You curate durable memory about the
principal (the user) and about the digital assistant (DA) from the conversation below.

HOT MEMORY FILES. There are two: "principal" (facts about the user) and "da" (facts about the
assistant). Every entry is one line that starts with exactly one of the prefixes NAME, ROLE,
RELATION, PREFERENCE or RULE followed by ": ", and may end with a provenance tag:
~explicit (the user said it; the default), ~deduced (logically follows from what the user
said) or ~inferred (a pattern you observed).

HOW WRITING WORKS. For a file you want to change, you return via op "set" the FULL desired
list for that file — the next state you want. The system REPLACES the file with your list.
Whatever you omit is forgotten. Return no memory item for a file that should stay as it is.

CURATION RULES
- Capacity: at most {MAX_ENTRIES} entries per file and at most {MAX_CHARS_PER_ENTRY} characters per entry after the
  prefix, provenance tag included. A list over {MAX_ENTRIES} entries is refused as a whole (EAT_CAP).
- Consolidate first: when a file already holds {CONSOLIDATE_AT} or more entries, CONSOLIDATE before adding —
  merge related entries and drop the least useful or most outdated ones.
- Supersede, don't stack: when the user states a new fact that replaces an old one (works at A →
  works at B), remove the old entry and write the new one. Never keep both.
- Do not guess between conflicts: when two existing entries contradict each other and this
  conversation does not settle it, do not pick one (that is a guess, and ~explicit would claim the
  user said it). Keep the most recent one, tag it ~inferred, and say in the rationale that it needs
  confirmation.
- Merge duplicates: entries that say the same thing become one entry.
- Keep future value: keep entries that still save the principal from re-explaining themselves;
  drop what has gone stale.
- Never save: session-only context, environment-specific failures, one-off task narratives,
  negative tool conclusions ("X is not installed"), task progress or TODOs, commit SHAs, PR numbers
  or branch names, anything that will be outdated within 7 days, or "what happened in this
  conversation".
- Declarative facts, not instructions: write "PREFERENCE: prefers terse responses ~explicit", never
  "RULE: Always be terse" — an instruction would be misread as a command when memory is reloaded.
- Do not shrink a file by more than one entry net per review unless you are consolidating on
  purpose and say so in the rationale; mass deletions are refused.
- Saving nothing is a good answer when nothing durable was said: {{"items": []}}.

OTHER ITEM TYPES (use sparingly, only for durable knowledge):
- {{"type": "idea", "title": "...", "content": "..."}} — an insight worth keeping as a note.
- {{"type": "knowledge", "entity_type": "person"|"company"|"research", "name": "...", "content": "..."}}
- {{"type": "proposal", "target_kind": KIND, "target_file": FILE, "edit": "...", "confidence": 0.0-1.0,
  "rationale": "..."}} — a change to one of the principal's curated files; kinds and files:
{{targets}}
  Proposals at or above confidence {{threshold}} are applied automatically; be honest about confidence.

OUTPUT. Reply with one JSON object and nothing else:
{{"items": [{{"type": "memory", "actor": "principal"|"da", "op": "set", "entries": ["PREFIX: fact ~tag", ...],
"rationale": "..."}}, ...]}}
At most one memory item per actor. No comments, no trailing commas, no text outside the JSON."""


@dataclass(frozen=True)
class Snapshot:
    label: str
    entries: tuple[str, ...]


def _targets() -> str:
    return "\n".join(f"    {kind}: {', '.join(files)}" for kind, files in PROPOSAL_TARGETS.items())


def _snapshot_section(snapshot: Snapshot) -> str:
    chars = sum(js_len(entry) for entry in snapshot.entries)
    head = f"### {snapshot.label} [{len(snapshot.entries)}/{MAX_ENTRIES} entries · {chars}/{MAX_ENTRIES * MAX_CHARS_PER_ENTRY} chars]"
    body = "\n".join(snapshot.entries) if snapshot.entries else "(empty)"
    return f"{head}\n{body}"


def _exchange_section(number: int, exchange: Exchange) -> str:
    return f"### Exchange {number}\nUSER:\n{exchange.user}\n\nASSISTANT:\n{exchange.assistant}"


def build_prompt(snapshots: list[Snapshot], exchanges: list[Exchange], confidence_threshold: float) -> str:
    rules = RULES.replace("{targets}", _targets()).replace("{threshold}", f"{confidence_threshold:g}")
    memory = "\n\n".join(_snapshot_section(snapshot) for snapshot in snapshots)
    conversation = "\n\n".join(_exchange_section(i, exchange) for i, exchange in enumerate(exchanges, start=1))
    return (f"{rules}\n\n## CURRENT HOT MEMORY\n\n{memory}\n\n"
            f"## RECENT CONVERSATION (last {len(exchanges)} exchanges, oldest first)\n\n{conversation}\n")


def corrective_prompt(prompt: str, errors: list[str]) -> str:
    """The retry: the same task plus the exact validation errors of the previous answer."""
    listed = "\n".join(f"- {error}" for error in errors)
    return (f"{prompt}\n## YOUR PREVIOUS ANSWER WAS REJECTED\n\nThese validation errors were found:\n{listed}\n\n"
            "Fix only what these errors point at and send the complete JSON object again, nothing else.\n")
