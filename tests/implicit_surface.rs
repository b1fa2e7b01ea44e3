//! The implicit contact surface: the MLS potential φ's first and second derivatives with
//! respect to the query point and to every surface vertex, and the surface-velocity weights'
//! derivatives, against central finite differences, on random and near-degenerate surfaces, for
//! both kernels.

use grip::assemble::contact::stage::{ContactStage, SurfaceStage};
use grip::assemble::contact::surface_query::SurfaceQueries;
use grip::assemble::contact::ContactTerm;
use grip::assemble::term::Term;
use grip::contact::law::{FrictionCoupling, FrictionSmoothing};
use grip::contact::surface::{potential, ImplicitSurface, Kernel};
use grip::contact::ContactLaw;
use grip::model::SurfaceQuery;

/// A deterministic pseudo-random stream in [0, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn signed(&mut self) -> f64 {
        2.0 * self.next() - 1.0
    }
}

/// A bumpy n × n grid patch in z ≈ 0 (vertex 0 is the query point, placed above it), with
/// random in-plane jitter `jitter` and height noise `bump` [m]; spacing 0.1 m.
fn patch(rng: &mut Rng, n: usize, jitter: f64, bump: f64, query: [f64; 3]) -> (Vec<f64>, Vec<[u32; 3]>) {
    let mut q = query.to_vec();
    for j in 0..=n {
        for i in 0..=n {
            let x = 0.1 * i as f64 - 0.05 * n as f64 + jitter * rng.signed();
            let y = 0.1 * j as f64 - 0.05 * n as f64 + jitter * rng.signed();
            q.extend_from_slice(&[x, y, bump * rng.signed()]);
        }
    }
    let id = |i: usize, j: usize| (1 + j * (n + 1) + i) as u32;
    let mut tris = Vec::new();
    for j in 0..n {
        for i in 0..n {
            tris.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            tris.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    (q, tris)
}

/// Whether every sample is clearly inside or outside its support at `q` (finite differences
/// across a support boundary would measure the kink, not the derivative).
fn away_from_support_edges(s: &ImplicitSurface, q: &[f64], margin: f64) -> bool {
    let x = [q[0], q[1], q[2]];
    (0..s.triangles.len()).all(|i| {
        let p = s.centroid(i, q);
        let d = ((0..3).map(|k| (x[k] - p[k]).powi(2)).sum::<f64>()).sqrt();
        (d - s.radius[i]).abs() > margin
    })
}

/// Checks ∇φ, ∇²φ and ∇Wⱼ of `evaluate` against central differences of step `h` [m]; returns the largest
/// relative errors (gradient, Hessian, weight gradients).
fn check(s: &ImplicitSurface, kernel: Kernel, q: &[f64], h: f64) -> (f64, f64, f64) {
    let all: Vec<u32> = (0..s.triangles.len() as u32).collect();
    let p = potential::evaluate(s, kernel, 0, &all, q, s.far, true).expect("query in range");
    let second = p.second.as_ref().unwrap();
    let dim = 3 * p.stencil.len();
    let (mut eg, mut eh, mut ew) = (0.0f64, 0.0f64, 0.0f64);
    let gscale = p.gradient.amax().max(1e-3);
    let hscale = second.hessian.amax().max(1e-3);
    let wscale = second.vertex_weight_gradients.amax().max(1e-3);
    for col in 0..dim {
        let global = 3 * p.stencil[col / 3] as usize + col % 3;
        let eval = |delta: f64| {
            let mut qq = q.to_vec();
            qq[global] += delta;
            potential::evaluate(s, kernel, 0, &all, &qq, s.far, false).expect("in range")
        };
        let (plus, minus) = (eval(h), eval(-h));
        assert_eq!(plus.stencil, p.stencil, "the stencil must not change under a tiny perturbation");
        eg = eg.max(((plus.phi - minus.phi) / (2.0 * h) - p.gradient[col]).abs() / gscale);
        for row in 0..dim {
            let fd = (plus.gradient[row] - minus.gradient[row]) / (2.0 * h);
            eh = eh.max((fd - second.hessian[(row, col)]).abs() / hscale);
        }
        for j in 0..p.stencil.len() {
            let fd = (plus.vertex_weights[j] - minus.vertex_weights[j]) / (2.0 * h);
            ew = ew.max((fd - second.vertex_weight_gradients[(j, col)]).abs() / wscale);
        }
    }
    // Rigid translation of everything leaves φ unchanged: the gradient's blocks sum to zero.
    for k in 0..3 {
        let sum: f64 = (0..p.stencil.len()).map(|b| p.gradient[3 * b + k]).sum();
        assert!(sum.abs() < 1e-9 * gscale, "translation invariance: {sum}");
    }
    let wsum: f64 = p.vertex_weights.iter().sum();
    assert!((wsum - 1.0).abs() < 1e-12, "surface-velocity weights sum to {wsum}");
    (eg, eh, ew)
}

#[test]
fn potential_derivatives_match_finite_differences_on_random_surfaces() {
    let mut rng = Rng(11);
    let mut checked = 0;
    for kernel in [Kernel::Interpolating, Kernel::Cubic] {
        for trial in 0..40 {
            let query = [0.08 * rng.signed(), 0.08 * rng.signed(), 0.002 + 0.03 * rng.next()];
            let (q, tris) = patch(&mut rng, 4, 0.02, 0.01, query);
            let rest: Vec<[f64; 3]> = q.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
            let s = ImplicitSurface::new(2, tris, &rest, 1.5 + rng.next(), false);
            if !away_from_support_edges(&s, &q, 1e-4) {
                continue;
            }
            let (eg, eh, ew) = check(&s, kernel, &q, 1e-6);
            assert!(eg < 1e-6 && eh < 1e-5 && ew < 1e-5, "{kernel:?} trial {trial}: errors {eg:.2e} {eh:.2e} {ew:.2e}");
            checked += 1;
        }
    }
    assert!(checked > 40, "too few configurations checked: {checked}");
}

#[test]
fn potential_derivatives_hold_on_near_degenerate_surfaces() {
    let mut rng = Rng(5);
    let mut checked = 0;
    for kernel in [Kernel::Interpolating, Kernel::Cubic] {
        for trial in 0..30 {
            // Sliver triangles (one row of vertices squeezed almost onto the next), a sharp
            // crease, and the query point almost exactly at a sample centroid.
            let (mut q, tris) = patch(&mut rng, 3, 0.0, 0.0, [0.0; 3]);
            for v in 0..4 {
                q[3 * (1 + 4 + v) + 1] = q[3 * (1 + v) + 1] + 1e-4 * (1.0 + rng.next());
            }
            for v in 0..16 {
                if q[3 * (1 + v)] > 0.0 {
                    q[3 * (1 + v) + 2] = 0.6 * q[3 * (1 + v)];
                }
            }
            let rest: Vec<[f64; 3]> = q.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
            let s = ImplicitSurface::new(2, tris, &rest, 2.0, false);
            let target = 8 + (trial % 6);
            let c = s.centroid(target, &q);
            let offset = if trial % 2 == 0 { 1e-7 } else { 0.004 };
            q[0] = c[0] + 1e-5 * rng.signed();
            q[1] = c[1] + 1e-5 * rng.signed();
            q[2] = c[2] + offset;
            if !away_from_support_edges(&s, &q, 1e-4) {
                continue;
            }
            // Sliver normals turn fast: a smaller step keeps the truncation error down.
            let (eg, eh, ew) = check(&s, kernel, &q, 1e-8);
            assert!(eg < 1e-5 && eh < 1e-4 && ew < 1e-4, "{kernel:?} trial {trial}: errors {eg:.2e} {eh:.2e} {ew:.2e}");
            checked += 1;
        }
    }
    assert!(checked > 20, "too few configurations checked: {checked}");
}

#[test]
fn potential_is_the_distance_to_a_flat_surface_and_none_out_of_range() {
    let mut rng = Rng(3);
    let (mut q, tris) = patch(&mut rng, 4, 0.0, 0.0, [0.013, -0.021, 0.004]);
    let rest: Vec<[f64; 3]> = q.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let mut s = ImplicitSurface::new(2, tris, &rest, 1.5, false);
    s.far = 0.01;
    let all: Vec<u32> = (0..s.triangles.len() as u32).collect();
    for kernel in [Kernel::Interpolating, Kernel::Cubic] {
        let p = potential::evaluate(&s, kernel, 0, &all, &q, s.far, false).unwrap();
        // Exact up to the far-field background sample's pull (well below a micrometre here).
        assert!((p.phi - 0.004).abs() < 1e-6, "φ on a plane is the height: {}", p.phi);
        assert!((p.gradient[2] - 1.0).abs() < 1e-4 && p.gradient[0].abs() < 1e-4);
        let x = [0.013, -0.021, -0.002];
        assert!((potential::value(&s, kernel, &x, &all, &q, s.far).unwrap() + 0.002).abs() < 1e-6);
    }
    q[2] = 1.0;
    assert!(potential::evaluate(&s, Kernel::Interpolating, 0, &all, &q, s.far, true).is_none());
}

/// Beyond the open edge of a surface φ blends continuously to the far-field gap instead of
/// jumping from the nearest plane to "no contact" where the query leaves the last support.
#[test]
fn potential_blends_to_the_far_value_beyond_an_open_edge() {
    let mut rng = Rng(8);
    let (q, tris) = patch(&mut rng, 4, 0.0, 0.0, [0.0; 3]);
    let rest: Vec<[f64; 3]> = q.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let mut s = ImplicitSurface::new(2, tris, &rest, 2.0, false);
    s.far = 0.004; // twice a contact thickness of 2 mm, as the solver sets it
    let all: Vec<u32> = (0..s.triangles.len() as u32).collect();
    for kernel in [Kernel::Interpolating, Kernel::Cubic] {
        let phi = |x: f64| potential::value(&s, kernel, &[x, 0.0, 0.002], &all, &q, s.far).unwrap_or(s.far);
        let (mut worst, mut prev) = (0.0f64, phi(0.15));
        let step = 1e-5;
        for k in 1..=20_000 {
            let now = phi(0.15 + step * k as f64);
            worst = worst.max((now - prev).abs());
            prev = now;
        }
        assert!((phi(0.15) - 0.002).abs() < 1e-4, "{kernel:?}: φ at the edge {}", phi(0.15));
        assert_eq!(prev, s.far, "{kernel:?}: out of range φ is the far value");
        assert!(worst < 2e-5, "{kernel:?}: φ jumps by {worst} m over a {step} m step");
    }
}

/// The contact law of the surface-terms tests: κ = 1e6 N/m², thickness `delta` [m], implicit
/// smoothed Coulomb friction (ε = 1 mm/s).
fn stiff_law(delta: f64) -> ContactLaw {
    ContactLaw {
        kappa: 1e6,
        delta,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    }
}

/// A vertex on the back (negative side) of a two-sided shell surface that slides out beyond
/// the shell's open edge leaves contact: its gap d = side·φ + offset blends to +far there, as
/// on the front. (With the background value +far on both sides, the gap on the back would blend
/// to −far: a phantom deep contact with a vanishing, noisy normal whose implicit friction makes
/// the residual jump and stalls Newton, as in the tube cloth bend.)
#[test]
fn back_of_a_two_sided_surface_blends_to_no_contact_beyond_an_open_edge() {
    let delta = 0.002;
    let law = stiff_law(delta);
    let mut rng = Rng(9);
    let (q0, tris) = patch(&mut rng, 4, 0.0, 0.0, [0.0; 3]);
    let rest: Vec<[f64; 3]> = q0.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    for side in [1.0, -1.0] {
        for kernel in [Kernel::Interpolating, Kernel::Cubic] {
            let mut s = ImplicitSurface::new(1, tris.clone(), &rest, 2.0, true);
            s.far = 2.0 * delta;
            let surfaces = [s];
            let queries = [SurfaceQuery { vertex: 0, surface: 0, mu: 0.5, offset: 0.0, own_surface: None }];
            let fixed = vec![false; q0.len() / 3];
            let mut deepest = f64::INFINITY;
            let mut last = (0.0, 0);
            // From over the middle (x = 0) to well past the edge at x = 0.2 (support 2 × 0.1 m).
            for k in 0..=300 {
                let mut q = q0.clone();
                (q[0], q[2]) = (0.002 * k as f64, side * 0.001);
                let mut terms = surface_term(law, kernel, &surfaces, &queries, &fixed, &q);
                let (gap, active) = terms.gap_summary(&q, &fixed);
                deepest = deepest.min(gap);
                last = (gap, active);
                if k == 300 {
                    let v = vec![0.3; q.len()];
                    let mut force = vec![0.0; q.len()];
                    terms.add_negative_force(&q, &v, 1.0, &mut force);
                    assert!(force.iter().all(|&f| f == 0.0), "side {side} {kernel:?}: force past the edge");
                }
            }
            assert!(deepest > 0.001 - 1e-5, "side {side} {kernel:?}: gap fell to {deepest} m near the edge");
            assert_eq!(last.1, 0, "side {side} {kernel:?}: still in contact past the edge (gap {} m)", last.0);
        }
    }
}

/// A solid's vertex that ended a step just past a shell's mid-surface (within its gap offset,
/// the contact thickness) is pushed back to the side its outward normal says it belongs on. A
/// side taken from where it is at the step's start (the rule without the solid's normal) would
/// push it on through instead: that kept limb vertices poking through the tube cloth bend's
/// sleeve for the rest of the run.
#[test]
fn a_solid_vertex_just_past_a_shell_is_pushed_back_to_its_own_side() {
    let delta = 0.002;
    let law = stiff_law(delta);
    let mut rng = Rng(5);
    // The shell: a patch in z = 0 (normal +z); the query vertex 0 is the apex of a tetrahedron
    // below it, 0.5 mm above the patch (through it), its outward normal +z.
    let (mut q, shell) = patch(&mut rng, 4, 0.0, 0.0, [0.01, 0.02, 0.0005]);
    let base = (q.len() / 3) as u32;
    q.extend_from_slice(&[0.06, 0.02, -0.05, -0.03, 0.07, -0.05, -0.03, -0.03, -0.05]);
    let rest: Vec<[f64; 3]> = q.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let centre = [0.0, 1.0, 2.0]
        .map(|k: f64| (0..4).map(|m| rest[[0, base, base + 1, base + 2][m] as usize][k as usize]).sum::<f64>() / 4.0);
    let outward = |t: [u32; 3]| {
        let p = |v: u32| nalgebra::Vector3::from(rest[v as usize]);
        let n = (p(t[1]) - p(t[0])).cross(&(p(t[2]) - p(t[0])));
        if n.dot(&(p(t[0]) - nalgebra::Vector3::from(centre))) > 0.0 {
            t
        } else {
            [t[0], t[2], t[1]]
        }
    };
    let (a, b, c) = (base, base + 1, base + 2);
    let solid: Vec<[u32; 3]> = [[0, a, b], [0, b, c], [0, c, a], [a, b, c]].into_iter().map(outward).collect();
    let mut shell_surface = ImplicitSurface::new(1, shell, &rest, 2.0, true);
    shell_surface.far = 2.0 * delta;
    let surfaces = [shell_surface, ImplicitSurface::new(2, solid, &rest, 2.0, false)];
    let v = vec![0.0; q.len()];
    for (own_surface, pushed_down) in [(None, false), (Some(1), true)] {
        let queries = [SurfaceQuery { vertex: 0, surface: 0, mu: 0.0, offset: delta, own_surface }];
        let fixed = vec![false; q.len() / 3];
        let terms = surface_term(law, Kernel::Interpolating, &surfaces, &queries, &fixed, &q);
        let mut minus_force = vec![0.0; q.len()];
        terms.add_negative_force(&q, &v, 1.0, &mut minus_force);
        let force_z = -minus_force[2];
        assert_eq!(force_z < 0.0, pushed_down, "own surface {own_surface:?}: force on the vertex along z {force_z} N");
    }
}

/// The surface contact term of `queries` against `surfaces` under `law` with `kernel`, padding
/// 1 cm, gathered at `q`.
fn surface_term<'a>(
    law: ContactLaw,
    kernel: Kernel,
    surfaces: &'a [ImplicitSurface],
    queries: &'a [SurfaceQuery],
    fixed: &'a [bool],
    q: &'a [f64],
) -> ContactTerm<SurfaceQueries<'a>> {
    let stage = ContactStage {
        surfaces: Some(SurfaceStage { surfaces, queries, kernel, padding: 0.01 }),
        ..ContactStage::none(law, fixed, q)
    };
    ContactTerm::new(SurfaceQueries::of(&stage).expect("surface contacts"), q, q)
}
