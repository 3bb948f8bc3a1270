"""Thresholds stage: effective thresholds from defaults < config file < environment < CLI.

Called by the CLI before evaluation. Every effective value carries its source. A value
that is not a finite number > 0 (or names no threshold) is recorded as a problem and the
lower-precedence value stays in force, so no comparison is ever disabled; the evaluator
turns each problem into `cortex-threshold-invalid`. The config file's names and values
cross the privacy boundary when read, so a finding never quotes a private span.
"""
from __future__ import annotations


from cortex.core.closedset import ClosedSet
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.numbers import ascii_decimal, digits_note, is_finite
from cortex.core.strictjson import parse_object
from thresholds.defaults import BY_ALIAS, BY_NAME, THRESHOLDS, ThresholdSpec

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

MAX_CONFIG_BYTES = 1 << 20
# A run with no config file and no threshold set loads neither thresholds.quantities (the units of offered values)
# nor cortex.core.privatejson (the config file's private spans): they load when a value is offered or a file read.


class Source(ClosedSet):
    DEFAULT = "default"
    CONFIG = "config"
    ENV = "env"
    CLI = "cli"


class Threshold:
    """One effective threshold. name, unit: str; value: int | float; source: Source; origin: str | None (its setter)."""

    __slots__ = ("name", "value", "source", "origin", "unit")

    def __init__(self, name, value, source, origin, unit) -> None:
        self.name, self.value, self.source, self.origin, self.unit = name, value, source, origin, unit


class ThresholdProblem:
    """An offered value that was refused. name: str; value: object (as given); source: Source; origin, reason: str."""

    __slots__ = ("name", "value", "source", "origin", "reason")

    def __init__(self, name, value, source, origin, reason) -> None:
        self.name, self.value, self.source, self.origin, self.reason = name, value, source, origin, reason


class EffectiveThresholds:
    """Every threshold in force, with what was refused.

    values: tuple[Threshold, ...]; problems: tuple[ThresholdProblem, ...]; config_problem: str | None (the
    config file could not be used at all); config_path: str | None. `thresholds[name]` is a threshold's
    value (indexing by position is not used).
    """

    __slots__ = ("values", "problems", "config_problem", "config_path")

    def __init__(self, values, problems=(), config_problem=None, config_path=None) -> None:
        self.values, self.problems, self.config_problem = values, problems, config_problem
        self.config_path = config_path

    def __getitem__(self, name: str) -> int | float:
        return self.get(name).value

    def get(self, name: str) -> Threshold:
        return next(item for item in self.values if item.name == name)


def number_from(value: object, unit: str = "count") -> tuple[int | float | None, str | None]:
    """(number, None) for a finite number > 0, else (None, reason). Integral values become ints.

    A string for a `*_ms` or `*_bytes` threshold may carry a unit (`2h`, `256MiB`).
    """
    from thresholds.quantities import HINTS, quantity

    if isinstance(value, str):
        parsed = quantity(value, unit) if unit in HINTS else ascii_decimal(value.strip())
        if parsed is None:
            hint = f" ({HINTS[unit]})" if unit in HINTS else ""
            return None, "not a decimal number" + hint + digits_note(value)
        number: float = parsed
    elif type(value) in (int, float):
        try:
            number = float(value)
        except OverflowError:  # an integer beyond any float, e.g. 1 followed by 400 zeros in the config
            return None, "not finite"
    else:
        return None, "not a number"
    if not is_finite(number):
        return None, "not finite"
    if number <= 0:
        return None, "not greater than 0"
    return (int(number) if number.is_integer() and abs(number) < 2**53 else number), None


def spec_named(name: str) -> ThresholdSpec | None:
    return BY_NAME.get(name) or BY_ALIAS.get(name)


def read_config(path: str) -> tuple[dict, str | None]:
    """The config's threshold mapping, or ({}, why the file cannot be used)."""
    from cortex.core.privatejson import KeyCollision, strip_private_json

    try:
        data = read_bounded(path, MAX_CONFIG_BYTES, follow_symlinks=True)
    except FileNotFoundError:
        return {}, f"config file not found: {path}"
    except (UnsafeFile, OSError) as error:
        return {}, f"config file unreadable: {error}"
    parsed = parse_object(data.strip())
    if isinstance(parsed, str):
        return {}, f"config file is not a JSON object: {parsed}"
    try:
        parsed = strip_private_json(parsed)
    except KeyCollision as error:
        return {}, f"config file is not usable: {error}"
    if set(parsed) != {"thresholds"} or not isinstance(parsed["thresholds"], dict):
        return {}, 'config file must be exactly {"thresholds": {NAME: VALUE, ...}}'
    return parsed["thresholds"], None


def resolve(environ: Mapping[str, str], *, config_path: str | None = None,
            cli: Iterable[tuple[str, str]] = (), layout: str | None = None) -> EffectiveThresholds:
    """`layout` keeps only that layout's thresholds (None: all, for explain and --list-checks)."""
    specs = tuple(spec for spec in THRESHOLDS if layout is None or spec.layout == layout)
    current = {spec.name: Threshold(spec.name, spec.default, Source.DEFAULT, None, spec.unit) for spec in specs}
    problems: list[ThresholdProblem] = []

    def offer(name: str, raw: object, source: Source, origin: str) -> None:
        from thresholds.quantities import HINTS, has_unit

        spec = spec_named(name)
        if spec is None:
            problems.append(ThresholdProblem(name, raw, source, origin, "unknown threshold name"))
            return
        if spec.name not in current:  # another layout's: fine in a shared config file, a mistake on the command line
            if source is Source.CLI:
                problems.append(ThresholdProblem(spec.name, raw, source, origin, f"a {spec.layout} threshold"))
            return
        # A config file is JSON: a quoted "40" is a typo'd type, not a number; "2h" and "256MiB" are fine.
        quoted_number = isinstance(raw, str) and not (spec.unit in HINTS and has_unit(raw))
        number, reason = (None, "not a JSON number") if source is Source.CONFIG and quoted_number \
            else number_from(raw, spec.unit)
        if reason:
            problems.append(ThresholdProblem(spec.name, raw, source, origin, reason))
            return
        current[spec.name] = Threshold(spec.name, number, source, origin, spec.unit)

    config_problem = None
    if config_path is not None:
        overrides, config_problem = read_config(config_path)
        for name, raw in overrides.items():
            offer(name, raw, Source.CONFIG, config_path)
    for spec in specs:
        if spec.env in environ:
            offer(spec.name, environ[spec.env], Source.ENV, spec.env)
    for name, raw in cli:
        offer(name, raw, Source.CLI, "--threshold")
    ordered = tuple(current[spec.name] for spec in specs)
    return EffectiveThresholds(ordered, tuple(problems), config_problem, config_path)
