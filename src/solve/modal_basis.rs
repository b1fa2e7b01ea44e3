//! The lowest modes of a stiffness against the lumped mass: the s lowest eigenpairs of
//! A x = μ M x (A sparse and positive definite, M diagonal), by subspace iteration on the
//! inverse, X ← A⁻¹ M X, with Rayleigh–Ritz in the M-orthonormal block after every iteration
//! (Bathe and Wilson 1972; Golub and Van Loan §8.2.4). A block of p = max(2s, s + 8) vectors
//! finds repeated eigenvalues (a square beam's two bending directions) that single-vector
//! Lanczos misses, and converges at the rate μ_s/μ_{p+1} per iteration. A is factorized once by
//! faer's sparse LU; the small p × p problem is solved by nalgebra's symmetric
//! eigendecomposition. The start block is fixed, so the modes are the same on every run.
//!
//! Degrees of freedom with zero mass (pinned vertices) are left out: every mode is zero there.

use super::direct_lu::DirectLu;
use super::pattern::BlockPattern;
use crate::error::{Error, Result};
use nalgebra::{DMatrix, SymmetricEigen};

/// A Ritz pair counts as converged when ‖A x − μ M x‖ is below this times ‖A x‖.
const RITZ_TOLERANCE: f64 = 1e-8;
/// Most subspace iterations.
const MOST_ITERATIONS: usize = 300;

/// The lowest modes: M-orthonormal vectors (XᵀMX = I) and their eigenvalues μ, ascending.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModalBasis {
    /// Mode shapes, one vector of 3n entries each.
    pub vectors: Vec<Vec<f64>>,
    /// Eigenvalues μ of A x = μ M x, ascending.
    pub eigenvalues: Vec<f64>,
}

impl ModalBasis {
    /// The modal coordinates XᵀM x of `x`.
    pub fn coordinates(&self, mass: &[f64], x: &[f64]) -> Vec<f64> {
        self.vectors.iter().map(|xi| xi.iter().zip(mass).zip(x).map(|((a, m), b)| a * m * b).sum()).collect()
    }

    /// Σ cᵢ xᵢ for modal coordinates `c`.
    pub fn combine(&self, c: &[f64], n: usize) -> Vec<f64> {
        let mut out = vec![0.0; n];
        for (xi, ci) in self.vectors.iter().zip(c) {
            out.iter_mut().zip(xi).for_each(|(o, x)| *o += ci * x);
        }
        out
    }
}

fn m_dot(mass: &[f64], a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).zip(mass).map(|((x, y), m)| x * y * m).sum()
}

/// M-orthonormalizes `block` in place by modified Gram–Schmidt, twice; a vector that
/// vanishes against the others is replaced by a fixed new one.
fn m_orthonormalize(mass: &[f64], block: &mut [Vec<f64>]) {
    for j in 0..block.len() {
        for _ in 0..2 {
            for i in 0..j {
                let c = m_dot(mass, &block[j], &block[i]);
                let (head, tail) = block.split_at_mut(j);
                tail[0].iter_mut().zip(&head[i]).for_each(|(x, y)| *x -= c * y);
            }
        }
        let norm = m_dot(mass, &block[j], &block[j]).sqrt();
        block[j].iter_mut().for_each(|x| *x /= norm);
    }
}

/// The `count` lowest modes of A (values `values` in `pattern`) against the diagonal mass
/// `mass` (one entry per degree of freedom, 0 where it is left out); fewer when fewer degrees of
/// freedom have mass.
pub fn lowest_modes(pattern: &BlockPattern, values: &[f64], mass: &[f64], count: usize) -> Result<ModalBasis> {
    let n = mass.len();
    let free = mass.iter().filter(|m| **m > 0.0).count();
    let count = count.min(free);
    if count == 0 {
        return Ok(ModalBasis::default());
    }
    let p = (2 * count).max(count + 8).min(free);
    let mut lu = DirectLu::new(pattern)?;
    lu.factorize(values)?;
    // A fixed start block: a constant, then pseudo-random vectors, on the free entries.
    let mut block: Vec<Vec<f64>> = (0..p)
        .map(|j| {
            (0..n)
                .map(|d| {
                    let offset = if j == 0 { 1.0 } else { 0.5 };
                    let noise = ((d * 7919 + j * 104_729) % 1009) as f64 / 1009.0;
                    if mass[d] > 0.0 {
                        offset + noise
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    let mut ax = vec![0.0; n];
    for iteration in 1..=MOST_ITERATIONS {
        for x in block.iter_mut() {
            x.iter_mut().zip(mass).for_each(|(v, m)| *v *= m);
            lu.solve_in_place(x)?;
            x.iter_mut().zip(mass).for_each(|(v, m)| {
                if *m <= 0.0 {
                    *v = 0.0
                }
            });
        }
        m_orthonormalize(mass, &mut block);
        // Rayleigh–Ritz: Â = ZᵀAZ (symmetrized), ZᵀMZ = I.
        let products: Vec<Vec<f64>> = block
            .iter()
            .map(|z| {
                pattern.multiply(values, z, &mut ax);
                ax.clone()
            })
            .collect();
        let reduced = DMatrix::from_fn(p, p, |i, j| {
            let a: f64 = block[i].iter().zip(&products[j]).map(|(x, y)| x * y).sum();
            let b: f64 = block[j].iter().zip(&products[i]).map(|(x, y)| x * y).sum();
            0.5 * (a + b)
        });
        let e = SymmetricEigen::new(reduced);
        let mut order: Vec<usize> = (0..p).collect();
        order.sort_by(|&a, &b| e.eigenvalues[a].total_cmp(&e.eigenvalues[b]));
        let ritz: Vec<Vec<f64>> = order
            .iter()
            .map(|&c| {
                let mut x = vec![0.0; n];
                for (l, z) in block.iter().enumerate() {
                    x.iter_mut().zip(z).for_each(|(xi, zi)| *xi += e.eigenvectors[(l, c)] * zi);
                }
                x
            })
            .collect();
        let ritz_products: Vec<Vec<f64>> = order
            .iter()
            .map(|&c| {
                let mut y = vec![0.0; n];
                for (l, az) in products.iter().enumerate() {
                    y.iter_mut().zip(az).for_each(|(yi, ai)| *yi += e.eigenvectors[(l, c)] * ai);
                }
                y
            })
            .collect();
        let mu: Vec<f64> = order.iter().map(|&c| e.eigenvalues[c]).collect();
        let converged = (0..count).all(|i| {
            let r: f64 =
                (0..n).map(|d| (ritz_products[i][d] - mu[i] * mass[d] * ritz[i][d]).powi(2)).sum::<f64>().sqrt();
            let a: f64 = ritz_products[i].iter().map(|x| x * x).sum::<f64>().sqrt();
            r <= RITZ_TOLERANCE * a
        });
        block = ritz;
        if converged || iteration == MOST_ITERATIONS {
            if !converged {
                log::debug!("modal basis: not all {count} modes converged in {MOST_ITERATIONS} iterations");
            }
            if !(mu[0] > 0.0) {
                return Err(Error::NotConverged("modal basis: the stiffness is not positive definite".into()));
            }
            let vectors = block
                .into_iter()
                .take(count)
                .map(|mut x| {
                    // A fixed sign: the largest entry positive.
                    let largest = x.iter().fold(0.0f64, |a, v| if v.abs() > a.abs() { *v } else { a });
                    if largest < 0.0 {
                        x.iter_mut().for_each(|v| *v = -*v);
                    }
                    x
                })
                .collect();
            log::debug!("modal basis: {count} modes in {iteration} subspace iterations");
            return Ok(ModalBasis { vectors, eigenvalues: mu[..count].to_vec() });
        }
    }
    unreachable!("the loop returns at its last iteration")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain of `n` vertices (3 DOFs each) coupled by springs along x: a block pattern of
    /// neighbours, A = K + tiny shift, M = diag(m).
    #[test]
    fn finds_the_lowest_modes_of_a_spring_chain() {
        let n = 60;
        let edges: Vec<[u32; 2]> = (0..n as u32 - 1).map(|i| [i, i + 1]).collect();
        let pattern = BlockPattern::new(n, edges.iter().map(|e| &e[..]));
        // Fixed–fixed chain of unit springs and masses 1 + i/n: the same on every axis.
        let mass: Vec<f64> = (0..3 * n).map(|d| 1.0 + (d / 3) as f64 / n as f64).collect();
        let values = pattern.values_of(|r, c| {
            let (i, j) = (r / 3, c / 3);
            if r % 3 != c % 3 {
                0.0
            } else if i == j {
                2.0
            } else if i.abs_diff(j) == 1 {
                -1.0
            } else {
                0.0
            }
        });
        let basis = lowest_modes(&pattern, &values, &mass, 6).unwrap();
        // The dense generalized problem on one axis gives each eigenvalue three times.
        let k1 = DMatrix::from_fn(n, n, |i, j| match i.abs_diff(j) {
            0 => 2.0,
            1 => -1.0,
            _ => 0.0,
        });
        let m_inv_sqrt = DMatrix::from_fn(n, n, |i, j| if i == j { 1.0 / mass[3 * i].sqrt() } else { 0.0 });
        let mut dense: Vec<f64> =
            SymmetricEigen::new(&m_inv_sqrt * k1 * &m_inv_sqrt).eigenvalues.iter().copied().collect();
        dense.sort_by(f64::total_cmp);
        for (i, mu) in basis.eigenvalues.iter().enumerate() {
            assert!((mu - dense[i / 3]).abs() < 1e-9 * dense[i / 3].max(1.0), "mode {i}: {mu} vs {}", dense[i / 3]);
        }
        for (i, a) in basis.vectors.iter().enumerate() {
            for (j, b) in basis.vectors.iter().enumerate() {
                let expected = if i == j { 1.0 } else { 0.0 };
                assert!((m_dot(&mass, a, b) - expected).abs() < 1e-9);
            }
        }
    }
}
