//! Procedural triangle surfaces for demos and tests: an icosphere, an octahedron, a UV sphere
//! (as modelling tools make it), an open cylinder (a sleeve) and a closed low-poly prism (a
//! collision proxy).
//! Positions are flat `x0 y0 z0 x1 …` in metres; triangles are flat, 0-based, wound
//! counter-clockwise seen from outside (outward normals).

use std::collections::HashMap;

/// A sphere of `radius` (m) about the origin: the icosahedron with each triangle split into four
/// `subdivisions` times (20·4ⁿ triangles, 10·4ⁿ + 2 vertices), vertices projected onto the sphere.
pub fn icosphere(radius: f64, subdivisions: u32) -> (Vec<f64>, Vec<u32>) {
    let t = (1.0 + 5f64.sqrt()) / 2.0;
    let mut points: Vec<[f64; 3]> = [
        [-1.0, t, 0.0],
        [1.0, t, 0.0],
        [-1.0, -t, 0.0],
        [1.0, -t, 0.0],
        [0.0, -1.0, t],
        [0.0, 1.0, t],
        [0.0, -1.0, -t],
        [0.0, 1.0, -t],
        [t, 0.0, -1.0],
        [t, 0.0, 1.0],
        [-t, 0.0, -1.0],
        [-t, 0.0, 1.0],
    ]
    .iter()
    .map(|p| normalized(*p))
    .collect();
    let mut faces: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..subdivisions {
        let mut midpoint: HashMap<(u32, u32), u32> = HashMap::new();
        let mut mid = |a: u32, b: u32, points: &mut Vec<[f64; 3]>| {
            *midpoint.entry((a.min(b), a.max(b))).or_insert_with(|| {
                let (p, q) = (points[a as usize], points[b as usize]);
                points.push(normalized([p[0] + q[0], p[1] + q[1], p[2] + q[2]]));
                (points.len() - 1) as u32
            })
        };
        let mut next = Vec::with_capacity(4 * faces.len());
        for [a, b, c] in faces {
            let (ab, bc, ca) = (mid(a, b, &mut points), mid(b, c, &mut points), mid(c, a, &mut points));
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        faces = next;
    }
    (points.iter().flat_map(|p| p.map(|x| x * radius)).collect(), faces.concat())
}

/// An open cylinder of `radius` (m) about the x axis from x = `x0` to `x1` (m): `around` ×
/// `along` quads (each split in two, diagonals alternating), `around · (along + 1)` vertices;
/// vertex (i around, j along) has index j·around + i and sits at angle 2πi/around from +y
/// towards +z. Normals point away from the axis.
pub fn open_cylinder(radius: f64, x0: f64, x1: f64, around: usize, along: usize) -> (Vec<f64>, Vec<u32>) {
    let (around, along) = (around.max(3), along.max(1));
    let mut positions = Vec::with_capacity(3 * around * (along + 1));
    for j in 0..=along {
        let x = x0 + (x1 - x0) * j as f64 / along as f64;
        for i in 0..around {
            let a = std::f64::consts::TAU * i as f64 / around as f64;
            positions.extend_from_slice(&[x, radius * a.cos(), radius * a.sin()]);
        }
    }
    let id = |i: usize, j: usize| (j * around + i % around) as u32;
    let mut triangles = Vec::with_capacity(6 * around * along);
    for j in 0..along {
        for i in 0..around {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            // a → b turns around the axis, b → c goes along it: (a, b, c) faces outward.
            if (i + j) % 2 == 0 {
                triangles.extend_from_slice(&[a, b, c, a, c, d]);
            } else {
                triangles.extend_from_slice(&[a, b, d, b, c, d]);
            }
        }
    }
    (positions, triangles)
}

/// A regular octahedron of circumradius `radius` (m) about the origin: corners on the axes
/// (±x: 0, 1; ±y: 2, 3; ±z: 4, 5), eight outward triangles.
pub fn octahedron(radius: f64) -> (Vec<f64>, Vec<u32>) {
    let r = radius;
    let positions = vec![r, 0.0, 0.0, -r, 0.0, 0.0, 0.0, r, 0.0, 0.0, -r, 0.0, 0.0, 0.0, r, 0.0, 0.0, -r];
    let triangles = vec![0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];
    (positions, triangles)
}

/// A UV sphere of `radius` (m) about the origin, as Blender's "UV Sphere": `segments` meridians
/// (≥ 3) and `rings` bands (≥ 2) between the poles on the z axis; each band between two
/// parallels is quads split into two triangles, the bands at the poles are fans of thin
/// triangles. `segments · (rings − 1) + 2` vertices, `2 · segments · (rings − 1)` triangles,
/// outward.
pub fn uv_sphere(radius: f64, segments: usize, rings: usize) -> (Vec<f64>, Vec<u32>) {
    let (segments, rings) = (segments.max(3), rings.max(2));
    let mut positions = vec![0.0, 0.0, radius];
    for j in 1..rings {
        let polar = std::f64::consts::PI * j as f64 / rings as f64;
        for i in 0..segments {
            let azimuth = std::f64::consts::TAU * i as f64 / segments as f64;
            let r = radius * polar.sin();
            positions.extend_from_slice(&[r * azimuth.cos(), r * azimuth.sin(), radius * polar.cos()]);
        }
    }
    positions.extend_from_slice(&[0.0, 0.0, -radius]);
    let south = (positions.len() / 3 - 1) as u32;
    let id = |i: usize, j: usize| (1 + (j - 1) * segments + i % segments) as u32;
    let mut triangles = Vec::with_capacity(6 * segments * (rings - 1));
    for i in 0..segments {
        triangles.extend_from_slice(&[0, id(i, 1), id(i + 1, 1)]);
        triangles.extend_from_slice(&[south, id(i + 1, rings - 1), id(i, rings - 1)]);
        for j in 1..rings - 1 {
            let (a, b, c, d) = (id(i, j), id(i, j + 1), id(i + 1, j + 1), id(i + 1, j));
            triangles.extend_from_slice(&[a, b, c, a, c, d]);
        }
    }
    (positions, triangles)
}

/// A closed prism about the x axis from x = `x0` to `x1` (m): a regular `sides`-gon of
/// circumradius `radius` (m), each side one quad split along a diagonal, each cap a fan from its
/// first corner, the way low-poly collision proxies come out of modelling tools (long thin side
/// triangles, cap triangles from needle-thin to wide). `2 · sides` vertices: corner i of the
/// x0 cap is i, of the x1 cap `sides + i`, at angle 2πi/sides from +y towards +z; outward.
pub fn prism(radius: f64, x0: f64, x1: f64, sides: usize) -> (Vec<f64>, Vec<u32>) {
    let sides = sides.max(3);
    let mut positions = Vec::with_capacity(6 * sides);
    for x in [x0, x1] {
        for i in 0..sides {
            let a = std::f64::consts::TAU * i as f64 / sides as f64;
            positions.extend_from_slice(&[x, radius * a.cos(), radius * a.sin()]);
        }
    }
    let n = sides as u32;
    let mut triangles = Vec::with_capacity(3 * (4 * sides - 4));
    for i in 0..n {
        let (a, b) = (i, (i + 1) % n);
        triangles.extend_from_slice(&[a, b, n + b, a, n + b, n + a]);
    }
    for i in 1..n - 1 {
        // The x0 cap faces −x, the x1 cap +x.
        triangles.extend_from_slice(&[0, i + 1, i, n, n + i, n + i + 1]);
    }
    (positions, triangles)
}

/// A closed L-shaped block along y from −`size` to `size` (m): a floor slab (top z = 0,
/// x ∈ [−`thickness`, `size`]) and a wall (front x = 0, z ∈ [−`thickness`, `size`]), whose
/// inside corner, a 90° concave crease, is the y axis. 12 vertices (the profile's six at
/// y = −`size`, then at `size`; vertex 3 is the corner), 20 triangles: side quads 0–5 as
/// triangles 2i and 2i + 1 (quad 2 is the floor's top, quad 3 the wall's front), then the end
/// caps fanned from the corner; outward.
pub fn l_block(size: f64, thickness: f64) -> (Vec<f64>, Vec<u32>) {
    let t = thickness;
    // The profile in (x, z), counter-clockwise seen from −y.
    let profile = [[-t, -t], [size, -t], [size, 0.0], [0.0, 0.0], [0.0, size], [-t, size]];
    let positions = [-size, size].iter().flat_map(|&y| profile.iter().flat_map(move |p| [p[0], y, p[1]])).collect();
    let n = profile.len() as u32;
    let mut triangles = Vec::with_capacity(60);
    for i in 0..n {
        let j = (i + 1) % n;
        triangles.extend_from_slice(&[i, n + i, j, j, n + i, n + j]);
    }
    // The L is star-shaped about its inside corner: each cap a fan from it.
    for k in [4, 5, 0, 1] {
        let next = (k + 1) % n;
        triangles.extend_from_slice(&[3, k, next, n + 3, n + next, n + k]);
    }
    (positions, triangles)
}

/// A closed cone standing on the plane z = 0 with its apex at (0, 0, `height`) (m): a regular
/// `sides`-gon base of circumradius `radius` (m), the sides one triangle each from the apex, the
/// base a fan from its centre; outward. `sides + 2` vertices: the apex 0, base corner i at
/// 1 + i (angle 2πi/sides from +x towards +y), the base's centre last. The spikes of the
/// draping-on-spikes example of asynchronous contact (Harmon et al. 2009).
pub fn cone(radius: f64, height: f64, sides: usize) -> (Vec<f64>, Vec<u32>) {
    let sides = sides.max(3);
    let mut positions = vec![0.0, 0.0, height];
    for i in 0..sides {
        let a = std::f64::consts::TAU * i as f64 / sides as f64;
        positions.extend_from_slice(&[radius * a.cos(), radius * a.sin(), 0.0]);
    }
    positions.extend_from_slice(&[0.0, 0.0, 0.0]);
    let n = sides as u32;
    let centre = n + 1;
    let mut triangles = Vec::with_capacity(6 * sides);
    for i in 0..n {
        let (a, b) = (1 + i, 1 + (i + 1) % n);
        triangles.extend_from_slice(&[0, a, b, centre, b, a]);
    }
    (positions, triangles)
}

fn normalized(p: [f64; 3]) -> [f64; 3] {
    let l = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
    p.map(|x| x / l)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Σ over triangles of the signed volume of (origin, a, b, c): the enclosed volume when the
    /// surface is closed and outward, and each triangle's outwardness otherwise.
    fn signed_volumes(p: &[f64], t: &[u32]) -> Vec<f64> {
        t.chunks(3)
            .map(|f| {
                let v = |k: usize| [p[3 * f[k] as usize], p[3 * f[k] as usize + 1], p[3 * f[k] as usize + 2]];
                let (a, b, c) = (v(0), v(1), v(2));
                (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                    + a[2] * (b[0] * c[1] - b[1] * c[0]))
                    / 6.0
            })
            .collect()
    }

    #[test]
    fn a_cone_is_closed_outward_and_of_its_volume() {
        let (p, t) = cone(0.02, 0.1, 12);
        assert_eq!((p.len() / 3, t.len() / 3), (14, 24));
        let vols = signed_volumes(&p, &t);
        // The base's fan triangles pass through the origin (zero signed volume): the sides
        // hold the whole volume, each outward.
        assert!(vols.iter().all(|&v| v >= -1e-18) && vols.iter().filter(|&&v| v > 0.0).count() == 12);
        let volume: f64 = vols.iter().sum();
        // A 12-gon of circumradius r has area 3 r².
        let exact = 3.0 * 0.02 * 0.02 * 0.1 / 3.0;
        assert!((volume - exact).abs() < 1e-12, "volume {volume} vs {exact}");
    }

    #[test]
    fn icosphere_is_closed_outward_and_round() {
        let (p, t) = icosphere(0.5, 3);
        assert_eq!((p.len() / 3, t.len() / 3), (10 * 64 + 2, 20 * 64));
        assert!(p.chunks(3).all(|x| ((x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt() - 0.5).abs() < 1e-12));
        let vols = signed_volumes(&p, &t);
        assert!(vols.iter().all(|&v| v > 0.0), "every face outward");
        let volume: f64 = vols.iter().sum();
        let exact = 4.0 / 3.0 * std::f64::consts::PI * 0.125;
        assert!((volume - exact).abs() < 0.02 * exact, "volume {volume} vs {exact}");
    }

    /// The octagonal proxy encloses the octagon's area times its length, every face outward
    /// (positive volume against the centre, which lies inside).
    #[test]
    fn prism_is_closed_and_outward() {
        let (p, t) = prism(0.2, -0.5, 0.5, 8);
        assert_eq!((p.len() / 3, t.len() / 3), (16, 2 * 8 + 2 * 6));
        let vols = signed_volumes(&p, &t);
        assert!(vols.iter().all(|&v| v > 0.0), "every face outward");
        let exact = 0.5 * 8.0 * 0.04 * (std::f64::consts::TAU / 8.0).sin() * 1.0;
        assert!((vols.iter().sum::<f64>() - exact).abs() < 1e-12, "volume");
    }

    /// Blender's default UV sphere (32 segments, 16 rings): its counts, every face outward, its
    /// volume below the sphere's.
    #[test]
    fn uv_sphere_is_closed_and_outward() {
        let (p, t) = uv_sphere(1.0, 32, 16);
        assert_eq!((p.len() / 3, t.len() / 3), (32 * 15 + 2, 2 * 32 * 15));
        let vols = signed_volumes(&p, &t);
        assert!(vols.iter().all(|&v| v > 0.0), "every face outward");
        let volume: f64 = vols.iter().sum();
        let exact = 4.0 / 3.0 * std::f64::consts::PI;
        assert!(volume < exact && volume > 0.97 * exact, "volume {volume}");
    }

    #[test]
    fn open_cylinder_counts_and_outward_normals() {
        let (p, t) = open_cylinder(0.05, -0.1, 0.1, 12, 4);
        assert_eq!((p.len() / 3, t.len() / 3), (12 * 5, 2 * 12 * 4));
        for f in t.chunks(3) {
            let v = |k: usize| {
                nalgebra::Vector3::new(p[3 * f[k] as usize], p[3 * f[k] as usize + 1], p[3 * f[k] as usize + 2])
            };
            let n = (v(1) - v(0)).cross(&(v(2) - v(0)));
            let c = (v(0) + v(1) + v(2)) / 3.0;
            assert!(n.y * c.y + n.z * c.z > 0.0, "face {f:?} points inward");
        }
    }
}
