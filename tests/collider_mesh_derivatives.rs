//! Derivatives of the collider-mesh contact (`grip::contact::collider_mesh`) against finite
//! differences and brute force: the gap is the exact signed distance, its AD gradient is the
//! normal, the force Jacobian dF/dv (penalty and fully implicit or lagged friction, both
//! smoothings) matches central differences near faces, edges and corners, inside and out, and
//! the gap and normal are continuous across the borders between features and, on a mesh with
//! concave edges, across the borders between its convex patches.

use grip::contact::collider::vertex::{force, force_and_jacobian_along, GapField};
use grip::contact::collider_mesh::patches::local_patches;
use grip::contact::collider_mesh::{MeshGeometry, MeshPoint, MeshTopology};
use grip::contact::{ContactLaw, FrictionCoupling, FrictionSmoothing};
use grip::mesh::closest_point::{closest_on_triangle, point_at};
use grip::mesh::shapes::l_block;
use num_dual::{Derivative, DualSVec64};

mod common;
use common::{assert_jacobian_by_differences, Lcg};

/// Blending length τ (m) of δ = 0.01 m.
const TAU: f64 = 0.01 / 32.0;

/// A closed bipyramid, outward: the ring of corners `ring` (counter-clockwise seen from +z)
/// joined to a top and a bottom apex.
fn bipyramid_of(ring: Vec<[f64; 3]>, top: [f64; 3], bottom: [f64; 3]) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let n = ring.len() as u32;
    let mut p = ring;
    p.push(top);
    p.push(bottom);
    let mut t = Vec::new();
    for i in 0..n {
        let j = (i + 1) % n;
        t.push([i, j, n]);
        t.push([j, i, n + 1]);
    }
    (p, t)
}

/// An irregular closed mesh: a bipyramid over a pentagon with uneven radii and apex heights,
/// so its faces, edges and corners all differ; outward.
fn bipyramid() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let ring = (0..5)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / 5.0 + 0.1 * i as f64;
            let r = 0.1 + 0.02 * (i % 3) as f64;
            [r * a.cos(), r * a.sin(), 0.01 * i as f64]
        })
        .collect();
    bipyramid_of(ring, [0.01, -0.02, 0.12], [-0.01, 0.01, -0.09])
}

/// A closed mesh with concave edges: a bipyramid over a six-pointed star (equator radii
/// alternating 0.12 and 0.05 m), so the edges from the apexes to the inner corners are valleys
/// and the mesh splits into three convex patches (each two outer spikes' faces, top and
/// bottom); outward.
fn star_bipyramid() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let ring = (0..6)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / 6.0 + 0.05 * i as f64;
            let r = if i % 2 == 0 { 0.12 } else { 0.05 };
            [r * a.cos(), r * a.sin(), 0.005 * i as f64]
        })
        .collect();
    bipyramid_of(ring, [0.01, -0.01, 0.1], [-0.01, 0.01, -0.08])
}

/// The test meshes: the convex bipyramid and the star with concave edges (checked to have more
/// than one convex patch, so that the blend across patches is exercised).
fn meshes() -> [(Vec<[f64; 3]>, Vec<[u32; 3]>); 2] {
    let star = star_bipyramid();
    let topo = MeshTopology::new(&star.0, &star.1);
    let geom = MeshGeometry::new(&topo, star.0.clone(), vec![[0.0; 3]; star.0.len()]);
    let all: Vec<u32> = (0..star.1.len() as u32).collect();
    let mut ids = local_patches(&topo, &geom.convex_joins, &all);
    ids.sort_unstable();
    ids.dedup();
    assert!(ids.len() >= 3, "the star has {} convex patches", ids.len());
    [bipyramid(), star]
}

fn law(smoothing: FrictionSmoothing, coupling: FrictionCoupling) -> ContactLaw {
    ContactLaw { kappa: 3e5, delta: 0.01, epsilon: 0.01, smoothing, coupling }
}

/// Brute-force unsigned distance from `x` to the mesh.
fn distance(p: &[[f64; 3]], t: &[[u32; 3]], x: [f64; 3]) -> f64 {
    t.iter()
        .map(|tri| {
            let c = tri.map(|v| p[v as usize]);
            let q = point_at(c, closest_on_triangle(x, c).0);
            ((x[0] - q[0]).powi(2) + (x[1] - q[1]).powi(2) + (x[2] - q[2]).powi(2)).sqrt()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Points within ±δ of the surface: a random point on a random triangle (biased to its edges
/// and corners) pushed along a random outward-leaning direction.
fn near_surface(rng: &mut Lcg, p: &[[f64; 3]], t: &[[u32; 3]], delta: f64) -> [f64; 3] {
    let tri = t[(rng.uniform() * t.len() as f64) as usize % t.len()].map(|v| p[v as usize]);
    let mut w = [rng.uniform(), rng.uniform(), rng.uniform()];
    match (rng.uniform() * 3.0) as usize {
        0 => w[0] = 0.0,
        1 => (w[0], w[1]) = (0.0, 0.0),
        _ => {}
    }
    let s: f64 = w.iter().sum();
    let on = point_at(tri, w.map(|x| x / s));
    let dir = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)];
    let l = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
    let r = rng.range(-0.9, 0.9) * delta;
    std::array::from_fn(|k| on[k] + r * dir[k] / l)
}

#[test]
fn gap_is_the_signed_distance_and_its_gradient_the_normal() {
    for (p, t) in meshes() {
        gap_checks(&p, &t);
    }
}

fn gap_checks(p: &[[f64; 3]], t: &[[u32; 3]]) {
    let (p, t) = (p.to_vec(), t.to_vec());
    let topo = MeshTopology::new(&p, &t);
    assert!(topo.closed);
    let geom = MeshGeometry::new(&topo, p.clone(), vec![[0.0; 3]; p.len()]);
    let all: Vec<u32> = (0..t.len() as u32).collect();
    let mut rng = Lcg(5);
    for _ in 0..2000 {
        let x = near_surface(&mut rng, &p, &t, 0.01);
        let point = MeshPoint::at(&topo, &geom, &all, x, TAU).unwrap();
        let (d, n) = point.gap(x);
        // The blend may exceed the distance by 0.28 τ per competing triangle or patch.
        let exact = distance(&p, &t, x);
        assert!(
            d.abs() >= exact - 1e-12 && d.abs() <= exact + 3.0 * TAU,
            "|gap| {d} is not the distance {exact} at {x:?}"
        );
        let dual: [DualSVec64<3>; 3] = std::array::from_fn(|i| {
            DualSVec64::new(x[i], Derivative::derivative_generic(nalgebra::Const::<3>, nalgebra::U1, i))
        });
        let g = point.gap(dual).0.eps.unwrap_generic(nalgebra::Const::<3>, nalgebra::U1);
        for k in 0..3 {
            assert!((g[k] - n[k]).abs() < 1e-9, "∇d {g:?} vs n {n:?} at {x:?}");
        }
        // The gap is continuous and C¹ across feature borders: re-resolving at a nearby point
        // gives the first-order change.
        let dx = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)].map(|v| v * 1e-7);
        let y: [f64; 3] = std::array::from_fn(|k| x[k] + dx[k]);
        let (dy, _) = MeshPoint::at(&topo, &geom, &all, y, TAU).unwrap().gap(y);
        let linear = d + (0..3).map(|k| n[k] * dx[k]).sum::<f64>();
        // Second order: the gap's curvature is at most 1/|d| (at an edge or corner) plus
        // |nᵢ − nⱼ|²/τ ≤ 4/τ where the blend turns the normal.
        let dx2: f64 = dx.iter().map(|v| v * v).sum();
        let tolerance = dx2 * (1.0 / d.abs().max(1e-300) + 4.0 / TAU) + 1e-15;
        assert!((dy - linear).abs() <= tolerance, "gap jumps near {x:?}: {dy} vs {linear}");
    }
}

#[test]
fn force_jacobian_matches_finite_differences_near_every_feature() {
    for (p, t) in meshes() {
        jacobian_checks(&p, &t);
    }
}

fn jacobian_checks(p: &[[f64; 3]], t: &[[u32; 3]]) {
    let (p, t) = (p.to_vec(), t.to_vec());
    let topo = MeshTopology::new(&p, &t);
    let h = 0.01;
    // The mesh moves, turns and deforms a little over the step: its corners have velocities of
    // a non-rigid field.
    let vel: Vec<[f64; 3]> = p
        .iter()
        .map(|x| [0.05 - 0.3 * x[1] + 2.0 * x[0] * x[2], 0.02 + 0.3 * x[0] - 1.5 * x[1] * x[1], -0.01 + 0.8 * x[0]])
        .collect();
    let geom = MeshGeometry::new(&topo, p.clone(), vel);
    let all: Vec<u32> = (0..t.len() as u32).collect();
    let mut rng = Lcg(17);
    let mut checked = 0;
    for smoothing in [FrictionSmoothing::Quadratic, FrictionSmoothing::Rational] {
        for coupling in [FrictionCoupling::Implicit, FrictionCoupling::Lagged] {
            let law = law(smoothing, coupling);
            for trial in 0..150 {
                let x_end = near_surface(&mut rng, &p, &t, law.delta);
                let point = MeshPoint::at(&topo, &geom, &all, x_end, TAU).unwrap();
                if point.gap(x_end).0 >= law.delta {
                    continue;
                }
                let speed = [0.1, 0.5, 3.0, 30.0][trial % 4] * law.epsilon;
                let v: [f64; 3] = std::array::from_fn(|_| rng.range(-1.0, 1.0) * speed);
                let x_start: [f64; 3] = std::array::from_fn(|k| x_end[k] - h * v[k]);
                let mu = 0.6;
                // Lagged friction is its own frozen stencil beside the penalty's.
                let lagged = (coupling == FrictionCoupling::Lagged).then(|| point.frozen(&law, mu, 0, x_start));
                let mu_implicit = if lagged.is_some() { 0.0 } else { mu };
                let (mut f, mut jac) = force_and_jacobian_along(&law, &point, mu_implicit, x_start, v, h);
                if let Some(l) = &lagged {
                    let fl: [f64; 3] = l.forces(&law, &v);
                    f = std::array::from_fn(|k| f[k] + fl[k]);
                    jac += l.jacobian(&law, &v, nalgebra::U3);
                }
                let eval = |v: [f64; 3]| {
                    let x: [f64; 3] = std::array::from_fn(|k| x_start[k] + h * v[k]);
                    let f = force(&law, &point, mu_implicit, x, v);
                    let fl: [f64; 3] = lagged.as_ref().map_or([0.0; 3], |l| l.forces(&law, &v));
                    std::array::from_fn(|k| f[k] + fl[k])
                };
                let plain = eval(v);
                // Dual division rounds as a product with the reciprocal: agreement to 1e-10.
                assert!((0..3).all(|k| (f[k] - plain[k]).abs() <= 1e-10 * (1.0 + f[k].abs())), "{f:?} vs {plain:?}");
                let context = || format!("{smoothing:?} {coupling:?} at {x_end:?}");
                assert_jacobian_by_differences(eval, v, |k, i| jac[(k, i)], 1e-5 * law.epsilon, 1e-5, context);
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "only {checked} active samples");
}

/// The largest distance (≈ angle, rad) between consecutive unit directions of `normals`.
fn largest_turn_between(normals: &[[f64; 3]]) -> f64 {
    let unit = |v: [f64; 3]| {
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|x| x / l)
    };
    normals
        .windows(2)
        .map(|w| unit(w[0]).iter().zip(unit(w[1])).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt())
        .fold(0.0, f64::max)
}

/// Across the bisector of a concave edge (the star's valley from its top apex to an inner
/// corner) the exact distance's normal jumps from one face's normal to the other's; the
/// blended gap's normal turns smoothly: along a line crossing the bisector 5 mm out, in 1 µm
/// steps, no step turns it by more than 0.005 rad, where the exact closest feature's turns by
/// the dihedral angle (0.077 rad) at once.
#[test]
fn the_gap_is_smooth_across_a_concave_edge() {
    let (p, t) = star_bipyramid();
    let topo = MeshTopology::new(&p, &t);
    let geom = MeshGeometry::new(&topo, p.clone(), vec![[0.0; 3]; p.len()]);
    let all: Vec<u32> = (0..t.len() as u32).collect();
    let (na, nb) = (geom.face_normals[0], geom.face_normals[2]);
    let patches = local_patches(&topo, &geom.convex_joins, &all);
    assert_ne!(patches[0], patches[2], "faces 0 and 2 meet at a concave edge");
    let unit = |v: [f64; 3]| {
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|x| x / l)
    };
    let out = unit(std::array::from_fn(|k| na[k] + nb[k]));
    let across = unit(std::array::from_fn(|k| na[k] - nb[k]));
    let mid: [f64; 3] = std::array::from_fn(|k| 0.5 * (p[1][k] + p[6][k]));
    let normal_at = |s: f64, exact: bool| {
        let x: [f64; 3] = std::array::from_fn(|k| mid[k] + 0.005 * out[k] + s * across[k]);
        if exact {
            let c = geom.closest(&topo, x, &all).unwrap();
            MeshPoint::of(&topo, &geom, &c).gap(x).1
        } else {
            MeshPoint::at(&topo, &geom, &all, x, TAU).unwrap().gap(x).1
        }
    };
    let largest_turn = |exact: bool| {
        let normals: Vec<[f64; 3]> = (0..=2000).map(|i| normal_at(-0.001 + 1e-6 * i as f64, exact)).collect();
        largest_turn_between(&normals)
    };
    let (blended, exact) = (largest_turn(false), largest_turn(true));
    println!("largest normal turn per µm: blended {blended:.3e}, exact minimum {exact:.3e}");
    assert!(exact > 0.05, "the exact minimum's normal should jump across the bisector ({exact})");
    assert!(blended < 0.005, "the blended normal turns by {blended} in one µm step");
}

/// [`l_block`] of side 0.3 m and thickness 5 cm as points and triangles.
fn l_block_mesh() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let (p, t) = l_block(0.3, 0.05);
    (p.chunks(3).map(|x| [x[0], x[1], x[2]]).collect(), t.chunks(3).map(|x| [x[0], x[1], x[2]]).collect())
}

/// The inside corner of a closed block: its floor and wall meet convexly around the back, so
/// over the whole mesh they are one convex patch, and the exact minimum's normal jumps on the
/// crease's bisector. Among the triangles near the point (the solver's candidates: within 2 cm)
/// they are two patches, and the blended gap is smooth: along a line crossing the bisector
/// 5 mm out, in 1 µm steps, its normal turns by less than 0.005 rad per step (the whole mesh's:
/// by the crease's 90° at once), and the force Jacobian matches central differences across it.
#[test]
fn the_inside_corner_of_a_closed_mesh_is_smooth_among_near_triangles() {
    let (p, t) = l_block_mesh();
    let topo = MeshTopology::new(&p, &t);
    assert!(topo.closed);
    let geom = MeshGeometry::new(&topo, p.clone(), vec![[0.0; 3]; p.len()]);
    let all: Vec<u32> = (0..t.len() as u32).collect();
    let near = |x: [f64; 3]| -> Vec<u32> {
        all.iter().copied().filter(|&i| distance(&p, &t[i as usize..i as usize + 1], x) < 0.02).collect()
    };
    let s2 = 0.5f64.sqrt();
    let at = |s: f64| [0.005 * s2 + s * s2, 0.01, 0.005 * s2 - s * s2];
    let largest_turn = |candidates: &dyn Fn([f64; 3]) -> Vec<u32>| {
        let normals: Vec<[f64; 3]> = (0..=2000)
            .map(|i| {
                let x = at(-0.001 + 1e-6 * i as f64);
                MeshPoint::at(&topo, &geom, &candidates(x), x, TAU).unwrap().gap(x).1
            })
            .collect();
        largest_turn_between(&normals)
    };
    let (local, whole) = (largest_turn(&near), largest_turn(&|_| all.clone()));
    println!("largest normal turn per µm: near triangles {local:.3e}, whole mesh {whole:.3e}");
    assert!(whole > 1.0, "over the whole mesh the normal should jump across the bisector ({whole})");
    assert!(local < 0.005, "among the near triangles the normal turns by {local} in one µm step");

    let law = law(FrictionSmoothing::Quadratic, FrictionCoupling::Implicit);
    let h = 0.01;
    let mut rng = Lcg(29);
    for i in 0..40 {
        let x_end = at(-0.002 + 1e-4 * i as f64);
        let candidates = near(x_end);
        let point = MeshPoint::at(&topo, &geom, &candidates, x_end, TAU).unwrap();
        assert!(point.gap(x_end).0 < law.delta);
        let v: [f64; 3] = std::array::from_fn(|_| rng.range(-1.0, 1.0) * 3.0 * law.epsilon);
        let x_start: [f64; 3] = std::array::from_fn(|k| x_end[k] - h * v[k]);
        let (_, jac) = force_and_jacobian_along(&law, &point, 0.6, x_start, v, h);
        let eval = |v: [f64; 3]| {
            let x: [f64; 3] = std::array::from_fn(|k| x_start[k] + h * v[k]);
            force(&law, &point, 0.6, x, v)
        };
        let context = || format!("inside corner at {x_end:?}");
        assert_jacobian_by_differences(eval, v, |k, i| jac[(k, i)], 1e-5 * law.epsilon, 1e-5, context);
    }
}

/// An open square sheet of side 0.2 m at z = 0 (2 × 2 cells, 8 triangles, facing +z) bounds
/// the solid below it, walled at its rim: the brute-force signed distance to the prism
/// {z < 0, |x| < 0.1, |y| < 0.1}, which these points near the rim (away from its corners)
/// check the gap against: −min(depth, distance to the wall) below the sheet, the distance to
/// the wall below and beyond the rim, the distance to the rim above it. Its gradient is the
/// normal, it is 1-Lipschitz through the face's plane and the walls, and the force Jacobian
/// matches central differences there.
#[test]
fn an_open_sheet_is_walled_at_its_rim() {
    let half = 0.1;
    let p: Vec<[f64; 3]> =
        (0..9).map(|i| [-half + half * (i % 3) as f64, -half + half * (i / 3) as f64, 0.0]).collect();
    let t: Vec<[u32; 3]> = (0..4)
        .flat_map(|c| {
            let a = (c % 2 + 3 * (c / 2)) as u32;
            [[a, a + 1, a + 4], [a, a + 4, a + 3]]
        })
        .collect();
    let topo = MeshTopology::new(&p, &t);
    assert!(!topo.closed);
    let vel = vec![[0.02, -0.01, 0.0]; p.len()];
    let geom = MeshGeometry::new(&topo, p.clone(), vel);
    let all: Vec<u32> = (0..t.len() as u32).collect();
    let oracle = |x: [f64; 3]| {
        let (ox, oy) = (x[0].abs() - half, x[1].abs() - half);
        if x[2] < 0.0 && ox < 0.0 && oy < 0.0 {
            -(-x[2]).min(-ox).min(-oy)
        } else {
            (ox.max(0.0).powi(2) + oy.max(0.0).powi(2) + x[2].max(0.0).powi(2)).sqrt()
        }
    };
    let law = law(FrictionSmoothing::Quadratic, FrictionCoupling::Implicit);
    let mut rng = Lcg(23);
    let mut checked = [0; 3];
    for trial in 0..3000 {
        // A point on the rim (along x at y = ±0.1, or along y at x = ±0.1), up to 0.09 m from
        // the corners, moved up to δ in any direction.
        let along = rng.range(-0.09, 0.09);
        let side = if rng.uniform() < 0.5 { -half } else { half };
        let on = if trial % 2 == 0 { [along, side, 0.0] } else { [side, along, 0.0] };
        let x: [f64; 3] = std::array::from_fn(|k| on[k] + rng.range(-1.0, 1.0) * law.delta);
        let point = MeshPoint::at(&topo, &geom, &all, x, TAU).unwrap();
        let (d, n) = point.gap(x);
        let exact = oracle(x);
        assert!((d - exact).abs() <= 3.0 * TAU, "gap {d} vs the walled distance {exact} at {x:?}");
        let region = if x[2] >= 0.0 {
            0
        } else if exact < 0.0 {
            1
        } else {
            2
        };
        checked[region] += 1;
        let dual: [DualSVec64<3>; 3] = std::array::from_fn(|i| {
            DualSVec64::new(x[i], Derivative::derivative_generic(nalgebra::Const::<3>, nalgebra::U1, i))
        });
        let g = point.gap(dual).0.eps.unwrap_generic(nalgebra::Const::<3>, nalgebra::U1);
        assert!((0..3).all(|k| (g[k] - n[k]).abs() < 1e-9), "∇d {g:?} vs n {n:?} at {x:?}");
        let dx = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)].map(|v| v * 1e-6);
        let y: [f64; 3] = std::array::from_fn(|k| x[k] + dx[k]);
        let (dy, _) = MeshPoint::at(&topo, &geom, &all, y, TAU).unwrap().gap(y);
        let step = dx.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!((dy - d).abs() <= step * (1.0 + 1e-6) + 1e-15, "gap jumps near {x:?}: {d} to {dy}");
        if d < law.delta && trial % 5 == 0 {
            let (h, mu) = (0.01, 0.6);
            let v: [f64; 3] = std::array::from_fn(|_| rng.range(-1.0, 1.0) * 3.0 * law.epsilon);
            let x_start: [f64; 3] = std::array::from_fn(|k| x[k] - h * v[k]);
            let (_, jac) = force_and_jacobian_along(&law, &point, mu, x_start, v, h);
            let eval = |v: [f64; 3]| {
                let x: [f64; 3] = std::array::from_fn(|k| x_start[k] + h * v[k]);
                force(&law, &point, mu, x, v)
            };
            let context = || format!("open sheet at {x:?}");
            assert_jacobian_by_differences(eval, v, |k, i| jac[(k, i)], 1e-5 * law.epsilon, 1e-5, context);
        }
    }
    println!("points above the plane, under the sheet, beside the wall: {checked:?}");
    assert!(checked.iter().all(|&c| c > 300), "{checked:?}");
}
