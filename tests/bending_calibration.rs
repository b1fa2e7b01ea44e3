//! The hinge bending energy against the plate energy ½ k κ² per unit area for a sheet wrapped
//! on a cylinder of radius R (κ = 1/R): equilateral meshes in both orientations match it.

use grip::energy::dihedral_bending::BendingHinge;
use grip::energy::{gather, Element};
use grip::mesh::interior_hinges;

/// Equilateral triangle mesh of `nu × nv` points with side `l`, in the (u, v) plane;
/// `rotated` swaps the axes so that edges run along v instead of u.
fn equilateral(nu: usize, nv: usize, l: f64, rotated: bool) -> (Vec<[f64; 2]>, Vec<[u32; 3]>) {
    let h = l * 3f64.sqrt() / 2.0;
    let mut pts = Vec::new();
    for j in 0..nv {
        for i in 0..nu {
            let u = i as f64 * l + if j % 2 == 1 { l / 2.0 } else { 0.0 };
            let v = j as f64 * h;
            pts.push(if rotated { [v, u] } else { [u, v] });
        }
    }
    let idx = |i: usize, j: usize| (j * nu + i) as u32;
    let mut tris = Vec::new();
    for j in 0..nv - 1 {
        for i in 0..nu - 1 {
            if j % 2 == 0 {
                tris.push([idx(i, j), idx(i + 1, j), idx(i, j + 1)]);
                tris.push([idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)]);
            } else {
                tris.push([idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)]);
                tris.push([idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)]);
            }
        }
    }
    (pts, tris)
}

/// Ratio of the discrete bending energy to ½ k κ² × (area attributed to the hinges).
fn energy_ratio(rotated: bool) -> f64 {
    let (k, r, l) = (1e-3, 2.0, 0.02);
    let (uv, tris) = equilateral(40, 40, l, rotated);
    let flat: Vec<f64> = uv.iter().flat_map(|p| [p[0], p[1], 0.0]).collect();
    // Wrap u around a cylinder whose axis is along v.
    let wrapped: Vec<f64> =
        uv.iter().flat_map(|p| [r * (p[0] / r).sin(), p[1], r * (1.0 - (p[0] / r).cos())]).collect();
    let area = |q: &[f64], t: [u32; 3]| {
        let p = |i: u32| nalgebra::Vector3::new(q[3 * i as usize], q[3 * i as usize + 1], q[3 * i as usize + 2]);
        0.5 * (p(t[1]) - p(t[0])).cross(&(p(t[2]) - p(t[0]))).norm()
    };
    let (mut energy, mut hinge_area) = (0.0, 0.0);
    for hv in interior_hinges(&tris) {
        let rest = hv.map(|i| [flat[3 * i as usize], flat[3 * i as usize + 1], 0.0]);
        let h = BendingHinge::new(hv, rest, k).unwrap();
        energy += h.energy(&gather::<12>(&hv, &wrapped));
        hinge_area += (area(&flat, [hv[0], hv[1], hv[2]]) + area(&flat, [hv[1], hv[0], hv[3]])) / 3.0;
    }
    energy / (0.5 * k / (r * r) * hinge_area)
}

#[test]
fn equilateral_mesh_on_a_cylinder_matches_plate_energy() {
    for rotated in [false, true] {
        let ratio = energy_ratio(rotated);
        println!("rotated {rotated}: discrete / continuum = {ratio:.4}");
        assert!((ratio - 1.0).abs() < 0.03, "rotated {rotated}: ratio {ratio}");
    }
}
