# SPDX-License-Identifier: MIT
"""The :class:`TetMesh`: one native ``GripTetMesh`` made by :func:`tetrahedralize`."""

import ctypes

import numpy as np

from . import arrays, checks
from .errors import GripError
from .library import Library, _resolve


class TetMesh:
    """Tetrahedra filling a closed triangle surface, made by :func:`tetrahedralize`. The arrays
    are copied out once (``positions`` (n, 3) [m], ``tets`` (m, 4) uint32, positively oriented,
    ready for :meth:`Solver.add_solid`); ``close()`` or a ``with`` block frees the native mesh.
    The constructor takes the :class:`Library` and the ``ctypes.c_void_p`` handle that
    ``grip_tetrahedralize`` returned, and owns the handle once it returns."""

    def __init__(self, library, handle):
        self.library = checks.instance(library, "library", Library)
        self._handle = None
        checks.instance(handle, "handle", ctypes.c_void_p)
        nv, nt = ctypes.c_size_t(), ctypes.c_size_t()
        library.call("grip_tet_mesh_sizes", handle, ctypes.byref(nv), ctypes.byref(nt))
        self.positions = np.empty((nv.value, 3), dtype=np.float64)
        self.tets = np.empty((nt.value, 4), dtype=np.uint32)
        library.call("grip_tet_mesh_get", handle, arrays.double_ptr(self.positions), nv.value,
                     arrays.u32_ptr(self.tets), nt.value)
        self._handle = handle

    def close(self):
        """Frees the native mesh (the numpy arrays stay valid). Calling it again is fine."""
        handle, self._handle = self._handle, None
        if handle is not None:
            self.library.call("grip_tet_mesh_destroy", handle)

    @property
    def closed(self):
        """True once :meth:`close` ran."""
        return self._handle is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            try:
                self.close()
            except Exception:
                pass


def tetrahedralize(positions, triangles, cell_size, library=None):
    """Tet-meshes the closed, manifold triangle surface (``positions`` (n, 3) [m], ``triangles``
    (m, 3), outward-facing) with tets of about ``cell_size`` metres (a real number). Returns a
    :class:`TetMesh`; an open or non-manifold surface raises :class:`InvalidMeshError`."""
    x = arrays.vectors(positions, "positions")
    t = arrays.indices(triangles, "triangles", 3)
    cell_size = checks.real(cell_size, "cell_size")
    lib = _resolve(library)
    handle = ctypes.c_void_p()
    lib.call("grip_tetrahedralize", arrays.double_ptr(x), len(x), arrays.u32_ptr(t), len(t),
             cell_size, ctypes.byref(handle))
    if not handle.value:
        raise GripError("grip_tetrahedralize returned no mesh", function="grip_tetrahedralize")
    try:
        return TetMesh(lib, handle)
    except BaseException:
        lib.call("grip_tet_mesh_destroy", handle)
        raise
