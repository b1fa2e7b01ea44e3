//! The volume-change penalty (paper §3.4, Eq. 18–21): p(V) = −W′(V) for every model, its
//! gradient and Hessian (sparse part plus the dense rank-one term) against central differences
//! for a closed shell and a tet solid, and the matrix-free product of a step with volume
//! penalties against the assembled Jacobian with its low-rank terms and against differences.

mod common;
use common::Lcg;
use grip::assemble::contact::stage::ContactStage;
use grip::assemble::term::Term;
use grip::assemble::terms::Terms;
use grip::assemble::volume_terms::VolumeTerms;
use grip::assemble::SystemLayout;
use grip::assemble::{DampingMatrices, ImplicitStage};
use grip::energy::volume::*;
use grip::mesh::generate::box_tets;
use grip::mesh::shapes::icosphere;
use grip::model::Model;
use grip::solve::NonlinearSystem;
use grip::Material;

const ATM: f64 = 101_325.0;
const MODELS: [VolumeKind; 3] = [VolumeKind::Quadratic, VolumeKind::IdealGas, VolumeKind::NearlyIncompressible];

#[test]
fn over_pressure_is_minus_the_energy_derivative_and_stiffness_its_derivative() {
    for kind in MODELS {
        let m = VolumeModel::new(kind, 0.5 / ATM, 0.3 * ATM, 2e-3).unwrap();
        assert!(m.energy(2e-3).abs() < 1e-12, "W(V0) = 0");
        assert!((m.over_pressure(2e-3) - 0.3 * ATM).abs() < 1e-6 * ATM, "p(V0) = P");
        // Across the tangent extension of the logarithmic models (V < V0/10) too.
        for v in [1e-4, 3e-4, 1.5e-3, 2e-3, 2.7e-3, 5e-3] {
            let e = 1e-9;
            let dw = (m.energy(v + e) - m.energy(v - e)) / (2.0 * e);
            let p: f64 = m.over_pressure(v);
            assert!((dw + p).abs() <= 1e-6 * p.abs().max(ATM), "model {kind:?}, V {v}: W′ {dw} vs −p {}", -p);
            let dp = (m.over_pressure(v + e) - m.over_pressure(v - e)) / (2.0 * e);
            assert!((dp + m.stiffness(v)).abs() <= 1e-5 * dp.abs(), "model {kind:?}, V {v}: p′ {dp} vs −W″");
        }
    }
}

#[test]
fn ideal_gas_without_over_pressure_is_eq_18() {
    let (p0, v0) = (ATM, 1.0);
    let m = VolumeModel::new(VolumeKind::IdealGas, 1.0 / p0, 0.0, v0).unwrap();
    for v in [0.5, 0.9, 1.3] {
        let eq18 = p0 * (v - v0 * (1.0 + (v / v0).ln()));
        assert!((m.energy(v) - eq18).abs() < 1e-9 * p0);
    }
    let m = VolumeModel::new(VolumeKind::NearlyIncompressible, 1.0 / p0, 0.0, v0).unwrap();
    for v in [0.5, 0.9, 1.3] {
        let eq19 = p0 * (v0 - v * (1.0 - (v / v0).ln()));
        assert!((m.energy(v) - eq19).abs() < 1e-9 * p0);
    }
}

/// A closed icosphere shell and a tet box, each with a volume penalty of `kind`.
fn model(kind: VolumeKind) -> Model {
    let mut m = Model::default();
    let (p, t) = icosphere(0.1, 1);
    let shell = Material { damping_beta: 0.0, ..Default::default() };
    let a = m.add_shell(&p, &t, &shell).unwrap();
    let (pb, tb) = box_tets([0.2, 0.1, 0.1], [2, 1, 1], [0.3, 0.0, 0.0]);
    let b = m.add_solid(&pb, &tb, &Material { youngs_modulus: 1e4, ..Default::default() }).unwrap();
    let q: Vec<f64> = m.rest.iter().flatten().copied().collect();
    m.set_volume_penalty(a, Some(kind), 2.0 / ATM, 0.5 * ATM, &q).unwrap();
    m.set_volume_penalty(b, Some(kind), 0.1 / ATM, 0.0, &q).unwrap();
    m
}

fn perturbed(m: &Model, rng: &mut Lcg, amount: f64) -> Vec<f64> {
    m.rest.iter().flatten().map(|x| x + rng.range(-amount, amount)).collect()
}

#[test]
fn gradient_and_hessian_match_central_differences() {
    for kind in MODELS {
        let m = model(kind);
        let terms = VolumeTerms { penalties: &m.volumes };
        let layout = SystemLayout::new(&m, &[]);
        let mut rng = Lcg(5 + grip::capi::codes::volume_code(Some(kind)) as u64);
        let q = perturbed(&m, &mut rng, 0.01);
        let n = q.len();
        let grad = |q: &[f64]| {
            let mut g = vec![0.0; n];
            terms.add_gradient(q, 1.0, &mut g);
            g
        };
        let g = grad(&q);
        let gmax = g.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let e = 1e-6;
        for d in 0..n {
            let (mut qp, mut qm) = (q.clone(), q.clone());
            qp[d] += e;
            qm[d] -= e;
            let fd = (terms.energy(&qp) - terms.energy(&qm)) / (2.0 * e);
            assert!((fd - g[d]).abs() < 1e-6 * gmax, "model {kind:?}: ∂W/∂q[{d}] {} vs FD {fd}", g[d]);
        }
        let fixed = vec![false; m.vertex_count()];
        let mut jac = vec![0.0; layout.pattern.nnz()];
        terms.add_sparse_hessian(&layout, &q, 1.0, false, &fixed, &mut jac);
        let low = terms.low_rank(&q, 1.0, &fixed);
        assert_eq!(low.len(), 2);
        for _ in 0..3 {
            let x: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
            let mut hx = vec![0.0; n];
            layout.pattern.multiply(&jac, &x, &mut hx);
            for (c, u) in &low {
                let s = c * u.iter().zip(&x).map(|(a, b)| a * b).sum::<f64>();
                hx.iter_mut().zip(u).for_each(|(h, ui)| *h += s * ui);
            }
            let qp: Vec<f64> = q.iter().zip(&x).map(|(a, b)| a + e * b).collect();
            let qm: Vec<f64> = q.iter().zip(&x).map(|(a, b)| a - e * b).collect();
            let fd: Vec<f64> = grad(&qp).iter().zip(grad(&qm)).map(|(a, b)| (a - b) / (2.0 * e)).collect();
            let scale = fd.iter().fold(0.0f64, |a, b| a.max(b.abs()));
            let err = hx.iter().zip(&fd).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(err < 1e-5 * scale, "model {kind:?}: ∇²W x differs from FD by {err:e} (scale {scale:e})");
        }
    }
}

#[test]
fn matrix_free_product_includes_the_dense_term() {
    for kind in MODELS {
        let m = model(kind);
        let layout = SystemLayout::new(&m, &[]);
        let mut rng = Lcg(17 + grip::capi::codes::volume_code(Some(kind)) as u64);
        let q0 = perturbed(&m, &mut rng, 0.005);
        let n = q0.len();
        let v0: Vec<f64> = (0..n).map(|_| rng.range(-0.3, 0.3)).collect();
        let mut fixed = vec![false; m.vertex_count()];
        fixed[0] = true;
        let v_fixed = vec![0.0; n];
        let damping = DampingMatrices::new(&m, &q0);
        let law = grip::SolverParams::default().contact_law(1.0);
        let terms = Terms::new(&m, &damping, &ContactStage::none(law, &fixed, &q0), &q0);
        let mut be = ImplicitStage::new(&m, &layout, &q0, &v0, 0.01, [0.0, 0.0, -9.81], &fixed, &v_fixed, terms);
        let v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.2, 0.2)).collect();
        // Pinned columns are eliminated: compare along directions that leave pins alone.
        let x: Vec<f64> = (0..n).map(|d| if fixed[d / 3] { 0.0 } else { rng.range(-1.0, 1.0) }).collect();
        let mut product = vec![0.0; n];
        assert!(be.jacobian_product(&v, &x, &mut product));
        let mut jac = vec![0.0; layout.pattern.nnz()];
        be.jacobian(&v, &mut jac);
        let mut assembled = vec![0.0; n];
        layout.pattern.multiply(&jac, &x, &mut assembled);
        for (c, u) in be.low_rank(&v) {
            let s = c * u.iter().zip(&x).map(|(a, b)| a * b).sum::<f64>();
            assembled.iter_mut().zip(&u).for_each(|(h, ui)| *h += s * ui);
        }
        let e = 1e-7;
        let (mut rp, mut rm) = (vec![0.0; n], vec![0.0; n]);
        be.residual(&v.iter().zip(&x).map(|(a, b)| a + e * b).collect::<Vec<_>>(), &mut rp);
        be.residual(&v.iter().zip(&x).map(|(a, b)| a - e * b).collect::<Vec<_>>(), &mut rm);
        let scale = product.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        for d in (0..n).filter(|d| !fixed[d / 3]) {
            let fd = (rp[d] - rm[d]) / (2.0 * e);
            assert!(
                (product[d] - fd).abs() < 1e-6 * scale,
                "model {kind:?}: (Jx)[{d}] {} vs FD {fd}, assembled {}, scale {scale}",
                product[d],
                assembled[d]
            );
            assert!((product[d] - assembled[d]).abs() < 1e-9 * scale, "model {kind:?}: AD vs assembled at {d}");
        }
    }
}

#[test]
fn open_shells_and_bad_parameters_are_refused() {
    let mut m = Model::default();
    let (p, t) = grip::mesh::generate::grid_cloth(0.3, 0.3, 3, 3);
    let id = m.add_shell(&p, &t, &Material::default()).unwrap();
    let q: Vec<f64> = m.rest.iter().flatten().copied().collect();
    assert!(m.set_volume_penalty(id, Some(VolumeKind::Quadratic), 1e-5, 0.0, &q).is_err());
    let mut m = model(VolumeKind::Quadratic);
    let q: Vec<f64> = m.rest.iter().flatten().copied().collect();
    assert!(grip::capi::codes::volume(9).is_none(), "an unknown volume model code is refused");
    assert!(m.set_volume_penalty(1, Some(VolumeKind::Quadratic), 0.0, 0.0, &q).is_err());
    assert!(m.set_volume_penalty(1, Some(VolumeKind::Quadratic), f64::NAN, 0.0, &q).is_err());
    assert!(m.set_volume_penalty(1, Some(VolumeKind::IdealGas), 1.0 / ATM, 2.0 * ATM, &q).is_err());
    assert_eq!(m.volumes.len(), 2, "a refused call changes nothing");
    m.set_volume_penalty(1, None, 0.0, 0.0, &q).unwrap();
    assert_eq!(m.volumes.len(), 1);
}
