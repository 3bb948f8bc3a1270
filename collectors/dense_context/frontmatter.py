"""Collect stage (Dense Context): an atom's YAML frontmatter → a mapping, or why it is not valid YAML.

Used by collectors.dense_context.tree. PyYAML's safe loader is the judge of validity; the
frontmatter is bounded (MAX_FRONTMATTER_BYTES) before it is parsed. Because a 20,000-atom tree
must audit in under 2 s and PyYAML needs ~75 µs per atom, `simple_mapping` first tries a
deliberately narrow grammar whose meaning is the same in YAML (flat `key: value` lines, plain
scalars that start with a letter, "quoted" strings without escapes, [flow, lists]); anything
outside it goes to PyYAML. A test holds the fast path to PyYAML with generated input.
PyYAML's composed node graph is measured before any value is built or walked: aliases that
expand past MAX_NODES nodes (a few hundred bytes can mean a billion), nesting past MAX_DEPTH
and an alias inside the node it names (a cycle) make the block invalid, with that reason.
"""
from __future__ import annotations

import datetime
import re

MAX_FRONTMATTER_BYTES = 64 * 1024
MAX_NODES = 100_000  # expanded (every alias counted where it is used); 64 KiB without aliases stays far below
MAX_DEPTH = 64
_KEY = r"[A-Za-z_][A-Za-z0-9_-]*"
_W = r"(?:[A-Za-z0-9_.+()/-]|:(?=[^\s:]))"  # ':' only when a non-space, non-colon follows
_PLAIN = rf"[A-Za-z]{_W}*(?: {_W}+)*"  # single spaces between words: one way to match, no backtracking blow-up
_IW = r"[A-Za-z0-9_.+()/-]"
_QUOTED = r'"[^"\\\n]*"'
_ITEM = rf'(?:[A-Za-z]{_IW}*(?: {_IW}+)*|{_QUOTED})'
_DATE = r"\d{4}-\d{2}-\d{2}"
_VALUE = rf"(?:{_PLAIN}|{_QUOTED}|{_DATE}|\[ *(?:{_ITEM} *(?:, *{_ITEM} *)*)?\])"
_BLOCK = re.compile(rf"(?:{_KEY}: +{_VALUE} *\n|\n)*")
_KEY_RE = re.compile(_KEY)
_ITEM_RE = re.compile(_ITEM)
_WORDS = frozenset("y n yes no true false on off null".split())  # YAML 1.1 resolves these to bool/null


def split_frontmatter(text: str) -> tuple[str, int] | str:
    """(the frontmatter block, its first line number) or why the file has none."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return "no frontmatter: the file does not start with a --- line"
    body = text.replace("\r\n", "\n")
    end = body.find("\n---\n", 3)
    if end < 0 and body.endswith("\n---"):
        end = len(body) - 4
    if end < 0:
        return "frontmatter is not closed by a --- line"
    return body[4:end + 1], 2


def _plain(value: str) -> str | None:
    value = value.rstrip()
    return None if value.lower() in _WORDS else value


def simple_mapping(block: str, first_line: int = 1) -> tuple[dict, dict] | None:
    """(mapping, key → file line) when the whole block is in the narrow grammar (its YAML meaning is then
    certain), else None. One regex validates the block; the loop only splits what it accepted."""
    if not _BLOCK.fullmatch(block) or not block.replace("\n", "").isprintable():
        return None
    result: dict = {}
    lines: dict = {}
    for number, line in enumerate(block.split("\n"), first_line):
        if not line:
            continue
        key, _, text = line.partition(": ")
        text = text.strip(" ")
        if key.lower() in _WORDS:
            return None
        head = text[0]
        if head == '"':
            value: object = text[1:-1]
        elif head == "[":
            value = [item.strip(" ") for item in _ITEM_RE.findall(text[1:-1])]
            if any(item[0] != '"' and item.lower() in _WORDS for item in value):
                return None
            value = [item[1:-1] if item[0] == '"' else item for item in value]
        elif head.isdigit():
            try:
                datetime.date.fromisoformat(text)
            except ValueError:
                return None  # YAML reads it as an impossible timestamp: let PyYAML word the error
            value = text
        elif text.lower() in _WORDS:
            return None
        else:
            value = text
        result[key] = value
        lines.setdefault(key, number)
    return result, lines


def _normalise(value: object) -> object:
    """Dates and numbers as text, so both parsers yield the same shapes."""
    if isinstance(value, list):
        return [_normalise(item) for item in value]
    if isinstance(value, (dict, bool)) or value is None:
        return value
    return value if isinstance(value, str) else str(value)


def yaml_mapping(block: str) -> dict | str:
    """PyYAML's safe reading of `block`: a mapping, or why it is not one (with the line, file-relative)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(block)
    try:
        node = loader.get_single_node()
        problem = expansion_problem(node) if node is not None else None
        if problem:
            return problem
        loaded = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        where = f"line {mark.line + 2}: " if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        return f"{where}{problem}"
    except (ValueError, OverflowError, RecursionError) as error:  # e.g. an impossible date
        return f"{type(error).__name__}: {error}"
    finally:
        loader.dispose()
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        return f"frontmatter is a {type(loaded).__name__}, not a mapping"
    return {str(key): _normalise(value) for key, value in loaded.items()}


def _children(node) -> list:
    value = node.value
    if isinstance(value, str):  # a scalar
        return []
    return [part for pair in value for part in pair] if value and isinstance(value[0], tuple) else list(value)


def expansion_problem(root) -> str | None:
    """Why the composed node graph may not be built: too many nodes once aliases are expanded, too deep, or an
    alias inside the node it refers to. One pass over the distinct nodes (iterative, memoised by identity), so
    its cost follows the block's size, never the expansion's."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            kids = _children(node)
            size[key] = 1 + sum(size[id(kid)] for kid in kids)
            depth[key] = 1 + max((depth[id(kid)] for kid in kids), default=0)
            open_nodes.discard(key)
            if size[key] > MAX_NODES:
                return f"aliases expand to more than {MAX_NODES} nodes (an alias bomb)"
            if depth[key] > MAX_DEPTH:
                return f"values nest deeper than {MAX_DEPTH} levels"
        elif key in open_nodes:  # still being measured, so it contains itself
            return f"line {node.start_mark.line + 2}: an alias refers to a node that contains it (a cycle)"
        elif key not in size:
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((kid, False) for kid in _children(node))
    return None


def parse(block: str, first_line: int = 1) -> tuple[dict | str, dict]:
    """(mapping or why it is not valid YAML, key → file line)."""
    fast = simple_mapping(block, first_line)
    return fast if fast is not None else (yaml_mapping(block), key_lines(block, first_line))


def key_lines(block: str, first_line: int) -> dict[str, int]:
    """The file line of each top-level key (the first occurrence), for evidence."""
    found: dict[str, int] = {}
    for number, line in enumerate(block.split("\n"), first_line):
        key, sep, _ = line.partition(":")
        if sep and key not in found and _KEY_RE.fullmatch(key):
            found[key] = number
    return found


def loose_fields(block: str) -> dict[str, str]:
    """What the upstream generator still reads from invalid YAML, key by key (`key: value` lines)."""
    fields: dict[str, str] = {}
    for line in block.split("\n"):
        m = re.match(rf"({_KEY}):\s*(.*)", line)
        if m and m.group(1) not in fields:
            fields[m.group(1)] = m.group(2).strip().strip("\"'")
    return fields
