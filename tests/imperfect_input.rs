//! Imperfect input recovers: each scene starts in a state a stricter solver
//! would refuse, runs to the end without failing, says so in the report's warnings, and (where
//! the input penetrates) is out of contact penetration within a documented number of calls:
//!
//! - a cloth starting 30 % of the contact thickness δ inside a ground plane: resolved by the end
//!   of the first advance of 1/24 s;
//! - a sleeve (an open cylinder of cloth) starting with part of it inside the limb (a closed,
//!   host-animated collider mesh): resolved by the end of the first advance of 1/24 s
//!   ([`SLEEVE_CALLS`]), and staying out over the next two;
//! - a vertex pinned to a target inside a collider, and two pinned vertices of one edge with
//!   targets 3× their rest distance apart: both run to the end; the pins win.

use grip::mesh::generate::grid_cloth;
use grip::mesh::shapes::open_cylinder;
use grip::solver::VertexAttribute;
use grip::Warnings;
use grip::{ColliderMeshContact, Material, Solver, SolverParams};

/// Advances of 1/24 s within which the sleeve is out of the limb.
const SLEEVE_CALLS: usize = 1;
const FRAME: f64 = 1.0 / 24.0;

fn finite(s: &Solver, id: u32) -> bool {
    s.positions(id).unwrap().iter().chain(s.velocities(id).unwrap()).all(|x| x.is_finite())
}

fn plane(s: &mut Solver) -> u32 {
    s.add_collider_shape(&grip::contact::Shape::default()).unwrap()
}

#[test]
fn cloth_starting_inside_a_collider_by_30_percent_of_the_thickness_recovers() {
    let params = SolverParams::default();
    let delta = params.contact_thickness;
    let mut s = Solver::new(&params).unwrap();
    plane(&mut s);
    // A horizontal cloth (grid_cloth hangs in the x–z plane: lay it flat) at z = −0.3 δ.
    let (p, t) = grid_cloth(0.4, 0.4, 8, 8);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2] + 0.2, -0.3 * delta]).collect();
    let n = p.len() / 3;
    let cloth = s.add_shell(&p, &t, &Material::default()).unwrap();
    s.advance(FRAME).expect("the first frame runs to the end");
    let r = *s.report();
    println!("first frame: {r:?}");
    assert!(r.converged);
    assert!(r.warnings.intersects(Warnings::INITIAL_PENETRATION), "warnings {:#x}", r.warnings.bits());
    assert_eq!(r.initial_penetrations as usize, n, "every vertex started inside");
    assert!((r.initial_deepest_gap + 0.3 * delta).abs() < 1e-12, "initial gap {}", r.initial_deepest_gap);
    assert!(r.deepest_gap >= 0.0, "still penetrating after one frame: {}", r.deepest_gap);
    assert!(!r.warnings.intersects(Warnings::PENETRATION_REMAINS));
    for _ in 0..5 {
        s.advance(FRAME).unwrap();
        let r = s.report();
        assert!(r.deepest_gap >= 0.0 && r.initial_penetrations == 0, "{r:?}");
        assert!(!r.warnings.intersects(Warnings::INITIAL_PENETRATION | Warnings::PENETRATION_REMAINS));
    }
    assert!(finite(&s, cloth));
    let z_min = s.positions(cloth).unwrap().chunks_exact(3).map(|v| v[2]).fold(f64::INFINITY, f64::min);
    assert!(z_min >= 0.0 && z_min < delta, "resting within the contact layer, lowest z {z_min}");
}

/// A closed cylinder about the x axis from x0 to x1 (outward-facing triangles): the open
/// cylinder with a fan cap at each end.
fn closed_cylinder(radius: f64, x0: f64, x1: f64, around: usize, along: usize) -> (Vec<f64>, Vec<u32>) {
    let (mut p, mut t) = open_cylinder(radius, x0, x1, around, along);
    let first = (p.len() / 3) as u32;
    let last = first - around as u32;
    p.extend([x0, 0.0, 0.0, x1, 0.0, 0.0]);
    for i in 0..around as u32 {
        let j = (i + 1) % around as u32;
        t.extend([first, j, i]);
        t.extend([first + 1, last + i, last + j]);
    }
    (p, t)
}

#[test]
fn a_sleeve_starting_inside_the_limb_recovers() {
    // By exact distance (the default) the vertices inside are moved out before the first
    // substep; by the limb's smooth implicit surface the contact penalty pushes them out.
    for contact in [ColliderMeshContact::Exact, ColliderMeshContact::Implicit] {
        println!("{contact:?}:");
        sleeve_inside_the_limb(contact);
    }
}

fn sleeve_inside_the_limb(contact: ColliderMeshContact) {
    let params = SolverParams { contact_thickness: 2e-3, collider_mesh_contact: contact, ..Default::default() };
    let mut s = Solver::new(&params).unwrap();
    let (lp, lt) = closed_cylinder(0.05, -0.2, 0.2, 16, 6);
    let limb = s.add_collider_mesh(&lp, &lt).unwrap();
    // The sleeve (radius 6 cm) sits 2 cm low: its top is 1 cm inside the limb (radius 5 cm).
    let (sp, st) = open_cylinder(0.06, -0.12, 0.12, 16, 4);
    let sp: Vec<f64> = sp.chunks_exact(3).flat_map(|v| [v[0], v[1], v[2] - 0.02]).collect();
    let material = Material { density: 200.0, youngs_modulus: 1e5, thickness: 1e-3, ..Default::default() };
    let sleeve = s.add_shell(&sp, &st, &material).unwrap();
    let mut resolved_at = None;
    for call in 1..=3 {
        s.advance(FRAME).unwrap_or_else(|e| panic!("frame {call}: {e:?}"));
        let r = *s.report();
        println!(
            "frame {call}: warnings {:#x}, initial penetrations {}, initial gap {:.3e}, end gap {:.3e}, halvings {}, retries {}",
            r.warnings.bits(), r.initial_penetrations, r.initial_deepest_gap, r.deepest_gap, r.substep_halvings, r.contact_retries
        );
        if call == 1 {
            assert!(r.warnings.intersects(Warnings::INITIAL_PENETRATION));
            assert!(r.initial_penetrations > 0 && r.initial_deepest_gap < -5e-3, "{r:?}");
        }
        assert!(finite(&s, sleeve));
        if resolved_at.is_none() && r.deepest_gap >= 0.0 {
            resolved_at = Some(call);
        }
        if let Some(c) = resolved_at {
            assert!(r.deepest_gap >= 0.0, "penetration came back in frame {call} after resolving in frame {c}");
        }
    }
    let at = resolved_at.expect("the sleeve never left the limb");
    println!("sleeve out of the limb after {at} frame(s)");
    assert!(at <= SLEEVE_CALLS, "resolved only after {at} frames");
    let _ = limb;
}

#[test]
fn a_vertex_pinned_inside_a_collider_runs_to_the_end() {
    let mut s = Solver::new(&SolverParams::default()).unwrap();
    plane(&mut s);
    let (p, t) = grid_cloth(0.2, 0.2, 4, 4);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2] + 0.1, 0.05]).collect();
    let n = p.len() / 3;
    let cloth = s.add_shell(&p, &t, &Material::default()).unwrap();
    let mut pins = vec![0.0; n];
    pins[0] = 1.0;
    s.set_vertex_attribute(cloth, VertexAttribute::Pinned, &pins).unwrap();
    // Vertex 0 is driven 1 cm below the ground: the pin and the collider disagree.
    let mut target = p.clone();
    target[2] = -0.01;
    s.set_vertex_attribute(cloth, VertexAttribute::Target, &target).unwrap();
    for frame in 0..6 {
        s.advance(FRAME).unwrap_or_else(|e| panic!("frame {frame}: {e:?}"));
        assert!(finite(&s, cloth));
    }
    let r = *s.report();
    println!("{r:?}");
    assert!(r.warnings.intersects(Warnings::PINNED_IN_COLLIDER), "warnings {:#x}", r.warnings.bits());
    assert!((s.positions(cloth).unwrap()[2] + 0.01).abs() < 1e-12, "the pin wins");
    assert!(r.deepest_gap >= 0.0, "free vertices stay out: {}", r.deepest_gap);
}

#[test]
fn pins_with_incompatible_targets_run_to_the_end() {
    let mut s = Solver::new(&SolverParams::default()).unwrap();
    let (p, t) = grid_cloth(0.2, 0.2, 4, 4);
    let n = p.len() / 3;
    let cloth = s.add_shell(&p, &t, &Material::default()).unwrap();
    let mut pins = vec![0.0; n];
    pins[0] = 1.0;
    pins[1] = 1.0;
    s.set_vertex_attribute(cloth, VertexAttribute::Pinned, &pins).unwrap();
    // Vertices 0 and 1 share an edge of rest length 5 cm: targets 15 cm apart.
    let mut target = p.clone();
    target[0] -= 0.05;
    target[3] += 0.05;
    s.set_vertex_attribute(cloth, VertexAttribute::Target, &target).unwrap();
    s.advance(FRAME).expect("runs to the end");
    let r = *s.report();
    println!("{r:?}");
    assert!(r.warnings.intersects(Warnings::PIN_CONFLICT), "warnings {:#x}", r.warnings.bits());
    let x = s.positions(cloth).unwrap();
    assert!(x[0..6].iter().zip(&target[0..6]).all(|(a, b)| (a - b).abs() < 1e-12), "the pins win");
    assert!(finite(&s, cloth));
    for _ in 0..4 {
        s.advance(FRAME).unwrap();
        assert!(finite(&s, cloth));
    }
    // Without new targets the pins hold where they are: no conflict is reported any more.
    assert!(!s.report().warnings.intersects(Warnings::PIN_CONFLICT));
}
