//! Topological checks of a triangle surface that should bound a solid: indices in range, no
//! degenerate or duplicate triangle, every edge shared by exactly two triangles that traverse it
//! in opposite directions (closed, edge-manifold, consistently oriented), and one fan of
//! triangles around every vertex (vertex-manifold). Each refusal names the offending element.

use crate::error::{Error, Result};
use crate::mesh::predicates::projection_axis;
use std::collections::HashMap;

/// A checked surface: each triangle's neighbours and connected component.
pub(super) struct Surface {
    /// The triangles (orientation as given until `orientation::orient_solid` flips them).
    pub triangles: Vec<[u32; 3]>,
    /// `neighbours[t][k]`: the triangle across edge (t[k], t[k+1]).
    pub neighbours: Vec<[u32; 3]>,
    /// Connected component of each triangle, numbered in order of their first triangle.
    pub component: Vec<u32>,
    /// Number of connected components.
    pub component_count: usize,
}

/// Refuses empty input, indices out of range and triangles that repeat a vertex.
pub(super) fn check_indices(vertex_count: usize, triangles: &[[u32; 3]]) -> Result<()> {
    if triangles.is_empty() {
        return Err(Error::mesh("the surface has no triangles"));
    }
    for (t, tri) in triangles.iter().enumerate() {
        if let Some(&v) = tri.iter().find(|&&v| v as usize >= vertex_count) {
            return Err(Error::mesh(format!(
                "triangle {t} refers to vertex {v}, but there are {vertex_count} vertices"
            )));
        }
        if tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] {
            return Err(Error::mesh(format!("triangle {t} repeats a vertex: {tri:?}")));
        }
    }
    Ok(())
}

/// Checks that `triangles` (indices already checked) form a closed, manifold, consistently
/// oriented surface without degenerate or duplicate triangles, and returns its adjacency.
pub(super) fn check_topology(positions: &[[f64; 3]], triangles: &[[u32; 3]]) -> Result<Surface> {
    for (t, tri) in triangles.iter().enumerate() {
        let [a, b, c] = tri.map(|v| positions[v as usize]);
        if projection_axis(a, b, c).is_none() {
            return Err(Error::mesh(format!("triangle {t} {tri:?} has zero area (its vertices are collinear)")));
        }
    }
    let mut seen: HashMap<[u32; 3], usize> = HashMap::with_capacity(triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        let mut key = *tri;
        key.sort_unstable();
        if let Some(first) = seen.insert(key, t) {
            return Err(Error::mesh(format!("triangle {t} duplicates triangle {first} {:?}", triangles[first])));
        }
    }
    // Triangles along each undirected edge, in triangle order.
    let mut uses: HashMap<(u32, u32), Vec<u32>> = HashMap::with_capacity(3 * triangles.len() / 2);
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            uses.entry((a.min(b), a.max(b))).or_default().push(t as u32);
        }
    }
    let mut neighbours = vec![[0u32; 3]; triangles.len()];
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            let list = &uses[&(a.min(b), a.max(b))];
            let other = match list.as_slice() {
                [_] => {
                    return Err(Error::mesh(format!(
                        "the surface is not closed: edge ({a}, {b}) of triangle {t} belongs to no other triangle"
                    )))
                }
                [x, y] => {
                    if *x as usize == t {
                        *y
                    } else {
                        *x
                    }
                }
                many => {
                    let shown: Vec<String> = many.iter().take(6).map(|x| x.to_string()).collect();
                    return Err(Error::mesh(format!(
                        "the surface is not manifold: edge ({a}, {b}) is shared by {} triangles ({}{})",
                        many.len(),
                        shown.join(", "),
                        if many.len() > 6 { ", …" } else { "" }
                    )));
                }
            };
            let o = triangles[other as usize];
            if (0..3).any(|m| o[m] == a && o[(m + 1) % 3] == b) {
                return Err(Error::mesh(format!(
                    "the surface is not consistently oriented: triangles {t} and {other} both run along edge \
                     {a} → {b} (one of them must be flipped)"
                )));
            }
            neighbours[t][k] = other;
        }
    }
    check_vertex_fans(triangles, &neighbours)?;
    let (component, component_count) = components(&neighbours);
    Ok(Surface { triangles: triangles.to_vec(), neighbours, component, component_count })
}

/// Refuses a vertex whose triangles form more than one fan (two sheets touching at a point).
/// Walks around each vertex from corner to corner across the edges leaving it.
fn check_vertex_fans(triangles: &[[u32; 3]], neighbours: &[[u32; 3]]) -> Result<()> {
    let mut visited = vec![false; 3 * triangles.len()];
    let mut fans: HashMap<u32, u32> = HashMap::new();
    for start in 0..visited.len() {
        if visited[start] {
            continue;
        }
        let v = triangles[start / 3][start % 3];
        *fans.entry(v).or_default() += 1;
        let mut corner = start;
        for _ in 0..visited.len() {
            visited[corner] = true;
            // Across edge (v, next) to the neighbour, then to v's corner there.
            let next = neighbours[corner / 3][corner % 3] as usize;
            let Some(k) = triangles[next].iter().position(|&x| x == v) else { break };
            corner = 3 * next + k;
            if corner == start {
                break;
            }
        }
    }
    if let Some((&v, &n)) = fans.iter().filter(|(_, &n)| n > 1).min_by_key(|(&v, _)| v) {
        return Err(Error::mesh(format!(
            "the surface is not manifold at vertex {v}: its triangles form {n} separate fans (the surface touches itself there)"
        )));
    }
    Ok(())
}

/// Connected components over shared edges, numbered in order of their lowest triangle.
fn components(neighbours: &[[u32; 3]]) -> (Vec<u32>, usize) {
    let mut component = vec![u32::MAX; neighbours.len()];
    let mut count = 0;
    for seed in 0..neighbours.len() {
        if component[seed] != u32::MAX {
            continue;
        }
        component[seed] = count;
        let mut stack = vec![seed];
        while let Some(t) = stack.pop() {
            for &n in &neighbours[t] {
                if component[n as usize] == u32::MAX {
                    component[n as usize] = count;
                    stack.push(n as usize);
                }
            }
        }
        count += 1;
    }
    (component, count as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tetrahedron() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
        let p = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        (p, vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
    }

    fn message(r: Result<Surface>) -> String {
        r.err().expect("must fail").message().to_string()
    }

    #[test]
    fn a_closed_tetrahedron_passes_and_broken_ones_are_named() {
        let (p, t) = tetrahedron();
        let s = check_topology(&p, &t).unwrap();
        assert_eq!(s.component_count, 1);
        assert_eq!(s.neighbours[0][0], 2); // across edge (0, 2)
        assert!(message(check_topology(&p, &t[..3])).contains("not closed"));
        let mut flipped = t.clone();
        flipped[3] = [1, 3, 2];
        assert!(message(check_topology(&p, &flipped)).contains("consistently oriented"));
        let mut dup = t.clone();
        dup.push([2, 1, 0]);
        assert!(message(check_topology(&p, &dup)).contains("duplicates triangle 0"));
        let flat = vec![[0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
        assert!(message(check_topology(&flat, &t)).contains("zero area"));
        assert!(check_indices(4, &[[0, 1, 4]]).unwrap_err().message().contains("vertex 4"));
        assert!(check_indices(4, &[[0, 1, 1]]).unwrap_err().message().contains("repeats"));
    }

    #[test]
    fn two_tetrahedra_sharing_a_vertex_or_an_edge_are_refused() {
        let (mut p, t) = tetrahedron();
        p.extend([[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]]);
        // Mirror image through vertex 0, sharing only vertex 0.
        let mut two = t.clone();
        two.extend([[0, 5, 4], [0, 6, 5], [0, 4, 6], [4, 5, 6]]);
        assert!(message(check_topology(&p, &two)).contains("vertex 0"));
        // Sharing edge (0, 1): that edge then has four triangles.
        let mut three = t.clone();
        three.extend([[0, 1, 5], [0, 6, 1], [0, 5, 6], [1, 6, 5]]);
        assert!(message(check_topology(&p, &three)).contains("shared by 4 triangles"));
    }
}
