# SPDX-License-Identifier: GPL-3.0-or-later
"""Embedding a soft body's surface vertices in its tet mesh (barycentric coordinates in one tet
each), so the baked cache holds the positions of the object's own vertices. No bpy here."""

import numpy as np

_CHUNK_ENTRIES = 2_000_000  # distance-matrix entries per chunk (keeps memory ~50 MB)


def nearest_vertices(points, vertices):
    """Index of the nearest row of ``vertices`` for each row of ``points`` (brute force, chunked)."""
    out = np.empty(len(points), dtype=np.int64)
    rows = max(1, _CHUNK_ENTRIES // max(1, len(vertices)))
    for s in range(0, len(points), rows):
        d2 = ((points[s:s + rows, None, :] - vertices[None, :, :]) ** 2).sum(axis=2)
        out[s:s + rows] = d2.argmin(axis=1)
    return out


def barycentric(points, corners):
    """Barycentric coordinates (k, 4) of ``points`` (k, 3) in tets ``corners`` (k, 4, 3):
    x = Σ w_i c_i with Σ w_i = 1. Degenerate tets give NaN."""
    edges = (corners[:, 1:, :] - corners[:, :1, :]).transpose(0, 2, 1)  # columns b-a, c-a, d-a
    rhs = (points - corners[:, 0, :])[:, :, None]
    with np.errstate(all="ignore"):
        try:
            lam = np.linalg.solve(edges, rhs)[:, :, 0]
        except np.linalg.LinAlgError:
            lam = np.full((len(points), 3), np.nan)
    return np.concatenate([1.0 - lam.sum(axis=1, keepdims=True), lam], axis=1)


class Embedding:
    """Each point's tet and barycentric weights. A point inside the mesh is reproduced exactly
    at rest; a point slightly outside (the tet mesh approximates the surface) follows the
    nearest tet affinely. ``nearest`` is the nearest tet vertex of each point."""

    def __init__(self, tet_positions, tets, points):
        p = np.asarray(tet_positions, dtype=np.float64)
        t = np.asarray(tets, dtype=np.int64)
        q = np.asarray(points, dtype=np.float64)
        self.tets = t
        self.nearest = nearest_vertices(q, p)
        self.tet_index = np.empty(len(q), dtype=np.int64)
        self.weights = np.empty((len(q), 4))
        # Tets incident to each vertex (CSR from a stable sort of the flattened tets).
        flat = t.ravel()
        order = np.argsort(flat, kind="stable")
        starts = np.searchsorted(flat[order], np.arange(len(p) + 1))
        for i, v in enumerate(self.nearest):
            candidates = order[starts[v]:starts[v + 1]] // 4
            tet, w = self._best(q[i], p, candidates)
            if w.min() < -1e-6:
                # Not inside any tet at its nearest vertex: search every tet.
                tet, w = self._best(q[i], p, np.arange(len(t)))
            self.tet_index[i], self.weights[i] = tet, w

    def _best(self, point, p, candidates):
        w = barycentric(np.repeat(point[None], len(candidates), axis=0), p[self.tets[candidates]])
        score = np.nan_to_num(w.min(axis=1), nan=-np.inf)
        k = int(np.argmax(score))
        return int(candidates[k]), w[k]

    def apply(self, tet_positions):
        """The embedded points for tet vertex positions ``tet_positions`` (n, 3)."""
        corners = np.asarray(tet_positions)[self.tets[self.tet_index]]  # (k, 4, 3)
        return np.einsum("kc,kcx->kx", self.weights, corners)
