"""Core CLI help: the human text of `cortex --help`, `cortex help [COMMAND]` and `cortex COMMAND --help`; used by cortex.cli.

Help is the one place `cortex` prints text instead of an envelope (stdout, exit 0). It is
rendered from what the commands declare: the summaries of the command table (cortex.commands,
so the overview and a group's listing import no command module and start as fast as a hook),
each command's usage, option help and example from its CommandSpec (only that command's module
is imported, as running it would), and the root options from cortex.invocation. What is left
here is the frame and the write commands' item examples, which are real: a test submits each
one through `cortex remember|propose`.
"""
from __future__ import annotations

from cortex.commands import COMMAND_TABLE, commands_for, summary
from cortex.invocation import COMMON_OPTION_HELP, GROUPS, command_key
from cortex.write.proposal_targets import PROPOSAL_TARGETS

OPTION_WIDTH = 20  # the column an option's text starts at, after two spaces of indent
ROOT_NOTE = """\
Options take `--opt value` or `--opt=value`; these three may also come before the command
(`cortex --root ~/.claude status`)."""

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


def option_lines(rows) -> list[str]:
    """Rows (term, text[, width]) as help lines: the text in a column (or after three spaces when the term is
    wider), its further lines under it; a row without a term is a line of prose."""
    lines = []
    for term, text, *rest in rows:
        width = rest[0] if rest else OPTION_WIDTH
        first, *more = text.split("\n")
        if not term:
            lines.append(f"  {first}")
        elif not first:
            lines.append(f"  {term}")
        else:
            lines.append(f"  {term.ljust(width)} {first}" if len(term) <= width else f"  {term}   {first}")
        lines += [" " * (width + 3) + line for line in more]
    return lines


def root_options() -> str:
    return "\n".join(["Root (every command):", *option_lines(COMMON_OPTION_HELP), ROOT_NOTE])


def overview() -> str:
    width = max(len(name) for name in COMMAND_TABLE) + 2
    rows = [f"  {name.ljust(width)}{summary(name)}" for name in COMMAND_TABLE]
    return "\n".join(["cortex: the local memory core (lifeos-cortex/v1).", "", "Usage: cortex COMMAND [ARGS] [OPTIONS]",
                      "", "Commands:", *rows, "", root_options(), "", OVERVIEW_TAIL]) + "\n"


def topic(words: list[str]) -> str | None:
    """The command or group a help request names ("hot render" wins over "hot"), or None when unknown."""
    return command_key(words, COMMAND_TABLE) or command_key(words[:1], GROUPS)


def command_help(name: str) -> str:
    if name not in COMMAND_TABLE:  # a group without its own entry: `cortex review`
        subcommands = [f"{name} {sub}" for sub in GROUPS[name]]
        width = max(map(len, subcommands)) + 2
        rows = [f"  {sub.ljust(width)}{summary(sub)}" for sub in subcommands]
        return "\n".join([f"Usage: cortex {name} {'|'.join(GROUPS[name])} ...", "", "Subcommands:", *rows, "",
                          f"More: cortex {subcommands[0]} --help"]) + "\n"
    spec = commands_for(name.split())[name]
    parts = [f"Usage: {spec.usage}", "", summary(name)]
    if spec.option_help:
        parts += ["", "Options:", "\n".join(option_lines(spec.option_help) + ([spec.notes] if spec.notes else []))]
    if name == "remember":
        parts += ["", _items(("memory", "idea", "knowledge"), "remember")]
    elif name == "propose":
        parts += ["", _items(("proposal",), "propose")]
    parts += ["", root_options()]
    if spec.example:
        parts += ["", "Example:", f"  {spec.example}"]
    return "\n".join(parts) + "\n"
