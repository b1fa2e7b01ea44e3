# SPDX-License-Identifier: MIT
"""Exceptions raised by the binding: one class per ``GripStatus``, all subclasses of GripError.

Arguments are checked in Python before any C call (:mod:`grip.checks`) and refused with the
built-in exceptions, whose message starts with the parameter's name: ``TypeError`` for a value of
the wrong type (a float, bool or str for an integer; bytes or None for a str; a complex, object,
string or bool array for real numbers), ``ValueError`` for one the C type cannot hold (an integer
outside ``uint32_t`` or ``size_t``, an unknown enum code, a NUL in a string, a wrong shape). A
value the C type holds but the library refuses raises the GripError of its status."""

from . import _structs as s


class GripError(RuntimeError):
    """A grip call failed. ``status`` is the ``GripStatus`` number (``None`` for errors found by
    the binding itself), ``function`` the C function, ``message`` the library's
    ``grip_last_error()`` text."""

    def __init__(self, message, status=None, function=None):
        self.message = message
        self.status = status
        self.function = function
        prefix = f"{function}: " if function else ""
        super().__init__(prefix + message)


class NullPointerError(GripError):
    """``GRIP_STATUS_NULL_POINTER``."""


class InvalidArgumentError(GripError):
    """``GRIP_STATUS_INVALID_ARGUMENT``: a value, count, size, enum or float was out of range."""


class InvalidMeshError(GripError):
    """``GRIP_STATUS_INVALID_MESH``: bad indices, degenerate, inverted or duplicate elements."""


class UnknownObjectError(GripError):
    """``GRIP_STATUS_UNKNOWN_OBJECT``: no object with that id in this solver."""


class NotConvergedError(GripError):
    """``GRIP_STATUS_NOT_CONVERGED``: Newton failed; the solver is as it was before the call."""


class CancelledError(GripError):
    """``GRIP_STATUS_CANCELLED``: the progress callback cancelled; the solver is unchanged."""


class InternalError(GripError):
    """``GRIP_STATUS_PANIC``: an internal error was caught at the C boundary."""


class LibraryError(GripError):
    """The library could not be found or loaded, or does not match this binding."""


_BY_STATUS = {
    s.STATUS_NULL_POINTER: NullPointerError,
    s.STATUS_INVALID_ARGUMENT: InvalidArgumentError,
    s.STATUS_INVALID_MESH: InvalidMeshError,
    s.STATUS_UNKNOWN_OBJECT: UnknownObjectError,
    s.STATUS_NOT_CONVERGED: NotConvergedError,
    s.STATUS_CANCELLED: CancelledError,
    s.STATUS_PANIC: InternalError,
}


def error_for_status(status, message, function):
    """The exception for a non-OK ``status`` (a plain GripError for numbers this binding does not
    know, e.g. from a newer library)."""
    cls = _BY_STATUS.get(status, GripError)
    return cls(message or f"status {status}", status=status, function=function)
