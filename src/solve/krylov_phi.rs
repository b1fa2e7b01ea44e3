//! The product φ₁(B) b of the exponential integrators (Ascher et al. 2022 Eq. 18b,
//! φ₁(Z) = Z⁻¹(eᶻ − I)) for a large operator B known only through products B x, by Krylov
//! subspaces with time stepping in the manner of Niesen and Wright (2012, "phipm"):
//!
//! w(t) = t φ₁(tB) b solves w′ = B w + b, w(0) = 0, so w(1) = φ₁(B) b, and over a substep τ
//! w(t + τ) = w(t) + τ φ₁(τB) r(t), r(t) = B w(t) + b. Each substep builds the Arnoldi basis
//! V_m, H_m of r(t) and takes τ φ₁(τB) r ≈ ‖r‖ V_m τ φ₁(τH_m) e₁, the small product read off the
//! exponential of the augmented matrix [[τH_m, τe₁], [0, 0]] (its last column; Saad 1992,
//! Al-Mohy and Higham 2011), by nalgebra's scaling-and-squaring Padé exponential. The error of
//! the substep is estimated by ‖r‖ h_{m+1,m} |e_mᵀ τ φ₁(τH_m) e₁| (the residual of the Krylov
//! approximation integrated over the substep); the basis grows until the estimate is below
//! `tolerance`·τ, and when the largest basis is not enough τ is halved, so the whole error stays
//! near `tolerance`.

use crate::error::{Error, Result};
use nalgebra::DMatrix;

/// Basis sizes at which the error estimate is checked before the basis grows further.
const CHECK_EVERY: usize = 4;
/// Smallest substep (a fraction of the unit interval) before the product gives up.
const SMALLEST_SUBSTEP: f64 = 1e-6;

/// What one product cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhiStats {
    /// Products with B.
    pub products: u32,
    /// Substeps of the unit interval.
    pub substeps: u32,
    /// Largest Krylov basis built.
    pub largest_basis: u32,
}

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// τ φ₁(τH) e₁ for the leading m × m block of the Hessenberg matrix `h`.
fn small_phi(h: &DMatrix<f64>, m: usize, tau: f64) -> Vec<f64> {
    let mut a = DMatrix::<f64>::zeros(m + 1, m + 1);
    for i in 0..m {
        for j in 0..m {
            a[(i, j)] = tau * h[(i, j)];
        }
    }
    a[(0, m)] = tau;
    let e = a.exp();
    (0..m).map(|i| e[(i, m)]).collect()
}

/// φ₁(B) b to about `tolerance` in the 2-norm (same unit as b), with Krylov bases of at most
/// `max_basis` vectors; `apply(x, y)` sets y = B x. Fails when the result is not finite or the
/// substeps shrink below 10⁻⁶ of the interval.
pub fn phi1_product(
    apply: &mut dyn FnMut(&[f64], &mut [f64]),
    b: &[f64],
    tolerance: f64,
    max_basis: usize,
) -> Result<(Vec<f64>, PhiStats)> {
    let n = b.len();
    let max_basis = max_basis.clamp(1, n.max(1));
    let mut stats = PhiStats::default();
    let mut w = vec![0.0; n];
    let (mut t, mut tau) = (0.0f64, 1.0f64);
    let mut r = b.to_vec();
    let mut bw = vec![0.0; n];
    while t < 1.0 {
        if t > 0.0 {
            apply(&w, &mut bw);
            stats.products += 1;
            r.iter_mut().zip(b.iter().zip(&bw)).for_each(|(ri, (bi, x))| *ri = bi + x);
        }
        let beta = norm(&r);
        if beta == 0.0 {
            break;
        }
        tau = tau.min(1.0 - t);
        let mut basis: Vec<Vec<f64>> = vec![r.iter().map(|x| x / beta).collect()];
        let mut hess = DMatrix::<f64>::zeros(max_basis + 1, max_basis);
        let mut z = vec![0.0; n];
        let mut m = 0;
        let mut accepted = None;
        while m < max_basis {
            apply(&basis[m], &mut z);
            stats.products += 1;
            // Modified Gram–Schmidt, twice (the operator is far from normal).
            for _ in 0..2 {
                for (i, vi) in basis.iter().enumerate() {
                    let c = dot(vi, &z);
                    hess[(i, m)] += c;
                    z.iter_mut().zip(vi).for_each(|(zk, vk)| *zk -= c * vk);
                }
            }
            let hn = norm(&z);
            hess[(m + 1, m)] = hn;
            m += 1;
            let breakdown = hn <= 1e-13 * beta.max(hess.norm());
            if !breakdown {
                basis.push(z.iter().map(|x| x / hn).collect());
            }
            if breakdown || m % CHECK_EVERY == 0 || m == max_basis {
                let y = small_phi(&hess, m, tau);
                let error = if breakdown { 0.0 } else { beta * hn * y[m - 1].abs() };
                if error <= tolerance * tau {
                    accepted = Some(y);
                    break;
                }
                if breakdown {
                    break;
                }
            }
        }
        stats.largest_basis = stats.largest_basis.max(m as u32);
        let y = match accepted {
            Some(y) => y,
            None => loop {
                // The largest basis is not enough for τ: shrink τ on the same basis.
                tau *= 0.5;
                if tau < SMALLEST_SUBSTEP {
                    return Err(Error::NotConverged(format!(
                        "the Krylov φ₁ product needs substeps below {SMALLEST_SUBSTEP:e} of the step \
                         ({} products)",
                        stats.products
                    )));
                }
                let y = small_phi(&hess, m, tau);
                let error = beta * hess[(m, m - 1)] * y[m - 1].abs();
                if error <= tolerance * tau {
                    break y;
                }
            },
        };
        for (j, yj) in y.iter().enumerate() {
            w.iter_mut().zip(&basis[j]).for_each(|(wk, vk)| *wk += beta * yj * vk);
        }
        t += tau;
        stats.substeps += 1;
        // A substep that needed the whole basis stays; one that converged early may grow.
        if m < max_basis {
            tau *= 2.0;
        }
        if 1.0 - t < 1e-12 {
            break;
        }
    }
    if w.iter().any(|x| !x.is_finite()) {
        return Err(Error::NotConverged("the Krylov φ₁ product is not finite".into()));
    }
    Ok((w, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// φ₁(B) b of a dense B, by the augmented exponential at full size.
    fn dense_phi1(b_mat: &DMatrix<f64>, b: &[f64]) -> Vec<f64> {
        let n = b.len();
        let mut a = DMatrix::<f64>::zeros(n + 1, n + 1);
        a.view_mut((0, 0), (n, n)).copy_from(b_mat);
        for i in 0..n {
            a[(i, n)] = b[i];
        }
        let e = a.exp();
        (0..n).map(|i| e[(i, n)]).collect()
    }

    /// A stiff damped oscillator chain of `n` masses: u = (q, v), B = [[0, I], [−ω²L, −cI]].
    fn chain(n: usize, stiffness: f64) -> DMatrix<f64> {
        let mut b = DMatrix::<f64>::zeros(2 * n, 2 * n);
        for i in 0..n {
            b[(i, n + i)] = 1.0;
            b[(n + i, i)] = -2.0 * stiffness;
            if i > 0 {
                b[(n + i, i - 1)] = stiffness;
            }
            if i + 1 < n {
                b[(n + i, i + 1)] = stiffness;
            }
            b[(n + i, n + i)] = -0.1;
        }
        b
    }

    #[test]
    fn matches_the_dense_product_on_a_stiff_oscillator_chain() {
        for stiffness in [1.0, 100.0, 10_000.0] {
            let n = 40;
            let b_mat = chain(n, stiffness);
            let b: Vec<f64> = (0..2 * n).map(|i| ((i * 7 % 11) as f64 - 5.0) / 5.0).collect();
            let exact = dense_phi1(&b_mat, &b);
            let mut apply = |x: &[f64], y: &mut [f64]| {
                let r = &b_mat * nalgebra::DVector::from_column_slice(x);
                y.copy_from_slice(r.as_slice());
            };
            let tolerance = 1e-9 * norm(&b);
            let (w, stats) = phi1_product(&mut apply, &b, tolerance, 30).unwrap();
            let error = norm(&w.iter().zip(&exact).map(|(a, b)| a - b).collect::<Vec<_>>());
            assert!(error < 20.0 * tolerance, "stiffness {stiffness}: error {error:e}, {stats:?}");
            assert!(stats.largest_basis <= 30);
        }
    }

    #[test]
    fn a_zero_vector_costs_nothing() {
        let mut apply = |_: &[f64], _: &mut [f64]| panic!("no product expected");
        let (w, stats) = phi1_product(&mut apply, &[0.0; 6], 1e-9, 10).unwrap();
        assert_eq!((w, stats.products), (vec![0.0; 6], 0));
    }
}
