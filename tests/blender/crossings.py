"""Edges of one triangle mesh through triangles of another, by exact segment–triangle tests
(Möller–Trumbore) in numpy: an independent check that a collider did not cut a cloth between
its vertices, nor a cloth edge pass through a collider face."""

import numpy as np


def edges(triangles):
    """The unique edges (sorted vertex pairs) of a triangle array (n, 3)."""
    e = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    return np.unique(np.sort(e, axis=1), axis=0)


def segments_through(points, segments, corners, triangles, eps=1e-12):
    """How many (segment, triangle) pairs cross: segments (m, 2) index `points`, triangles
    (n, 3) index `corners`. A crossing is strictly inside both (barycentrics and segment
    parameter away from their ends by 1e-9), so touching at a shared end does not count."""
    p = points[segments[:, 0]][:, None, :]
    d = (points[segments[:, 1]] - points[segments[:, 0]])[:, None, :]
    a, b, c = (corners[triangles[:, k]][None, :, :] for k in range(3))
    e1, e2 = b - a, c - a
    h = np.cross(d, e2)
    det = (e1 * h).sum(-1)
    ok = np.abs(det) > eps
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = p - a
    u = (s * h).sum(-1) * inv
    q = np.cross(s, e1)
    v = (d * q).sum(-1) * inv
    t = (e2 * q).sum(-1) * inv
    tol = 1e-9
    hit = ok & (u > tol) & (v > tol) & (u + v < 1 - tol) & (t > tol) & (t < 1 - tol)
    return int(hit.sum())


def crossings(points_a, triangles_a, points_b, triangles_b):
    """Edges of mesh a through triangles of mesh b plus edges of b through triangles of a: 0
    exactly when no triangle of one cuts a triangle of the other (away from degenerate
    touching)."""
    points_a, points_b = np.asarray(points_a, float), np.asarray(points_b, float)
    triangles_a, triangles_b = np.asarray(triangles_a), np.asarray(triangles_b)
    return (segments_through(points_a, edges(triangles_a), points_b, triangles_b)
            + segments_through(points_b, edges(triangles_b), points_a, triangles_a))
