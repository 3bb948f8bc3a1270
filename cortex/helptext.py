"""Core CLI help: the human text of `cortex --help`, `cortex help [COMMAND]` and `cortex COMMAND --help`; used by cortex.cli.

Help is the one place `cortex` prints text instead of an envelope (stdout, exit 0). Stdlib
only and no command module is imported, so `cortex --help` starts as fast as a hook. The
item examples are real: a test submits each one through `cortex remember|propose`.
"""
from __future__ import annotations

from cortex.invocation import GROUPS, command_key
from cortex.write.proposal_targets import PROPOSAL_TARGETS

ROOT_OPTIONS = """\
Root (every command):
  --root DIR           the .claude folder that holds LIFEOS/ (memory is DIR/LIFEOS/MEMORY)
  --memory-root DIR    the LIFEOS/MEMORY folder itself (default: $CORTEX_MEMORY_ROOT, else
                       ~/.claude/LIFEOS/MEMORY); pass --root or --memory-root, not both
  --adapter NAME       who is calling: claude|hermes|codex|subagent
Options take `--opt value` or `--opt=value`; these three may also come before the command
(`cortex --root ~/.claude status`)."""

# name -> (one-line purpose, usage, options (or ""), example)
COMMANDS: dict[str, tuple[str, str, str, str]] = {
    "status": ("Show the pinned memory root and how many canonical records it holds.",
               "cortex status", "", "cortex status --root ~/.claude"),
    "search": ("Rank records for a query (BM25); answers cards, never content.",
               "cortex search QUERY [filters] [--page N] [--page-size N] [--recency W] "
               "[--expand ID --max-nodes N --max-tokens N]",
               "  --type T --source S --session ID --from DATE --to DATE   filters\n"
               "  --page N (from 1) --page-size N (1-100, default 10)\n"
               "  --recency W          add W x updated time to the score (default 0)\n"
               "  --expand ID          also walk `related` links from ID within --max-nodes/--max-tokens",
               "cortex search 'green tea' --page-size 5"),
    "timeline": ("Records created around an anchor record or date.",
                 "cortex timeline --anchor ID_OR_DATE [--before N] [--after N] [filters as search]",
                 "  --anchor ID_OR_DATE  a record id or a date (2026-01-01 or an ISO date-time)\n"
                 "  --before N --after N records on each side (0-100, default 5)",
                 "cortex timeline --anchor 2026-06-01 --before 3 --after 3"),
    "get": ("Full sanitized records by id, all or nothing (exit 3 names the missing ids).",
            "cortex get ID [ID ...]", "", "cortex get idea-memory-as-a-garden-20260101T120000Z-3f9a1c2e"),
    "export": ("The same selection as get, as a lifeos-cortex-export/v1 payload; writes no file.",
               "cortex export ID [ID ...]", "", "cortex export ID1 ID2"),
    "rebuild": ("Rebuild the corpus view from the canonical files and compare digests.",
                "cortex rebuild --from-canonical", "", "cortex rebuild --from-canonical"),
    "cache": ("Show, verify or clear this memory root's search cache (derived; never a source of truth).",
              "cortex cache status|verify|clear",
              "  status               where it is, its size, entries, last write and last verification\n"
              "  verify               re-read every canonical file and compare it with the cache\n"
              "                       (an entry that differs is removed; data.ok says whether all matched,\n"
              "                       false with verification null when caching is off)\n"
              "  clear                delete this root's cache (the next read rebuilds it)\n"
              "  Location: $CORTEX_CACHE_DIR, else $XDG_CACHE_HOME/cortex, else ~/.cache/cortex;\n"
              "  CORTEX_CACHE=off disables it",
              "cortex cache verify --root ~/.claude"),
    "benchmark": ("Run the labeled retrieval benchmark (lifeos-cortex-benchmark/v1 report).",
                  "cortex benchmark --labels FILE [--output PATH] [--samples N] [--top-k K] [--min-score S] "
                  "[--min-share F]",
                  "  --labels FILE        JSONL rows {query, expected_ids, expected_order?, false_ids?}\n"
                  "  --output PATH        also write the report under MEMORY/BENCHMARKS/ (never overwrites)\n"
                  "  --samples N (1-1000, default 25) --top-k K (1-100, default 5)\n"
                  "  --min-score S --min-share F   the recall hook's floor (as `cortex recall`; data.recall_hook\n"
                  "                       compares what the hook injects with and without it)",
                  "cortex benchmark --labels fixtures/cjk/MEMORY/BENCHMARKS/cortex-retrieval-cjk-v1.jsonl "
                  "--memory-root fixtures/cjk/MEMORY"),
    "init": ("Create a fresh LifeOS layout under --root; never overwrites an existing file.",
             "cortex init [--root DIR]", "  --root DIR           default: $CLAUDE_CONFIG_DIR, else ~/.claude",
             "cortex init --root ~/.claude"),
    "hot": ("Read and write the two hot-memory files (principal, da).",
            "cortex hot read|set|snapshots|restore|render ...",
            "  cortex hot read principal|da                 entries, counts, invalid entries with reasons\n"
            "  cortex hot set principal|da [--allow-drastic]\n"
            "      the full desired list on stdin, one entry per line; what is omitted is forgotten;\n"
            "      entries start with NAME|ROLE|RELATION|PREFERENCE|RULE: (at most 256 characters after it)\n"
            "  cortex hot snapshots [principal|da]          the snapshot ring, newest first\n"
            "  cortex hot restore principal|da SNAPSHOT     put a named snapshot back (an explicit undo)\n"
            "  cortex hot render                            the <lifeos-memory> block for a prompt hook\n"
            "  --allow-drastic      let a set remove 2 or more entries net, or shrink a large file",
            "printf 'NAME: Ada ~explicit\\nPREFERENCE: green tea ~explicit\\n' | cortex hot set principal"),
    "remember": ("Write a memory, idea or knowledge item through the governed write path.",
                 "cortex remember ITEM_JSON --adapter NAME --allow-write",
                 "  --adapter NAME --allow-write   both required (else exit 5 write_refused)",
                 ""),
    "propose": ("Queue a proposal (an edit to a curated file) for approval.",
                "cortex propose ITEM_JSON --adapter NAME --allow-write",
                "  --adapter NAME --allow-write   both required (else exit 5 write_refused)",
                ""),
    "proposals": ("List, approve or reject queued proposals.",
                  "cortex proposals list [--status pending|approved|rejected] | approve ID | reject ID",
                  "  --status S           only list proposals with this status",
                  "cortex proposals list --status pending"),
    "review run": ("Run one memory review of a Claude Code transcript (the reviewer).",
                   "cortex review run [--input TRANSCRIPT] [--turns N] [--dry-run]",
                   "  --input TRANSCRIPT   a .jsonl transcript (default: the newest under transcript_dir)\n"
                   "  --turns N            last N user->assistant exchanges (default 20)\n"
                   "  --dry-run            build the prompt, write nothing\n\n"
                   "Config: LIFEOS/USER/CONFIG/memory-review.json (cortex init writes the defaults; absent = them):\n"
                   "  inference_command    the model call, prompt on stdin, {\"items\": [...]} on stdout\n"
                   "                       (default [\"claude\", \"-p\"]: Claude Code, found on the hook's PATH)\n"
                   "  pass_env             credential-like variables (ANTHROPIC_*, *_API_KEY, *_TOKEN, ...) to hand\n"
                   "                       to the command (default none: the command gets none of them)\n"
                   "  turn_threshold, min_minutes_between   when `review fire` starts a review (8 turns, 30 min)\n"
                   "  confidence_threshold, inference_timeout_seconds, transcript_dir (default ROOT/projects)\n"
                   "  CORTEX_REVIEWER_COMMAND   a command line that overrides inference_command (absolute paths)\n"
                   "A failed run exits 6; its error quotes the first line the command printed on stderr.",
                   "cortex review run --dry-run"),
    "review fire": ("Stop hook: count a turn and start a review when one is due.",
                    "cortex review fire [--session ID] [--transcript PATH]",
                    "  --session ID --transcript PATH   default: Claude Code's hook JSON on stdin",
                    "cortex review fire --session demo-session"),
    "review replay": ("Dispatch again the items a review kept because their dispatch failed.",
                      "cortex review replay RUN_ID",
                      "  RUN_ID               a run under OBSERVABILITY/reviewer-runs/ with failed-items.json\n"
                      "                       (cortex-health reports reviewer-dispatch-failed naming it)",
                      "cortex review replay 2026-11-29T08-59-30-004Z"),
    "hot render": ("UserPromptSubmit hook: print the <lifeos-memory> block.", "cortex hot render", "",
                   "cortex hot render --root ~/.claude"),
    "recall": ("UserPromptSubmit hook: print a bounded <lifeos-recall> block for a prompt.",
               "cortex recall [PROMPT] [--limit K] [--min-score S] [--min-share F]",
               "  PROMPT               default: the `prompt` of Claude Code's hook JSON on stdin\n"
               "  --limit K            at most K records (default 5)\n"
               "  Only records sharing a word with the prompt other than a stopword (and, in, what...) and\n"
               "  clearing the relevance floor are printed:\n"
               "  --min-score S        BM25 score at least S (default 0: off; CORTEX_RECALL_MIN_SCORE)\n"
               "  --min-share F        at least F of the best record's score (0-1, default 0.15;\n"
               "                       CORTEX_RECALL_MIN_SHARE)",
               "cortex recall 'what tea do I like' --limit 3"),
}

ITEM_EXAMPLES = {
    "memory": '{"type":"memory","actor":"principal","op":"set","entries":["NAME: Ada ~explicit",'
              '"PREFERENCE: green tea ~explicit"]}',
    "idea": '{"type":"idea","title":"Memory as a garden","content":"Prune weekly; keep what grows."}',
    "knowledge": '{"type":"knowledge","entity_type":"person","name":"Ada Lovelace",'
                 '"content":"Wrote the first published program."}',
    "proposal": '{"type":"proposal","target_file":"USER/PRINCIPAL/WRITINGSTYLE.md","edit":"Prefer short sentences.",'
                '"confidence":0.6,"rationale":"Asked for shorter answers twice."}',
}
ITEM_NOTES = {
    "memory": "actor principal|da; entries is the FULL desired list (omitted entries are forgotten)",
    "idea": "optional: source_session, confidence (0-1), related [{slug, type}], valid_from, valid_until",
    "knowledge": "entity_type person|company|research; optional fields as for idea",
    "proposal": "confidence 0-1; optional target_kind, observed_across_sessions, source_session",
}

OVERVIEW_TAIL = """\
Every command prints one JSON envelope {schema, ok, command, data, error} on stdout, except
the hooks (hot render, recall, review fire) and help. Exit: 0 ok, 1 internal_error,
3 not_found, 4 invalid_input|integrity_error, 5 write_refused|governance_refused,
6 review_failed (review run).
More: cortex help COMMAND, or cortex COMMAND --help; cortex --version prints the installed version."""


def _items(types: tuple[str, ...], verb: str) -> str:
    lines = ["Items (one JSON object, quoted for the shell):"]
    for kind in types:
        lines += [f"  {kind}: {ITEM_NOTES[kind]}", f"    cortex {verb} '{ITEM_EXAMPLES[kind]}' --adapter claude --allow-write"]
    if "proposal" in types:
        lines.append("  proposal targets (target_kind: target_file, relative to LIFEOS):")
        lines += [f"    {kind}: {', '.join(files)}" for kind, files in PROPOSAL_TARGETS.items()]
    return "\n".join(lines)


def overview() -> str:
    width = max(len(name) for name in COMMANDS) + 2
    rows = [f"  {name.ljust(width)}{purpose}" for name, (purpose, *_rest) in COMMANDS.items()]
    return "\n".join(["cortex: the local memory core (lifeos-cortex/v1).", "", "Usage: cortex COMMAND [ARGS] [OPTIONS]",
                      "", "Commands:", *rows, "", ROOT_OPTIONS, "", OVERVIEW_TAIL]) + "\n"


def topic(words: list[str]) -> str | None:
    """The command or group a help request names ("hot render" wins over "hot"), or None when unknown."""
    return command_key(words, COMMANDS) or command_key(words[:1], GROUPS)


def command_help(name: str) -> str:
    if name not in COMMANDS:  # a group without its own entry: `cortex review`
        subcommands = [f"{name} {sub}" for sub in GROUPS[name]]
        width = max(map(len, subcommands)) + 2
        rows = [f"  {sub.ljust(width)}{COMMANDS[sub][0]}" for sub in subcommands]
        return "\n".join([f"Usage: cortex {name} {'|'.join(GROUPS[name])} ...", "", "Subcommands:", *rows, "",
                          f"More: cortex {subcommands[0]} --help"]) + "\n"
    purpose, usage, options, example = COMMANDS[name]
    parts = [f"Usage: {usage}", "", purpose]
    if options:
        parts += ["", "Options:", options]
    if name == "remember":
        parts += ["", _items(("memory", "idea", "knowledge"), "remember")]
    elif name == "propose":
        parts += ["", _items(("proposal",), "propose")]
    parts += ["", ROOT_OPTIONS]
    if example:
        parts += ["", "Example:", f"  {example}"]
    return "\n".join(parts) + "\n"
