# SPDX-License-Identifier: MIT
"""Scene overrides as text: ``KEY=VALUE`` strings, the form ``grip run --set`` and
:func:`grip.bake` take, and the wedge form ``KEY=V1,V2,...`` that lists several values.

KEY is a dotted path into the scene TOML (``solver.default_friction``, ``object.cloth.density``,
``collider.1.mu``). VALUE is a TOML value (``0.4``, ``true``, ``[0, 0, -9.81]``, ``"lagged"``);
other text (``lagged``) is a string, as grip reads it, except text that opens an array, table
or string without closing it (``[0, 0``), refused here as the typo it is. Values are kept as the
text the user wrote, so a job passes grip exactly what the same ``grip run --set`` would, and
``jobs.csv`` shows it. Values given as Python objects are turned into TOML text by
:func:`value_text` (floats by ``repr``, which round-trips them exactly)."""

import tomllib

from ..bake import _toml_value

#: Characters that open a TOML array, inline table or string.
_OPENERS = "[{\"'"


def check_key(key):
    """``key`` stripped, if it is a dotted scene key; ValueError naming it otherwise."""
    if not isinstance(key, str):
        raise TypeError(f"override key must be a str, not {type(key).__name__}")
    parts = [p.strip() for p in key.split(".")]
    if any(not p or "=" in p or "," in p for p in parts):
        raise ValueError(f"override key {key!r} is not a dotted scene key such as solver.default_friction")
    return ".".join(parts)


def check_value_text(text, key="value"):
    """``text`` stripped, if it is a value: a TOML value, or text that does not start like one.
    ValueError naming ``key`` for an empty value or an unclosed array, table or string."""
    text = text.strip()
    if not text:
        raise ValueError(f"{key}: empty value")
    try:
        tomllib.loads(f"v = {text}")
    except tomllib.TOMLDecodeError:
        if text[0] in _OPENERS:
            raise ValueError(f"{key}: {text!r} is not a TOML value (unclosed or malformed)") from None
    return text


def value_text(value):
    """The TOML text of a Python value: bool, integer, real (``repr``, which round-trips; inf and
    nan as TOML spells them), str (a quoted TOML string), or a list/tuple of these, as
    :func:`grip.bake` writes overrides given as a mapping. A str that is already TOML text is not
    parsed again: pass ``"lagged"`` as the str ``lagged``, not ``'"lagged"'``."""
    return _toml_value(value, "value")


def split_values(text):
    """The comma-separated values of a wedge list, split only at commas outside brackets and
    quotes: ``0.1,0.3`` -> ``["0.1", "0.3"]``, ``[0,0,-9.81],[0,0,-1.62]`` -> two arrays."""
    values, depth, quote, start, i = [], 0, None, 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == "," and depth == 0:
            values.append(text[start:i])
            start = i + 1
        i += 1
    values.append(text[start:])
    return values


def parse_assignment(text):
    """``(key, value_text)`` of one ``KEY=VALUE`` string (both checked)."""
    key, values = parse_wedge_assignment(text)
    if len(values) != 1:
        raise ValueError(f"{text!r}: one value expected, got {len(values)}")
    return key, values[0]


def parse_wedge_assignment(text):
    """``(key, [value_text, ...])`` of ``KEY=V1,V2,...`` (each value checked; at least one)."""
    if not isinstance(text, str):
        raise TypeError(f"override must be a 'KEY=VALUE' str, not {type(text).__name__}")
    key, sep, rest = text.partition("=")
    if not sep:
        raise ValueError(f"override {text!r} is not KEY=VALUE")
    key = check_key(key)
    return key, [check_value_text(v, key) for v in split_values(rest)]


def normalise(overrides):
    """Overrides as a tuple of ``(key, value_text)`` pairs in order, from None, a mapping
    ``{key: python value}`` or a sequence of ``"KEY=VALUE"`` strings. A key given twice is
    refused (ValueError), since one of the two values would be silently lost."""
    if overrides is None:
        return ()
    if isinstance(overrides, str):
        raise TypeError("overrides must be a mapping or a sequence of 'KEY=VALUE' strings, not a str")
    if hasattr(overrides, "items"):
        pairs = [(check_key(k), check_value_text(value_text(v), k)) for k, v in overrides.items()]
    else:
        pairs = [p if isinstance(p, tuple) else parse_assignment(p) for p in overrides]
        pairs = [(check_key(k), check_value_text(v, k)) for k, v in pairs]
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"override key {key!r} given twice")
        seen.add(key)
    return tuple(pairs)


def assignments(pairs):
    """``["KEY=VALUE", ...]`` of ``(key, value_text)`` pairs: what ``grip run --set`` and
    :func:`grip.bake` take."""
    return [f"{k}={v}" for k, v in pairs]
