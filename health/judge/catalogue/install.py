"""Help data: install finding ids (health.judge.rules.install). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

KIND = ("cortex-native when the effective ROOT/settings.json registers a cortex hook command (cortex hot render, "
        "cortex recall, cortex review fire, cortex-health gate) and no LifeOS memory hook file; lifeos-native "
        "otherwise, a missing settings.json included")

INSTALL_KIND = Check("install:kind", f"which install the memory loop is ({KIND})")
INSTALL_LIFEOS_NATIVE = Ok("install-lifeos-native", INSTALL_KIND)
INSTALL_CORTEX_NATIVE = Ok("install-cortex-native", INSTALL_KIND)

INSTALL_HOOK_FILES = Check(
    "install:hook-files", "each LifeOS memory hook file exists under ROOT/hooks/ (lifeos-native)")
HOOK_FILE_PRESENT = Ok("hook-file-present:{file}", INSTALL_HOOK_FILES)
HOOK_FILE_MISSING = Problem(
    "hook-file-missing:{file}", CRITICAL, INSTALL_HOOK_FILES,
    "A memory hook file (MemoryTurnStart, LoadMemory, MemoryDeltaSurface, MemoryReviewFire or "
    "MemoryHealthGate .hook.ts) is missing under ROOT/hooks/: the part of the memory loop it runs is dead.",
    ("an update or a clean-up deleted it", "the install was copied without the hooks folder",
     "the tree is cortex-native but settings.json does not register the cortex hooks yet"),
    "Reinstall the LifeOS hooks (or restore the file from the release); for a cortex install, register the "
    "cortex hook commands in settings.json (docs/memory-loop.md) so the .ts files are not required.")

INSTALL_TOOL_FILES = Check(
    "install:tool-files", "each LifeOS memory tool exists under ROOT/LIFEOS/TOOLS/ (lifeos-native)")
TOOL_FILE_PRESENT = Ok("tool-file-present:{file}", INSTALL_TOOL_FILES)
TOOL_FILE_MISSING = Problem(
    "tool-file-missing:{file}", CRITICAL, INSTALL_TOOL_FILES,
    "A memory tool (MemorySystem, MemoryReviewer, MemoryWriter, MemoryRetriever, MemoryTypes, MemoryStatus, "
    "MemoryHealthCheck or MutationTier .ts) is missing under ROOT/LIFEOS/TOOLS/: hooks that import it fail.",
    ("an update or a clean-up deleted it", "a partial copy of the install"),
    "Reinstall the LifeOS tools from the release; the next audit confirms each file.")

INSTALL_SETTINGS = Check(
    "install:settings", "the effective settings.json exists, is readable and parses as a JSON object")
SETTINGS_READABLE = Ok("settings-readable:settings.json", INSTALL_SETTINGS)
SETTINGS_MISSING = Problem(
    "settings-missing:settings.json", CRITICAL, INSTALL_SETTINGS,
    "ROOT/settings.json, the settings the agent actually reads, is missing or cannot be read: no hook of "
    "the memory loop is registered (a file that exists but is not valid JSON is settings-invalid).",
    ("a fresh or broken install", "permissions on the file", "the file was replaced by a directory or a FIFO"),
    "Restore settings.json (from settings.system.json or a backup) and register the memory hooks; "
    "validate it with `python -m json.tool ROOT/settings.json`.")
SETTINGS_INVALID = Problem(
    "settings-invalid", CRITICAL, INSTALL_SETTINGS,
    "ROOT/settings.json exists but is not valid JSON (or not a JSON object): the agent cannot load it, so "
    "none of its hooks runs. The finding names the line and column of the syntax error. The install kind "
    "cannot be told from it, so the checks that depend on it (hook and tool files, registrations, "
    "commands) are not guessed until it parses.",
    ("a trailing comma after the last entry of an object or array", "a missing comma or quote after a hand "
     "edit", "a merge of two snippets left half-closed"),
    "Fix the syntax at the line and column the finding names (`python -m json.tool ROOT/settings.json` "
    "shows the same place), then re-run cortex-health.")

INSTALL_REGISTRATION = Check("install:registration", "each memory hook is registered in the effective settings.json")
SETTINGS_HOOK_PRESENT = Ok("settings-hook-present:{hook}", INSTALL_REGISTRATION)
SETTINGS_HOOK_MISSING = Problem(
    "settings-hook-missing:{hook}", CRITICAL, INSTALL_REGISTRATION,
    "A memory hook named in settings.system.json (the intent) is not registered in settings.json (the "
    "truth): its registration was clobbered and the hook silently stopped running.",
    ("a tool or an update rewrote settings.json without the memory hooks",
     "a hand edit removed the hook entry"),
    "Put the hook entry from settings.system.json back into settings.json (the finding names the hook and "
    "both files); the next prompt or Stop runs it again.")
SETTINGS_HOOK_ABSENT = Problem(
    "settings-hook-absent:{hook}", WARN, INSTALL_REGISTRATION,
    "A memory hook is registered in no settings layer: this install does not run that part of the memory "
    "loop (expected on a public skill install; a gap on a personal one).",
    ("the memory loop was never wired into this agent", "a cortex-native install registers only some hooks"),
    "Register the hook (docs/memory-loop.md shows the settings.json block) or accept the warning on "
    "an install that deliberately runs without it.")

INSTALL_COMMANDS = Check("install:commands", "every registered hook command resolves to an executable (cortex-native)")
HOOK_COMMAND_RESOLVED = Ok("hook-command-resolved:{event}:{program}", INSTALL_COMMANDS)
HOOK_COMMAND_MISSING = Problem(
    "hook-command-missing:{event}:{program}", CRITICAL, INSTALL_COMMANDS,
    "A hook command registered in settings.json names a program that does not resolve in the environment "
    "the agent gives its hooks (the settings' env, else the auditor's PATH): the hook fails on every "
    "event.",
    ("the virtual environment holding cortex was moved or deleted",
     "the agent's PATH does not contain the folder with the cortex console scripts",
     "a typo in the command"),
    "Use an absolute path to the program in settings.json, or set env.PATH in settings.json to include "
    "its folder (`which cortex` shows it); then re-run cortex-health.")

INSTALL_SUBAGENT_FLAG = Check("install:subagent-flag", "no subagent flag is set for the main session")
SUBAGENT_FLAG_CLEAR = Ok("subagent-flag-clear", INSTALL_SUBAGENT_FLAG)
SUBAGENT_FLAG_IN_MAIN_SESSION = Problem(
    "subagent-flag-in-main-session", CRITICAL, INSTALL_SUBAGENT_FLAG,
    "CORTEX_SUBAGENT or CLAUDE_CODE_FORK_SUBAGENT is set in the settings' env (or the hook environment): "
    "every session looks like a subagent, so render, recall and fire silently do nothing.",
    ("a flag meant for a subagent launcher was put in settings.json env",
     "a shell profile exports the flag globally"),
    "Remove the flag from settings.json env and from the shell profile; set it only on the subagent or "
    "reviewer process that needs it.")

CHECKS = checks_of(INSTALL_LIFEOS_NATIVE, INSTALL_CORTEX_NATIVE, HOOK_FILE_PRESENT, HOOK_FILE_MISSING,
                   TOOL_FILE_PRESENT, TOOL_FILE_MISSING, SETTINGS_READABLE, SETTINGS_MISSING, SETTINGS_INVALID,
                   SETTINGS_HOOK_PRESENT, SETTINGS_HOOK_MISSING, SETTINGS_HOOK_ABSENT, HOOK_COMMAND_RESOLVED,
                   HOOK_COMMAND_MISSING, SUBAGENT_FLAG_CLEAR, SUBAGENT_FLAG_IN_MAIN_SESSION)
