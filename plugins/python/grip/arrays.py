# SPDX-License-Identifier: MIT
"""numpy arrays at the C boundary: checked shapes and dtypes, pointers without copies.

An input that already is C-contiguous float64 (positions) or uint32 (indices) is passed to the
library as is; anything else is converted once, after its dtype is checked (real numbers for
positions and values, integers for indices: see :mod:`grip.checks`). Outputs are written into
the caller's array."""

import ctypes

import numpy as np

from . import checks

_DOUBLE_P = ctypes.POINTER(ctypes.c_double)
_U32_P = ctypes.POINTER(ctypes.c_uint32)


def vectors(values, name, components=3):
    """``values`` (real numbers) as a C-contiguous float64 array of shape (n, components); a flat
    array of n × components values is viewed in that shape."""
    arr = checks.real_array(values, name)
    if arr.ndim == 1 and components > 0:
        if arr.size % components:
            raise ValueError(f"{name}: {arr.size} values is not a multiple of {components}")
        arr = arr.reshape(-1, components)
    if arr.ndim != 2 or arr.shape[1] != components:
        raise ValueError(f"{name}: expected shape (n, {components}), got {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty")
    return np.ascontiguousarray(arr)


def scalars(values, name, allow_bool=False):
    """``values`` (real numbers, or bools if ``allow_bool``) as a C-contiguous float64 array of
    shape (n,)."""
    arr = np.ascontiguousarray(checks.real_array(values, name, allow_bool))
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name}: expected a non-empty 1-D array, got shape {arr.shape}")
    return arr


def indices(values, name, per_element):
    """``values`` as a C-contiguous uint32 array of shape (m, per_element). Integers of another
    dtype are range-checked before conversion (a negative index must not wrap around); bool,
    float (even integral), complex, object and string dtypes raise TypeError."""
    arr = checks.as_array(values, name, "indices")
    if arr.dtype != np.uint32:
        if arr.size and arr.dtype.kind not in "iu":
            raise TypeError(f"{name}: indices must be integers, got dtype {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() > np.iinfo(np.uint32).max):
            raise ValueError(f"{name}: indices must be in 0..2^32-1")
        arr = arr.astype(np.uint32)
    if arr.ndim == 1:
        if arr.size % per_element:
            raise ValueError(f"{name}: {arr.size} indices is not a multiple of {per_element}")
        arr = arr.reshape(-1, per_element)
    if arr.ndim != 2 or arr.shape[1] != per_element or arr.shape[0] == 0:
        raise ValueError(f"{name}: expected shape (m, {per_element}) with m > 0, got {arr.shape}")
    return np.ascontiguousarray(arr)


def matrix(values, name, rows, columns):
    """``values`` (real numbers) as a float64 array of shape (rows, columns)."""
    arr = checks.real_array(values, name)
    if arr.shape != (rows, columns):
        raise ValueError(f"{name}: expected shape ({rows}, {columns}), got {arr.shape}")
    return arr


def output(out, rows, components, name, dtype=np.float64):
    """A writable C-contiguous array of shape (rows, components) for the library to fill:
    ``out`` itself (which must already be one) or a new array."""
    if out is None:
        return np.empty((rows, components), dtype=dtype)
    if not isinstance(out, np.ndarray) or out.dtype != dtype:
        raise TypeError(f"out must be a numpy {np.dtype(dtype).name} array for the {name}, got "
                        f"{getattr(out, 'dtype', type(out).__name__)}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"out must be C-contiguous and writable for the {name}")
    if out.size != rows * components:
        raise ValueError(f"out has {out.size} values, expected {rows} x {components} {name}")
    return out


def double_ptr(arr):
    """Pointer to the first element of a float64 array (no copy)."""
    return arr.ctypes.data_as(_DOUBLE_P)


def u32_ptr(arr):
    """Pointer to the first element of a uint32 array (no copy)."""
    return arr.ctypes.data_as(_U32_P)
