# SPDX-License-Identifier: MIT
"""Argument checks that run before a value reaches ctypes, which would otherwise convert it
silently (an integer wraps modulo 2^32, a string stops at its first NUL, a complex number loses
its imaginary part).

A value of the wrong type raises ``TypeError``; a value of the right type that the C type cannot
hold (an integer out of range, an unknown enum code, a NUL in a string, an array of the wrong
shape) raises ``ValueError``. Both messages start with the parameter's name. Values the C type
holds but the library refuses (NaN, a negative friction, an unknown object id, a frame past the
end) go through: the library reports them as a :class:`grip.GripError`, so each rule has one
home.
"""

import ctypes
import numbers
import operator
import os

import numpy as np

from . import _structs

U32_MAX = 2**32 - 1
SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1

# dtype kinds numpy converts to float64 without losing anything but precision: signed and
# unsigned integers, floats. Bool ('b') only where a mask is meant; complex, object, strings,
# bytes, datetimes and structured dtypes never.
_REAL_KINDS = "iuf"


def _type_name(value):
    return type(value).__name__


def _scalar(value):
    """A 0-d numpy array as its scalar, so that ``np.array(3)`` counts as the number 3."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    return value


def _int(value, name):
    """``value`` as a Python int: an int or numpy integer, never a bool, float or string."""
    value = _scalar(value)
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got a bool ({value!r})")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {_type_name(value)} ({value!r:.60})") from None


def integer(value, name, high, low=0):
    """``value`` as a Python int in ``low..high``. Python ints and numpy integers pass; bools,
    floats (even integral ones), strings, None and complex numbers raise TypeError."""
    v = _int(value, name)
    if not low <= v <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {v}")
    return v


def object_id(value, name):
    """An object or collider id (``GripObjectId``, uint32): an integer in 0..2^32-1. Whether the
    object exists is the library's check (:class:`grip.UnknownObjectError`)."""
    return integer(value, name, U32_MAX)


def u32(value, name):
    """A ``uint32_t`` count or limit: an integer in 0..2^32-1."""
    return integer(value, name, U32_MAX)


def size(value, name):
    """A ``size_t`` count or index: an integer in 0..SIZE_MAX (2^64-1 on 64-bit platforms)."""
    return integer(value, name, SIZE_MAX)


def constants(prefix):
    """The enum constants of ``_structs`` named ``prefix*`` (tags excluded), name -> value."""
    return {k: v for k, v in vars(_structs).items()
            if k.startswith(prefix) and not k.endswith("_TAG") and isinstance(v, int)}


def enum(value, name, allowed):
    """One of the enum values ``allowed`` (name -> value, e.g. :func:`constants` ``("VOLUME_")``)
    as an int; another integer raises ValueError listing them."""
    v = _int(value, name)
    if v not in allowed.values():
        listed = ", ".join(f"{n} ({c})" for n, c in sorted(allowed.items(), key=lambda kv: kv[1]))
        raise ValueError(f"{name} must be one of {listed}, got {v}")
    return v


def flag(value, name):
    """A 0-or-1 ``uint32_t`` switch: a bool, or the integer 0 or 1."""
    value = _scalar(value)
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    v = _int(value, name)
    if v not in (0, 1):
        raise ValueError(f"{name} must be 0 or 1 (or a bool), got {v}")
    return v


def real(value, name):
    """``value`` as a Python float: an int, float or numpy real scalar (or a Fraction). Bools,
    strings, None and complex numbers raise TypeError. NaN and infinities go through: the
    library refuses them where they are invalid, with its own message."""
    value = _scalar(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {_type_name(value)} ({value!r:.60})")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large for a double: {value!r:.60}") from None


def as_array(values, name, what):
    """``np.asarray(values)``; a ragged or unconvertible input raises ValueError or TypeError
    naming ``name`` and ``what`` the array should hold."""
    try:
        return np.asarray(values)
    except ValueError as e:
        raise ValueError(f"{name}: not a rectangular array of {what} ({e})") from None
    except TypeError as e:
        raise TypeError(f"{name}: not an array of {what} ({e})") from None


def real_array(values, name, allow_bool=False):
    """``values`` (an array or nested sequence of numbers) as a float64 array of any shape,
    without a copy when it already is one. Integer and float dtypes convert; a bool dtype only
    if ``allow_bool``; complex, object, string, bytes, datetime and structured dtypes raise
    TypeError before numpy could drop an imaginary part or parse a string."""
    arr = as_array(values, name, "numbers")
    kinds = _REAL_KINDS + ("b" if allow_bool else "")
    if arr.dtype.kind not in kinds:
        expected = "real numbers or bools" if allow_bool else "real numbers"
        raise TypeError(f"{name} must hold {expected}, got dtype {arr.dtype}")
    return np.asarray(arr, dtype=np.float64)


def text(value, name):
    """A ``str`` without NUL characters, encoded as UTF-8 for a ``const char *``. bytes, None and
    other types raise TypeError; a NUL (where C would end the string early) raises ValueError."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {_type_name(value)} ({value!r:.60})")
    if "\x00" in value:
        raise ValueError(f"{name} must not contain a NUL character: {value!r:.60}")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"{name} is not encodable as UTF-8: {e}") from None


def blob(value, name):
    """Opaque bytes (``bytes``, ``bytearray`` or a contiguous buffer such as a ``memoryview``) as
    a ``bytes`` copy; str, arrays of other item sizes and other types raise TypeError."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, memoryview) and value.itemsize == 1 and value.c_contiguous:
        return value.tobytes()
    raise TypeError(f"{name} must be bytes, bytearray or a byte memoryview, got {_type_name(value)} "
                    f"({value!r:.60})")


def path(value, name, optional=False):
    """A file path: a ``str`` or an ``os.PathLike`` giving one (bytes paths raise TypeError; a
    str holds any file name through surrogate escapes), without NUL characters. None passes
    when ``optional``."""
    if value is None and optional:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str or os.PathLike path, got {_type_name(value)} ({value!r:.60})")
    if "\x00" in value:
        raise ValueError(f"{name} must not contain a NUL character: {value!r:.60}")
    return value


def callback(value, name):
    """A callable, or None."""
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be callable or None, got {_type_name(value)}")
    return value


def instance(value, name, cls, optional=False):
    """``value`` itself if it is a ``cls`` (or None when ``optional``); else TypeError."""
    if (value is None and optional) or isinstance(value, cls):
        return value
    raise TypeError(f"{name} must be a {cls.__name__}{' or None' if optional else ''}, got {_type_name(value)}")


#: ``uint32_t`` struct fields holding one of a family of ``GRIP_*`` constants.
ENUM_FIELDS = {
    "kind": "SHAPE_", "linear_solver": "LINEAR_SOLVER_", "integrator": "INTEGRATOR_",
    "friction_smoothing": "FRICTION_SMOOTHING_", "friction_coupling": "FRICTION_COUPLING_",
    "contact_kernel": "KERNEL_", "collider_mesh_contact": "COLLIDER_MESH_CONTACT_",
    "preconditioner": "PRECONDITIONER_", "membrane_model": "MEMBRANE_", "failure_policy": "FAILURE_POLICY_",
}
#: ``uint32_t`` struct fields that are 0/1 switches.
FLAG_FIELDS = {"inside", "self_contact", "semi_implicit"}


def field(name, ctype, value):
    """``value`` checked for the struct field ``name`` of C type ``ctype``: a double is
    :func:`real`, a double array a sequence of that many reals, a ``uint32_t`` an enum of
    :data:`ENUM_FIELDS`, a flag of :data:`FLAG_FIELDS`, else a :func:`u32`."""
    if issubclass(ctype, ctypes.Array):
        arr = real_array(value, name)
        if arr.shape != (ctype._length_,):
            raise ValueError(f"{name} takes {ctype._length_} numbers, got shape {arr.shape}")
        return ctype(*arr.tolist())
    if ctype is ctypes.c_double:
        return real(value, name)
    if name in ENUM_FIELDS:
        return enum(value, name, constants(ENUM_FIELDS[name]))
    if name in FLAG_FIELDS:
        return flag(value, name)
    return u32(value, name)


_INTEGER_CTYPES = {ctypes.c_uint32: U32_MAX, ctypes.c_size_t: SIZE_MAX}


def c_arguments(function, argtypes, args):
    """Range checks of raw arguments to the C function ``function`` (``Library.call``): an int
    for a ``uint32_t`` or ``size_t`` must fit, and bytes for a ``const char *`` must hold no
    NUL. ctypes checks the types itself; ``Library.call`` turns its ArgumentError into
    TypeError."""
    for i, (arg, ctype) in enumerate(zip(args, argtypes or ()), 1):
        high = _INTEGER_CTYPES.get(ctype)
        if high is not None and isinstance(arg, int) and not 0 <= arg <= high:
            raise ValueError(f"{function} argument {i} must be in 0..{high}, got {arg}")
        if ctype is ctypes.c_char_p and isinstance(arg, bytes) and b"\x00" in arg:
            raise ValueError(f"{function} argument {i} must not contain a NUL byte: {arg!r:.60}")
