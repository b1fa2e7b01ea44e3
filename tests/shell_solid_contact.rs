//! Shell–solid self-contact in the solver (`grip::contact::self_contact::shell_solid`): the
//! pairs that see a cloth edge passing under a box's edge between the box's vertices, steps of
//! the solver that push it back out, κ_b raised where the cloth would cut a box's edge (and kept
//! in checkpoints), and a box's corner through a cloth triangle.

use grip::assemble::contact::self_pairs::SelfPairs;
use grip::assemble::contact::stage::{ContactStage, SelfContactStage};
use grip::assemble::contact::ContactTerm;
use grip::assemble::term::Term;
use grip::contact::self_contact::contact_mesh::SelfContactMesh;
use grip::contact::self_contact::shell_solid::solid_law;
use grip::contact::ContactLaw;
use grip::contact::FrictionCoupling;
use grip::contact::FrictionSmoothing;
use grip::energy::gather;
use grip::mesh::generate::box_tets;
use grip::mesh::{boundary_triangles, intersecting_pairs_between};
use grip::solver::VertexAttribute;
use grip::{Material, Solver, SolverParams};

/// Intersecting triangle pairs between the cloth (`triangles`) and the box (`faces`) of `ids`
/// = [cloth, box] at the solver's positions (exact checker).
fn crossings(s: &Solver, ids: [u32; 2], triangles: &[[u32; 3]], faces: &[[u32; 3]]) -> usize {
    let pos = |id| s.positions(id).unwrap().chunks_exact(3).map(|v| [v[0], v[1], v[2]]).collect::<Vec<_>>();
    intersecting_pairs_between(&pos(ids[0]), triangles, &pos(ids[1]), faces).len()
}

/// A pinned 0.1 m box (25 mm cells) and a cloth triangle whose two edges cut the box's top
/// edge x = 0.1 m, z = 0.1 m by 0.3 mm between the box's vertices (12.5 mm away), with its own
/// vertices outside: two 2 mm above the top, one 5 mm beside the side. Box local indices first.
fn cloth_across_box_edge() -> (Vec<f64>, Vec<[u32; 3]>, Vec<f64>) {
    let (p, t) = box_tets([0.1, 0.1, 0.1], [4, 4, 4], [0.0; 3]);
    let tets: Vec<[u32; 4]> = t.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    (p, boundary_triangles(&tets), vec![0.095, 0.0615, 0.102, 0.095, 0.0635, 0.102, 0.105, 0.0625, 0.0974])
}

/// The mechanism: with the box's boundary faces in the self-contact mesh, the cloth edges and
/// the box's top edge form signed edge–edge pairs of negative gap whose force lifts the cloth,
/// no pair joins two box primitives, and the shells' guard does not count the crossing.
#[test]
fn shell_solid_pairs_see_an_edge_crossing_between_vertices() {
    let (box_p, faces, cloth_p) = cloth_across_box_edge();
    let nb = box_p.len() as u32 / 3;
    let q: Vec<f64> = box_p.iter().chain(&cloth_p).copied().collect();
    let mesh = SelfContactMesh::with_solids(vec![[nb, nb + 1, nb + 2]], &faces, q.clone(), 0.001).unwrap();
    assert_eq!(mesh.shell_triangles().len(), 1);
    let positions: Vec<[f64; 3]> = q.chunks_exact(3).map(|v| [v[0], v[1], v[2]]).collect();
    let all = grip::mesh::intersecting_pairs(&positions, &mesh.triangles);
    assert!(all.iter().any(|&(i, j)| i.min(j) == 0), "the cloth crosses the box: {all:?}");
    assert_eq!(mesh.intersections(&q), 0, "the guard counts shells only");
    let law = ContactLaw {
        kappa: 1e6,
        delta: 0.001,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    };
    let mut fixed = vec![true; nb as usize];
    fixed.extend([false; 3]);
    let terms = self_contact(&mesh, law, &fixed, &q);
    let is_box = |v: u32| v < nb;
    assert!(terms.candidates().iter().all(|p| !p.vertices.iter().all(|&v| is_box(v))), "no box–box pair");
    let crossed: Vec<_> = terms
        .candidates()
        .iter()
        .filter(|p| p.outward.is_some() && p.distance(&gather::<12>(&p.vertices, &q)) < 0.0)
        .collect();
    assert_eq!(crossed.len(), 2, "the two cloth edges under the box edge");
    assert!(crossed.iter().all(|p| p.law.delta == 0.0005 && p.law.kappa == 4e6));
    let mut g = vec![0.0; q.len()];
    terms.add_negative_force(&q, &vec![0.0; q.len()], 1.0, &mut g);
    let lift: f64 = (0..3).map(|i| -g[3 * (nb as usize + i) + 2]).sum();
    assert!(lift > 0.0 && energy(&terms, &q) > 0.0, "the force lifts the cloth: {lift}");
}

/// One step of the solver with self-contact on pushes the cloth edges out over the box's edge.
#[test]
fn cloth_edges_cutting_a_box_edge_are_pushed_out() {
    let (box_p, faces, cloth_p) = cloth_across_box_edge();
    assert_steps_push_the_cloth_out(&box_p, &faces, &cloth_p);
}

/// Ten 1 ms steps without gravity, self-contact on, of the pinned 0.1 m box of positions
/// `box_p` and boundary `faces` and a cloth triangle at `cloth_p` that crosses it: they end
/// with the cloth clear of the box.
fn assert_steps_push_the_cloth_out(box_p: &[f64], faces: &[[u32; 3]], cloth_p: &[f64]) {
    let params = SolverParams { time_step: 1e-3, self_contact: true, gravity: [0.0; 3], ..SolverParams::default() };
    let mut s = Solver::new(&params).unwrap();
    let (_, t) = box_tets([0.1, 0.1, 0.1], [4, 4, 4], [0.0; 3]);
    let block = s.add_solid(box_p, &t, &Material::default()).unwrap();
    s.set_vertex_attribute(block, VertexAttribute::Pinned, &vec![1.0; box_p.len() / 3]).unwrap();
    let material = Material { density: 200.0, thickness: 1e-3, ..Material::default() };
    let cloth = s.add_shell(cloth_p, &[0, 1, 2], &material).unwrap();
    let count = |s: &Solver| crossings(s, [cloth, block], &[[0, 1, 2]], faces);
    assert!(count(&s) > 0);
    for _ in 0..10 {
        s.step(1e-3).unwrap();
    }
    assert_eq!(count(&s), 0);
}

/// A cloth strip 11 mm wide bent over the top edge x = z = 0.1 m of a pinned 0.1 m box between
/// the box's vertices (y from 57 to 68 mm): three columns of vertices 7 mm over the top (x = 70,
/// 80, 95 mm), three 7 mm beside the side (z = 95, 80, 70 mm), its edges clear of the box's
/// edge. Positions (flat) and triangles.
fn strip_over_box_edge() -> (Vec<f64>, Vec<u32>) {
    let path = [[0.07, 0.107], [0.08, 0.107], [0.095, 0.107], [0.107, 0.095], [0.107, 0.08], [0.107, 0.07]];
    let p = path.iter().flat_map(|&[x, z]| [x, 0.057, z, x, 0.068, z]).collect();
    let t = (0..5u32).flat_map(|c| [2 * c, 2 * c + 2, 2 * c + 1, 2 * c + 1, 2 * c + 2, 2 * c + 3]).collect();
    (p, t)
}

/// A pinned 0.1 m box and the strip of [`strip_over_box_edge`] with its end columns pinned
/// (μ = 0, 5 ms steps, at most `max_contact_retries` retries of a substep): the solver, the
/// ids of the box and the strip, the box's boundary faces.
fn strip_on_box(max_contact_retries: u32) -> (Solver, [u32; 2], Vec<[u32; 3]>) {
    let params = SolverParams {
        time_step: 5e-3,
        self_contact: true,
        default_friction: 0.0,
        max_contact_retries,
        ..SolverParams::default()
    };
    let mut s = Solver::new(&params).unwrap();
    let (box_p, t) = box_tets([0.1, 0.1, 0.1], [4, 4, 4], [0.0; 3]);
    let tets: Vec<[u32; 4]> = t.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    let block = s.add_solid(&box_p, &t, &Material::default()).unwrap();
    s.set_vertex_attribute(block, VertexAttribute::Pinned, &vec![1.0; box_p.len() / 3]).unwrap();
    let (strip_p, strip_t) = strip_over_box_edge();
    let cloth = s.add_shell(&strip_p, &strip_t, &Material::default()).unwrap();
    let pins: Vec<f64> = (0..12).map(|v| if !(2..10).contains(&v) { 1.0 } else { 0.0 }).collect();
    s.set_vertex_attribute(cloth, VertexAttribute::Pinned, &pins).unwrap();
    (s, [block, cloth], boundary_triangles(&tets))
}

/// One 5 ms step of the strip pulled taut from both ends by `by` [m]: the top end along −x,
/// the side end along −z (negative: eased back).
fn pull(s: &mut Solver, cloth: u32, by: f64) {
    let mut target = s.positions(cloth).unwrap().to_vec();
    (0..2).for_each(|v| target[3 * v] -= by);
    (10..12).for_each(|v| target[3 * v + 2] -= by);
    s.set_vertex_attribute(cloth, VertexAttribute::Target, &target).unwrap();
    s.step(5e-3).unwrap();
}

/// The strip of [`strip_over_box_edge`] pulled taut from both ends ([`pull`]): its free
/// vertices settle on the box's faces, and the cloth edge between the last column on top and
/// the first on the side presses on the box's edge with the membrane's tension, thousands of
/// times the weight the initial κ_b is made for. The substeps that end with that edge cutting
/// the box's are redone with a stiffer κ_b, so no step ends with the cloth crossing the box;
/// without retries the first step ends with the cloth crossing it.
#[test]
fn cloth_pulled_over_a_box_edge_never_cuts_it() {
    let triangles: Vec<[u32; 3]> = strip_over_box_edge().1.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    let (mut control, [block, cloth], faces) = strip_on_box(0);
    let count = |s: &Solver| crossings(s, [cloth, block], &triangles, &faces);
    assert_eq!(count(&control), 0);
    pull(&mut control, cloth, 1e-3);
    assert!(count(&control) > 0, "without retries the cloth must cut the box's edge");
    let (mut s, _, _) = strip_on_box(SolverParams::default().max_contact_retries);
    let mut retries = 0;
    for step in 0..8 {
        pull(&mut s, cloth, 1e-3);
        retries += s.report().contact_retries;
        assert_eq!(count(&s), 0, "step {step} ends with the cloth crossing the box");
    }
    assert!(retries > 0, "κ_b was never raised");
}

/// The raised κ_b is part of the solver's state: a checkpoint taken after the steps that raised
/// it comes back byte for byte from a restored solver, which then goes on bit for bit as the
/// whole run.
#[test]
fn a_raised_shell_solid_stiffness_survives_a_checkpoint() {
    let retries = SolverParams::default().max_contact_retries;
    let (mut whole, [_, cloth], _) = strip_on_box(retries);
    let (mut first, _, _) = strip_on_box(retries);
    let mut raised = 0;
    for _ in 0..3 {
        pull(&mut whole, cloth, 1e-3);
        pull(&mut first, cloth, 1e-3);
        raised += first.report().contact_retries;
    }
    assert!(raised > 0, "κ_b must have been raised before the checkpoint");
    let state = first.checkpoint();
    let (mut second, _, _) = strip_on_box(retries);
    second.restore(&state).unwrap();
    assert!(second.checkpoint() == state, "restore then checkpoint gives other bytes");
    let bits = |s: &Solver| s.positions(cloth).unwrap().iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for _ in 0..5 {
        pull(&mut whole, cloth, 1e-3);
        pull(&mut second, cloth, 1e-3);
    }
    assert_eq!(bits(&second), bits(&whole), "the resumed run differs from the whole one");
    assert!(second.checkpoint() == whole.checkpoint(), "the resumed run ends in another state");
}

/// A pinned 0.1 m box and a cloth triangle 12 mm across cutting its top corner (0.1, 0.1, 0.1)
/// square to the diagonal, the corner 0.3 mm through it: the box's three edges at the corner
/// pierce the triangle, whose own edges stay clear of the box. Box positions and boundary
/// faces, cloth positions.
fn cloth_over_box_corner() -> (Vec<f64>, Vec<[u32; 3]>, Vec<f64>) {
    let (p, t) = box_tets([0.1, 0.1, 0.1], [4, 4, 4], [0.0; 3]);
    let tets: Vec<[u32; 4]> = t.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    let n = [1.0 / 3f64.sqrt(); 3];
    let (a, b) =
        ([1.0 / 2f64.sqrt(), -1.0 / 2f64.sqrt(), 0.0], [1.0 / 6f64.sqrt(), 1.0 / 6f64.sqrt(), -2.0 / 6f64.sqrt()]);
    let centre: [f64; 3] = std::array::from_fn(|k| 0.1 - 3e-4 * n[k]);
    let corner = |s: f64, t: f64| -> [f64; 3] { std::array::from_fn(|k| centre[k] + 0.006 * (s * a[k] + t * b[k])) };
    let cloth = [corner(0.0, 1.0), corner(-0.87, -0.5), corner(0.87, -0.5)].concat();
    (p, boundary_triangles(&tets), cloth)
}

/// The box's corner through a cloth triangle: the self-contact terms hold a signed pair of the
/// corner vertex and the triangle, of negative gap, whose force pushes the cloth out along
/// the diagonal; the crossing counts among the shell–solid ones (the shells' guard does not
/// count it); and steps of the solver end with the cloth off the corner.
#[test]
fn a_solid_corner_through_cloth_is_pushed_out() {
    let (box_p, faces, cloth_p) = cloth_over_box_corner();
    let nb = box_p.len() as u32 / 3;
    let q: Vec<f64> = box_p.iter().chain(&cloth_p).copied().collect();
    let mesh = SelfContactMesh::with_solids(vec![[nb, nb + 1, nb + 2]], &faces, q.clone(), 0.001).unwrap();
    let crossings_at_start = mesh.crossings(&q);
    assert_eq!((crossings_at_start.shells, crossings_at_start.with_solids > 0), (0, true), "{crossings_at_start:?}");
    let law = ContactLaw {
        kappa: 1e6,
        delta: 0.001,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    };
    let mut fixed = vec![true; nb as usize];
    fixed.extend([false; 3]);
    let terms = self_contact(&mesh, law, &fixed, &q);
    let corner = (0..nb).find(|&v| (0..3).all(|k| box_p[3 * v as usize + k] == 0.1)).unwrap();
    let through: Vec<_> = terms
        .candidates()
        .iter()
        .filter(|p| p.vertices[0] == corner && p.distance(&gather::<12>(&p.vertices, &q)) < 0.0)
        .collect();
    assert_eq!(through.len(), 1, "the corner against the cloth triangle");
    assert!((through[0].distance(&gather::<12>(&through[0].vertices, &q)) + 3e-4).abs() < 1e-12);
    let mut g = vec![0.0; q.len()];
    terms.add_negative_force(&q, &vec![0.0; q.len()], 1.0, &mut g);
    let out: f64 = (0..3).flat_map(|i| (0..3).map(move |k| (i, k))).map(|(i, k)| -g[3 * (nb as usize + i) + k]).sum();
    assert!(out > 0.0 && energy(&terms, &q) > 0.0, "the force pushes the cloth out: {out}");

    assert_steps_push_the_cloth_out(&box_p, &faces, &cloth_p);
}

/// The self-contact term of `mesh` under `law` (shell–solid pairs by `solid_law`), padding
/// 2 mm, with `fixed` vertices, gathered at `q`.
fn self_contact<'a>(
    mesh: &'a SelfContactMesh,
    law: ContactLaw,
    fixed: &'a [bool],
    q: &'a [f64],
) -> ContactTerm<SelfPairs<'a>> {
    let stage = ContactStage {
        self_contact: Some(SelfContactStage { mesh, law, solid: solid_law(law), padding: 0.002 }),
        ..ContactStage::none(law, fixed, q)
    };
    ContactTerm::new(SelfPairs::of(&stage).expect("self-contact"), q, q)
}

/// W_c = Σ b(d) of the term's pairs at `q` (J).
fn energy(terms: &ContactTerm<SelfPairs>, q: &[f64]) -> f64 {
    use grip::energy::Element;
    terms.candidates().iter().map(|p| p.energy(&gather::<12>(&p.vertices, q))).sum()
}
