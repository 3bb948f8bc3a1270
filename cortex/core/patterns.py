"""Core: regular expressions compiled on first use and kept; used by the modules every hook imports (privatetags, corpusfiles).

`re` loads with the first pattern compiled (with enum and functools, ~18M instructions): a hook whose text
never needs a pattern never loads it. functools.cache would cost its own import (~3M), and `re.compile`'s
cache, asked again for every candidate tag of a tag-heavy text, costs about twice this dictionary lookup.
"""
from __future__ import annotations

TYPE_CHECKING = False  # annotations only
if TYPE_CHECKING:
    import re

_KEPT: dict = {}  # source (str or bytes, flags inline: `(?ai)`) -> its compiled pattern


def compiled(source: str | bytes) -> re.Pattern:
    found = _KEPT.get(source)
    if found is None:
        import re

        found = _KEPT[source] = re.compile(source)
    return found
