"""The four style covariates of one response text (METHODOLOGY.md §7).

`response_features(text, normalization_mode)` returns, in COVARIATES order,
``(length_chars, markdown_density, list_count, header_count)`` as floats.

Definitions (a *line* is a maximal run of characters between ``\\n`` separators, or
the start/end of the text; ``\\r`` is an ordinary character):

length_chars
    Number of Unicode code points: ``len(text)``.
header_count
    ATX headers: lines matching ``^ {0,3}#{1,6}([ \\t]|$)`` -- up to three spaces of
    indentation, one to six ``#``, then a space, a tab or the end of the line.
list_count
    List items: lines matching ``^[ \\t]*([-*+]|[0-9]{1,9}[.)])[ \\t]+\\S`` -- optional
    indentation, a bullet (``-``, ``*``, ``+``) or an ordered marker (one to nine ASCII
    digits then ``.`` or ``)``), at least one space or tab, then a character that is
    not whitespace (Unicode whitespace, as ``str.isspace``). A bullet with nothing
    after it is not an item.
markdown_density
    ``markup / max(1, length_chars)`` where ``markup`` is the number of occurrences
    of the seven characters ``# * _ ` > | ~`` anywhere in the text plus one for each
    list item whose marker is ``-``, ``+`` or an ordered marker (an item's ``*``
    marker is already one of the seven characters, so it is not counted twice).

These are syntactic approximations of what a markdown renderer shows, chosen to be
exact, cheap and reproducible; they are not a CommonMark parser (e.g. ``#`` inside
code spans counts, and ``- - -`` counts as a list item rather than a rule).

normalization_mode says what the voter saw:

``"rendered"``
    rendered markdown: all four covariates are computed as above.
``"raw"``
    the plain text: markup had no visual effect, so markdown_density, list_count and
    header_count are 0.0 and only length_chars counts.
"""

from __future__ import annotations

import re

NORMALIZATION_MODES = ("rendered", "raw")

# Both patterns run over "\n" + text, so every line -- the first included -- starts
# right after a literal "\n"; a literal prefix lets the regex engine skip from one
# newline to the next instead of attempting a match at every position.
_LIST_ITEM = re.compile(r"\n[ \t]*([-*+]|[0-9]{1,9}[.)])[ \t]+\S")
_HEADER = re.compile(r"\n {0,3}#{1,6}(?=[ \t\n]|\Z)")
_MARKUP_BYTES = b"#*_`>|~"


def response_features(text: str, normalization_mode: str) -> tuple[float, float, float, float]:
    """(length_chars, markdown_density, list_count, header_count) of one response.

    Raises ValueError for a normalization_mode other than "rendered" or "raw".
    """
    length = len(text)
    if normalization_mode == "raw":
        return (float(length), 0.0, 0.0, 0.0)
    if normalization_mode != "rendered":
        raise ValueError(f"normalization_mode must be one of {NORMALIZATION_MODES}, got {normalization_mode!r}")
    lined = "\n" + text
    markers = _LIST_ITEM.findall(lined)
    items = len(markers)
    headers = len(_HEADER.findall(lined)) if "#" in text else 0
    # The seven markup characters are ASCII, and a UTF-8 multi-byte sequence never
    # contains an ASCII byte, so counting bytes counts characters; one bytes.translate
    # pass is several times faster than seven str.count scans.
    encoded = text.encode("utf-8", "surrogatepass")
    markup = len(encoded) - len(encoded.translate(None, _MARKUP_BYTES))
    if items:
        markup += items - markers.count("*")
    return (float(length), markup / (length if length > 1 else 1), float(items), float(headers))
