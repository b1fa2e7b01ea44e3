# SPDX-License-Identifier: MIT
"""Finding, loading and checking the grip shared library; one :class:`Library` per file."""

import ctypes
import os
import sys
import threading

from . import _structs, checks
from ._signatures import PENDING, SIGNATURES, STATUS
from .errors import GripError, LibraryError, error_for_status

_LOCK = threading.Lock()
_LOADED = {}


def library_file_name():
    """File name of the grip library on this platform."""
    if sys.platform == "win32":
        return "grip.dll"
    if sys.platform == "darwin":
        return "libgrip.dylib"
    return "libgrip.so"


def find_library(path=None):
    """Path of the library to load: ``path`` (a file, or a folder holding it), else the
    ``GRIP_LIBRARY`` environment variable, else the file inside or next to this package.
    ``path`` is a str or ``os.PathLike`` (TypeError otherwise)."""
    name = library_file_name()
    path = checks.path(path, "path", optional=True)
    if path is None:
        path = os.environ.get("GRIP_LIBRARY") or None
    if path is not None:
        if os.path.isdir(path):
            path = os.path.join(path, name)
        if not os.path.isfile(path):
            raise LibraryError(f"grip library not found: {path}")
        return os.path.abspath(path)
    package_dir = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(package_dir, name), os.path.join(os.path.dirname(package_dir), name)]
    for candidate in candidates:
        if os.path.isfile(candidate):
            return candidate
    raise LibraryError(
        f"grip library not found: pass its path, set GRIP_LIBRARY, or put {name} in or next to "
        f"{package_dir} (looked at {', '.join(candidates)})"
    )


def load(path=None):
    """The :class:`Library` at :func:`find_library` ``(path)``, loaded and checked once per file."""
    path = checks.path(path, "path", optional=True)
    resolved = os.path.realpath(find_library(path))
    with _LOCK:
        lib = _LOADED.get(resolved)
        if lib is None:
            lib = Library(resolved)
            _LOADED[resolved] = lib
        return lib


def _resolve(library, name="library"):
    """``library`` if it is a :class:`Library`, else :func:`load` of it as a path (None: the
    default); a parameter of another type raises TypeError naming ``name``."""
    if isinstance(library, Library):
        return library
    return load(checks.path(library, name, optional=True))


class Library:
    """A loaded grip library whose ABI version and struct sizes match this binding. Every C
    function is declared once (``argtypes``/``restype``); the ones returning ``GripStatus`` raise
    :class:`GripError` carrying ``grip_last_error()`` on failure. Use :func:`load` rather than
    constructing this directly, so each file is loaded once."""

    def __init__(self, path):
        self.path = checks.path(path, "path")
        try:
            self._dll = ctypes.CDLL(self.path)
        except OSError as e:
            raise LibraryError(f"cannot load the grip library {self.path}: {e}") from None
        self.abi_version = self._check_abi()
        self._functions = {}
        self._declare()
        self._check_struct_sizes()
        self.version = self.call("grip_version").decode("utf-8", "replace")

    def __repr__(self):
        return f"<grip.Library {self.version} at {self.path}>"

    def _check_abi(self):
        try:
            abi_fn = self._dll.grip_abi_version
        except AttributeError:
            raise LibraryError(f"{self.path} is not a grip library (no grip_abi_version)") from None
        abi_fn.restype = ctypes.c_uint32
        abi_fn.argtypes = []
        abi = abi_fn()
        if abi != _structs.ABI_VERSION:
            raise LibraryError(
                f"{self.path} has ABI version {abi}, but this binding follows version "
                f"{_structs.ABI_VERSION}: use the binding shipped with that library"
            )
        return abi

    def _declare(self):
        missing = []
        for name, (restype, argtypes) in SIGNATURES.items():
            try:
                fn = getattr(self._dll, name)
            except AttributeError:
                if name not in PENDING:
                    missing.append(name)
                continue
            fn.argtypes = argtypes
            if restype is STATUS:
                fn.restype = ctypes.c_uint32
                fn.errcheck = self._status_check(name)
            else:
                fn.restype = restype
            self._functions[name] = fn
        if missing:
            raise LibraryError(f"{self.path} lacks functions this binding needs: {', '.join(missing)}")

    def _status_check(self, name):
        last_error = self._dll.grip_last_error
        last_error.restype = ctypes.c_char_p
        last_error.argtypes = []

        def check(result, _func, _args):
            if result != _structs.STATUS_OK:
                # Read on the calling thread, right after the failed call.
                message = (last_error() or b"").decode("utf-8", "replace")
                raise error_for_status(result, message, name)
            return result

        return check

    def _check_struct_sizes(self):
        wrong = []
        for struct, fn_name in _structs.SIZEOF_FUNCTIONS.items():
            native = self.call(fn_name)
            if native != ctypes.sizeof(struct):
                wrong.append(f"{struct.__name__}: library {native} bytes, binding {ctypes.sizeof(struct)}")
        if wrong:
            # Passing a struct of the wrong size would corrupt memory: refuse the library.
            raise LibraryError(f"{self.path} struct layouts differ from this binding: {'; '.join(wrong)}")

    def has(self, name):
        """True if the library exports the C function ``name`` (a str)."""
        checks.text(name, "name")
        return name in self._functions

    def function(self, name):
        """The declared C function ``name`` (a str); raises GripError if this library lacks it.
        Calling it directly skips the checks of :meth:`call`."""
        checks.text(name, "name")
        try:
            return self._functions[name]
        except KeyError:
            raise GripError(
                f"this grip library ({self.version}) has no {name}; a newer library is needed"
            ) from None

    def call(self, name, *args):
        """Calls the C function ``name`` (status checked when it returns ``GripStatus``) with
        ``args`` as ctypes takes them. An int that a ``uint32_t`` or ``size_t`` argument cannot
        hold, or bytes with a NUL for a string, raise ValueError; an argument ctypes refuses
        raises TypeError; both name the argument's position."""
        fn = self.function(name)
        checks.c_arguments(name, fn.argtypes, args)
        try:
            return fn(*args)
        except ctypes.ArgumentError as e:
            raise TypeError(f"{name} {e}") from None

    def last_error(self):
        """``grip_last_error()`` of the calling thread ("" after a successful call)."""
        return self.call("grip_last_error").decode("utf-8", "replace")

    def solver_params(self, **fields):
        """``grip_solver_params_default()`` with ``fields`` overridden (SI units, see grip.h),
        each checked for its field's C type (:func:`grip.checks.field`)."""
        return _override(self.call("grip_solver_params_default"), fields)

    def material(self, **fields):
        """``grip_material_default()`` with ``fields`` overridden (SI units, see grip.h), each
        checked for its field's C type."""
        return _override(self.call("grip_material_default"), fields)

    def shape(self, **fields):
        """``grip_shape_default()`` with ``fields`` overridden (metres, see grip.h), each checked
        for its field's C type."""
        return _override(self.call("grip_shape_default"), fields)


def _override(struct, fields):
    """Sets fields of a ctypes struct by name, each value checked for its field first
    (:func:`grip.checks.field`: ctypes itself would wrap an out-of-range integer). An unknown
    name raises TypeError (ctypes would silently add a Python attribute) and ``struct_tag`` is
    refused (the library checks it)."""
    known = {name: ctype for name, ctype in struct._fields_}
    for name, value in fields.items():
        if name not in known or name == "struct_tag":
            settable = ", ".join(n for n in known if n != "struct_tag")
            raise TypeError(f"{type(struct).__name__} has no settable field {name!r} (fields: {settable})")
        setattr(struct, name, checks.field(name, known[name], value))
    return struct
