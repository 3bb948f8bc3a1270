"""Core CLI plumbing: strict option parsing and the per-call context handed to command handlers.

Each command declares a fixed allow-list of value options and flag options. Unknown,
duplicate, missing-value and inapplicable options are invalid_input, never ignored.
`--opt value` and `--opt=value` are the same option; every command takes the root either
as `--root DIR` (the .claude folder) or `--memory-root DIR` (DIR/LIFEOS/MEMORY), not both.
"""
from __future__ import annotations

import os
from io import TextIOBase as TextIO

from cortex.errors import IntegrityError, InvalidInput
from cortex.core.timestamps import now_ms, parse_timestamp_ms
from cortex.layout import MEMORY_PARTS

TYPE_CHECKING = False  # annotations only: collections.abc costs every hook's start-up ~0.4M instructions
if TYPE_CHECKING:
    from collections.abc import Container, Iterable, Mapping  # not typing: 6 ms of start-up

ADAPTERS = ("claude", "hermes", "codex", "subagent")
# The options every command takes, with their help (term, text): cortex.helptext renders them.
COMMON_OPTION_HELP = (
    ("--root DIR", "the .claude folder that holds LIFEOS/ (memory is DIR/LIFEOS/MEMORY)"),
    ("--memory-root DIR", "the LIFEOS/MEMORY folder itself (default: $CORTEX_MEMORY_ROOT, else\n"
                          "~/.claude/LIFEOS/MEMORY); pass --root or --memory-root, not both"),
    ("--adapter NAME", f"who is calling: {'|'.join(ADAPTERS)}"),
)
COMMON_OPTIONS = frozenset(term.split()[0] for term, _text in COMMON_OPTION_HELP)
DEFAULT_MEMORY_ROOT = os.path.join("~", ".claude", *MEMORY_PARTS)
# Command words that only name subcommands; `cortex review` alone lists them.
GROUPS = {"hot": ("read", "set", "snapshots", "restore", "render"), "review": ("run", "fire", "replay"),
          "proposals": ("list", "approve", "reject")}


class CommandSpec:
    """One `cortex` command: its allowed options, its handler and its help.

    name: str (one word, "status", or two, "hot render"; a two-word name wins over its first word);
    handler: Callable[[Invocation], object]; value_options, flag_options: frozenset[str]; enveloped: bool;
    error_exit: int. The handler returns the envelope's `data` (or, for commands with enveloped=False
    such as prompt hooks, the text to print) and raises CortexError subclasses on failure. Plain-text
    (hook) commands never print an envelope: on any error stdout stays empty, the message goes to
    stderr and the process exits with `error_exit`. Help (cortex.helptext renders it; the one-line
    summary is in the command table, cortex.commands): usage: str; option_help: rows (term, text[, width])
    of the options and arguments, a term "" for a line of prose; notes: str after them; example: str.
    (A plain class: no caller uses it as a tuple, and a named tuple's class would cost every command ~0.4M
    instructions to define, with collections to import.)
    """

    __slots__ = ("name", "handler", "value_options", "flag_options", "enveloped", "error_exit", "usage", "option_help",
                 "notes", "example")

    def __init__(self, name: str, handler, value_options: frozenset[str] = frozenset(),
                 flag_options: frozenset[str] = frozenset(), enveloped: bool = True, error_exit: int = 1, usage: str = "",
                 option_help: tuple = (), notes: str = "", example: str = "") -> None:
        self.name, self.handler, self.value_options, self.flag_options = name, handler, value_options, flag_options
        self.enveloped, self.error_exit, self.usage, self.option_help = enveloped, error_exit, usage, option_help
        self.notes, self.example = notes, example

    @property
    def allowed(self) -> frozenset[str]:
        return COMMON_OPTIONS | self.value_options | self.flag_options


class Invocation:
    """One call of one command: its parsed options, environment, root override and stdin.

    Mutable on purpose: it caches the clock and the corpus for the call, and handlers append
    `notices` (lines for a human on stderr after the envelope; stdout is unchanged).
    """

    __slots__ = ("command", "options", "positionals", "environ", "memory_root_override", "stdin", "_cache", "notices",
                 "builds")

    def __init__(self, command: str, options: dict[str, str | bool], positionals: list[str],
                 environ: Mapping[str, str], memory_root_override: str | None = None,
                 stdin: TextIO | None = None, builds: list | None = None) -> None:
        self.command, self.options, self.positionals, self.environ = command, options, positionals, environ
        self.memory_root_override, self.stdin = memory_root_override, stdin
        self.builds = builds  # where the search cache leaves its build work (cortex.cli.main runs it after the answer)
        self._cache: dict = {}
        self.notices: list[str] = []

    def option(self, name: str) -> str | None:
        value = self.options.get(name)
        return value if isinstance(value, str) else None

    def flag(self, name: str) -> bool:
        return self.options.get(name) is True

    def count_option(self, name: str, default: int, high: int) -> int:
        """A whole-number option from 1 to `high` in ASCII digits (`default` when absent); else invalid_input."""
        raw = self.option(name)
        if raw is None:  # whole_setting's answer, without loading the number parser (a hook's usual call)
            return default
        from cortex.core.numbers import whole_setting
        return whole_setting(name, raw, default, 1, high)

    @property
    def adapter(self) -> str | None:
        return self.option("--adapter")

    def requested_memory_root(self) -> str:
        """runtime override → --memory-root → --root/LIFEOS/MEMORY → CORTEX_MEMORY_ROOT → ~/.claude/LIFEOS/MEMORY."""
        root = self.option("--root")
        if root and not self.memory_root_override:
            from cortex.rootshape import refuse_memory_root_as_root

            refuse_memory_root_as_root(os.path.abspath(os.path.expanduser(root)))
        chosen = (
            self.memory_root_override
            or self.option("--memory-root")
            or (os.path.join(os.path.expanduser(root), *MEMORY_PARTS) if root else None)
            or self.environ.get("CORTEX_MEMORY_ROOT")  # empty means unset, not "the cwd"
            or os.path.join(self.environ.get("HOME") or os.path.expanduser("~"), ".claude", *MEMORY_PARTS)
        )
        return os.path.abspath(os.path.expanduser(chosen))

    def now_ms(self) -> int:
        """CORTEX_NOW (for tests and reproducible runs) or the real clock."""
        if "now" not in self._cache:
            raw = self.environ.get("CORTEX_NOW")
            if raw:
                parsed = parse_timestamp_ms(raw)
                if parsed is None:
                    raise InvalidInput(f"CORTEX_NOW is not a valid timestamp: {raw}")
                self._cache["now"] = parsed
            else:
                self._cache["now"] = now_ms()
        return self._cache["now"]

    def corpus(self):
        """The corpus parsed from the canonical files alone (rebuild --from-canonical, benchmark): never the cache."""
        if "corpus" not in self._cache:
            from cortex.core.corpus import enumerate_canonical_corpus

            self._cache["corpus"] = self.loaded(enumerate_canonical_corpus)
        return self._cache["corpus"]

    def caching(self) -> bool:
        """Whether this call may use the search cache (CORTEX_CACHE, CORTEX_CACHE_DIR: cortex.core.cachedir)."""
        from cortex.core.cachedir import cache_base

        return cache_base(self.environ) is not None

    def read_corpus(self, *, index: bool):
        """The corpus for answering reads, through the search cache when there is one (cortex.searchcache).
        `index`: the caller ranks or needs content. Same records, same errors as corpus()."""
        if not self.caching():  # no cache for this call: the loader would pin, walk and parse as corpus() does
            return self.corpus()  # (one walk instead of two; sqlite and the cache modules not loaded)
        key = ("read_corpus", index)  # a corpus loaded without the index cannot rank or give content
        if key not in self._cache:
            from cortex.searchcache.loader import load_corpus

            self._cache[key] = self.loaded(
                lambda root: load_corpus(root, self.environ, self._stamp, index=index, notes=self.notices,
                                         builds=self.builds))
        return self._cache[key]

    def _stamp(self) -> int:
        """When the cache was written: the injected time when it is valid, else the clock (never a failure)."""
        try:
            return self.now_ms()
        except InvalidInput:
            return now_ms()

    def release(self) -> None:
        """Close what the call opened (the search cache stores what it read afresh)."""
        for index in (False, True):
            corpus = self._cache.pop(("read_corpus", index), None)
            if corpus is not None:
                corpus.close()

    def loaded(self, load):
        """`load(root)` for the requested root, with the read commands' mapping of its errors."""
        root = self.requested_memory_root()
        try:
            return load(root)
        except PermissionError as error:
            # Not a bug in cortex: a canonical file or folder the user cannot read (exit 4, named).
            raise IntegrityError(f"Canonical path is not readable: {error.filename} ({error.strerror})") from None
        except IntegrityError as error:
            from cortex.rootshape import explained

            raise explained(error, root) from None


def _valid_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def command_key(args: list[str], names: Container[str]) -> str | None:
    """The command among `names` that `args` start with ("hot render" wins over "hot"), or None."""
    if len(args) >= 2 and f"{args[0]} {args[1]}" in names:
        return f"{args[0]} {args[1]}"
    return args[0] if args and args[0] in names else None


def find_command(args: list[str], commands: Mapping[str, CommandSpec]) -> tuple[CommandSpec | None, int]:
    """The spec `args` name and how many words named it (1 when none does)."""
    key = command_key(args, commands)
    return (None, 1) if key is None else (commands[key], key.count(" ") + 1)


def _unknown_command(args: list[str], known: Iterable[str]) -> InvalidInput:
    if args and args[0] in GROUPS:
        return InvalidInput(f"{args[0]} requires one of: {', '.join(GROUPS[args[0]])} (see `cortex {args[0]} --help`)")
    # The reference's own message, kept word for word (scripts match on it), then the closest command;
    # `cortex --help` lists them all.
    from cortex.core.spelling import did_you_mean  # a hint only for a bad command line

    word = args[0] if args else ""
    hint = did_you_mean(word, sorted(known)) if word and not word.startswith("-") else ""
    return InvalidInput(f"Unknown command: {word or '(missing)'}{hint}")


def options_first(args: list[str]) -> list[str]:
    """`cortex --root X status ...` as `cortex status ... --root X`: the root options may precede the command.

    Only well-formed leading `--root`, `--memory-root` and `--adapter` (with a value, or `=value`) move;
    when no command follows them, nothing does (a bare `cortex --root X` is a missing command).
    """
    moved: list[str] = []
    rest = list(args)
    while rest and rest[0].partition("=")[0] in COMMON_OPTIONS:
        width = 1 if "=" in rest[0] else 2
        if len(rest) < width or (width == 2 and rest[1].startswith("--")):
            break
        moved, rest = moved + rest[:width], rest[width:]
    if not moved:
        return list(args)
    return rest + moved if rest else []


def parse_arguments(args: list[str], commands: Mapping[str, CommandSpec],
                    known: Iterable[str] = ()) -> tuple[CommandSpec, dict, list[str]]:
    """`known`: every command word, for the did-you-mean of an unknown command."""
    spec, i = find_command(args, commands)
    if spec is None:
        raise _unknown_command(args, known)
    command = spec.name
    options: dict[str, str | bool] = {}
    positionals: list[str] = []
    while i < len(args):
        arg = args[i]
        if not _valid_utf8(arg):
            raise InvalidInput(f"Argument {i} is not valid UTF-8")
        if not arg.startswith("--"):
            positionals.append(arg)
            i += 1
            continue
        arg, joined, inline = arg.partition("=")  # --opt=value is --opt value
        if arg not in spec.allowed:
            from cortex.core.spelling import did_you_mean

            raise InvalidInput(f"Unknown option for {command}: {arg}{did_you_mean(arg, sorted(spec.allowed), 0.75)}")
        if arg in options:
            raise InvalidInput(f"Duplicate option: {arg}")
        if arg in spec.flag_options:
            if joined:
                raise InvalidInput(f"{arg} is a flag and takes no value")
            options[arg] = True
        else:
            value = inline if joined else (args[i + 1] if i + 1 < len(args) else None)
            if not value or (not joined and value.startswith("--")):
                raise InvalidInput(f"Missing value for {arg}")
            if not _valid_utf8(value):
                raise InvalidInput(f"Value of {arg} is not valid UTF-8")
            options[arg] = value
            i += 0 if joined else 1
        i += 1
    if "--root" in options and "--memory-root" in options:
        raise InvalidInput("pass either --root DIR (the .claude folder) or --memory-root DIR/LIFEOS/MEMORY, not both")
    adapter = options.get("--adapter")
    if adapter is not None and adapter not in ADAPTERS:
        raise InvalidInput(f"--adapter must be one of: {', '.join(ADAPTERS)}")
    return spec, options, positionals


def help_request(args: list[str]) -> list[str] | None:
    """The words a help request is about ([] for the overview), or None when `args` ask for no help
    (here, not in cortex.helptext: a command that is not a help request never imports the help text).

    `cortex --help|-h`, `cortex help [COMMAND]` and `cortex COMMAND ... --help`. A bare `-h`
    after a command is not help: `cortex search -h` searches for "h", as the reference does.
    """
    if not args:
        return None
    if args[0] in ("--help", "-h"):
        return []
    if args[0] == "help":
        return args[1:]
    if "--help" in args:
        return [word for word in args[: args.index("--help")] if not word.startswith("-")][:2]
    return None
