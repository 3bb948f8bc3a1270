"""Help command stage: `cortex-health setup claude-code --merge FILE` adds the cortex hooks and status line to an existing settings.json; called by health.setup_snippets.

Most users already have a settings.json. The merge keeps every other key, hook and group as
it is and appends one group per event with the cortex hooks that event does not run yet (a
hook counts as there when its program and subcommand match, whatever its path or options),
so a second run changes nothing and says so. A status line is added only where there is none.
Refused, with nothing written: a file that is not a JSON object (the line and column named;
comments are not JSON), duplicate keys, `hooks` of another shape. The old bytes go to a
backup beside the file (FILE.bak, else FILE.bak.1 ...; never overwritten), then the new text
replaces the file atomically, and only if it did not change meanwhile. A symlinked
settings.json (a dotfiles checkout) is merged into its target, the link kept.
"""
from __future__ import annotations

import json
import os
from collections.abc import Mapping

from collectors.readers.settings import MAX_SETTINGS_BYTES, hook_environment, parse_command, settings_env
from cortex.core.durable import create_file, replace_file
from cortex.core.safeio import read_bounded
from cortex.core.strictjson import StrictJSONError, decode

MAX_BACKUPS = 100


class MergeRefused(Exception):
    """Why the file was left as it was (the message names the file)."""


def _located(path: str, text: str) -> object:
    """The decoded value, or MergeRefused naming the line and column where the text stops being JSON."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        comment = text[error.pos:error.pos + 2] in ("//", "/*")
        why = " (comments are not JSON: remove them)" if comment else ""
        raise MergeRefused(f"{path} is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}{why}; "
                           "nothing was changed") from None
    try:
        return decode(text)
    except StrictJSONError as error:  # duplicate keys, NaN: rewriting would silently pick one meaning
        raise MergeRefused(f"{path} is not strict JSON ({error}); nothing was changed") from None


def _hook_name(event: str, command: object, env: Mapping[str, str]) -> str | None:
    return parse_command(event, command, env).cortex_hook


def _status_line_is_ours(status: object, env: Mapping[str, str]) -> bool:
    if not isinstance(status, dict):
        return False
    parsed = parse_command("statusLine", status.get("command"), env)
    return parsed.program is not None and (os.path.basename(parsed.program), *parsed.words[:1]) == (
        "cortex-health", "statusline")


def merged(current: dict, ours: dict, environ: Mapping[str, str]) -> tuple[dict, list[str]]:
    """`current` with what `ours` adds, and one line per hook or status line: added (+) or already there (=)."""
    env = hook_environment(settings_env(current), environ)
    result = dict(current)
    hooks = result.get("hooks", {})
    if not isinstance(hooks, dict):
        raise MergeRefused("its `hooks` is not an object; fix it first (nothing was changed)")
    hooks = dict(hooks)
    lines = []
    for event, groups in ours["hooks"].items():
        present = hooks.get(event, [])
        if not isinstance(present, list):
            raise MergeRefused(f"its hooks.{event} is not a list; fix it first (nothing was changed)")
        there = {_hook_name(event, entry.get("command"), env) for group in present if isinstance(group, dict)
                 for entry in (group.get("hooks") if isinstance(group.get("hooks"), list) else [])
                 if isinstance(entry, dict)} - {None}
        missing = []
        for entry in (entry for group in groups for entry in group["hooks"]):
            name = _hook_name(event, entry["command"], env)
            if name in there:  # named, not quoted: the user's command line may carry a secret
                lines.append(f"  = {event}: {name} (already registered, kept as it is)")
            else:
                missing.append(entry)
                lines.append(f"  + {event}: {entry['command']}")
        if missing:
            hooks[event] = [*present, {"hooks": missing}]
    result["hooks"] = hooks
    status = result.get("statusLine")
    if status is None:
        result["statusLine"] = ours["statusLine"]
        lines.append(f"  + statusLine: {ours['statusLine']['command']}")
    elif _status_line_is_ours(status, env):
        lines.append("  = statusLine: cortex-health statusline (already set, kept as it is)")
    else:
        lines.append("  = statusLine: yours is kept; to show memory health there instead, set its command to "
                     f"{ours['statusLine']['command']}")
    return result, lines


def _backup(path: str, data: bytes, mode: int) -> str:
    for number in range(MAX_BACKUPS):
        candidate = f"{path}.bak" + (f".{number}" if number else "")
        try:
            create_file(candidate, data, mode=mode)
        except FileExistsError:
            continue
        return candidate
    raise MergeRefused(f"{path}.bak ... .bak.{MAX_BACKUPS - 1} all exist; remove old backups first")


def merge_file(path: str, snippet: str, environ: Mapping[str, str]) -> tuple[str, list[str], str | None]:
    """Merge the snippet into `path`: (the file written, what changed, its backup or None when unchanged)."""
    target = os.path.realpath(path)
    try:
        old = read_bounded(target, MAX_SETTINGS_BYTES)
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        raise MergeRefused(f"{path} does not exist: create it with `cortex-health setup claude-code --write "
                           f"{path}`") from None
    except OSError as error:
        raise MergeRefused(f"{path} cannot be read: {error}") from None
    try:
        text = old.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise MergeRefused(f"{path} is not UTF-8 (byte {error.start}); nothing was changed") from None
    current = _located(path, text)
    if not isinstance(current, dict):
        raise MergeRefused(f"{path} holds JSON but not an object; nothing was changed")
    try:
        result, lines = merged(current, json.loads(snippet), environ)
    except MergeRefused as refused:
        raise MergeRefused(f"{path}: {refused}") from None
    if result == current:
        return target, lines, None
    backup = _backup(target, old, mode)

    def unchanged_meanwhile() -> None:
        if read_bounded(target, MAX_SETTINGS_BYTES) != old:
            raise MergeRefused(f"{path} changed while it was being merged; run the command again (the backup "
                               f"{backup} holds the bytes it started from)")

    new = (json.dumps(result, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    replace_file(target, new, before_rename=unchanged_meanwhile)
    return target, lines, backup
