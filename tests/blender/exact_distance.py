"""Exact signed distance from points to a closed triangle mesh, in plain numpy (no bpy), for the
Blender tests' contact checks.

The unsigned distance is the minimum over all triangles of the exact point–triangle distance
(the closest point by Voronoi regions of the triangle: corners, edges, interior; Ericson,
*Real-Time Collision Detection*, 5.1.5). The sign comes from the generalized winding number (the
sum of the triangles' solid angles seen from the point over 4π; Van Oosterom–Strackee): a point
is inside when its winding number is at least ½ in magnitude, which holds whatever way the
triangles are wound and also where a skinned mesh folds over itself (winding 2 is inside). The
mesh must be closed; distances are negative inside.
"""

import numpy as np

#: Point–triangle pairs evaluated at once (bounds the temporaries to a few tens of MB).
PAIRS_PER_CHUNK = 1 << 18


def closest_points_on_triangles(p, a, b, c):
    """The points of triangles (a, b, c) closest to points ``p``; all arrays (..., 3) and
    broadcast against each other. Degenerate triangles are handled (their edges and corners)."""
    ab, ac = b - a, c - a
    ap, bp, cp = p - a, p - b, p - c
    d1, d2 = (ab * ap).sum(-1), (ac * ap).sum(-1)
    d3, d4 = (ab * bp).sum(-1), (ac * bp).sum(-1)
    d5, d6 = (ab * cp).sum(-1), (ac * cp).sum(-1)
    va, vb, vc = d3 * d6 - d5 * d4, d5 * d2 - d1 * d6, d1 * d4 - d3 * d2

    def ratio(num, den):
        safe = np.where(den != 0.0, den, 1.0)
        return np.where(den != 0.0, num / safe, 0.0)

    t_ab = ratio(d1, d1 - d3)
    t_ac = ratio(d2, d2 - d6)
    t_bc = ratio(d4 - d3, (d4 - d3) + (d5 - d6))
    total = va + vb + vc
    v_in, w_in = ratio(vb, total), ratio(vc, total)
    # Voronoi regions in Ericson's order (the first that holds wins): corner a, corner b, edge ab,
    # corner c, edge ac, edge bc, interior. Each gives barycentric (v, w): point = a + v ab + w ac.
    regions = [
        (d1 <= 0) & (d2 <= 0),
        (d3 >= 0) & (d4 <= d3),
        (vc <= 0) & (d1 >= 0) & (d3 <= 0),
        (d6 >= 0) & (d5 <= d6),
        (vb <= 0) & (d2 >= 0) & (d6 <= 0),
        (va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0),
    ]
    zero, one = np.zeros_like(d1), np.ones_like(d1)
    v = np.select(regions, [zero, one, t_ab, zero, zero, 1.0 - t_bc], v_in)
    w = np.select(regions, [zero, zero, zero, one, t_ac, t_bc], w_in)
    return a + v[..., None] * ab + w[..., None] * ac


def winding_numbers(points, positions, triangles):
    """Generalized winding number of each point (n,) with respect to the triangle mesh: ±1 inside
    a closed mesh (+1 when its faces point outward), 0 outside."""
    points = np.asarray(points, dtype=np.float64)
    tri = np.asarray(positions, dtype=np.float64)[np.asarray(triangles)]  # (m, 3, 3)
    out = np.empty(len(points))
    step = max(1, PAIRS_PER_CHUNK // max(1, len(tri)))
    for start in range(0, len(points), step):
        p = points[start:start + step, None, :]
        a, b, c = tri[None, :, 0] - p, tri[None, :, 1] - p, tri[None, :, 2] - p
        la, lb, lc = (np.linalg.norm(x, axis=-1) for x in (a, b, c))
        det = (a * np.cross(b, c)).sum(-1)
        den = la * lb * lc + (a * b).sum(-1) * lc + (a * c).sum(-1) * lb + (b * c).sum(-1) * la
        out[start:start + step] = 2.0 * np.arctan2(det, den).sum(-1) / (4.0 * np.pi)
    return out


def unsigned_distances(points, positions, triangles):
    """(distance of each point to the nearest triangle (n,), index of that triangle (n,))."""
    points = np.asarray(points, dtype=np.float64)
    tri = np.asarray(positions, dtype=np.float64)[np.asarray(triangles)]
    distance = np.empty(len(points))
    nearest = np.empty(len(points), dtype=np.int64)
    step = max(1, PAIRS_PER_CHUNK // max(1, len(tri)))
    for start in range(0, len(points), step):
        p = points[start:start + step, None, :]
        q = closest_points_on_triangles(p, tri[None, :, 0], tri[None, :, 1], tri[None, :, 2])
        d2 = ((p - q) ** 2).sum(-1)
        k = d2.argmin(axis=1)
        nearest[start:start + step] = k
        distance[start:start + step] = np.sqrt(d2[np.arange(len(k)), k])
    return distance, nearest


def signed_distances(points, positions, triangles):
    """Signed distance of each point (n,) to the closed triangle mesh: negative inside."""
    distance, _ = unsigned_distances(points, positions, triangles)
    inside = np.abs(winding_numbers(points, positions, triangles)) >= 0.5
    return np.where(inside, -distance, distance)
