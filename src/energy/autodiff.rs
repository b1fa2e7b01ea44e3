//! Exact element Hessians by forward-mode automatic differentiation of element gradients.

use nalgebra::{Const, SMatrix, U1};
use num_dual::{Derivative, DualSVec64};

/// Jacobian of `gradient` at `x`: one forward-mode pass with `D` dual directions.
///
/// `gradient` must be the exact gradient of an element energy, written generically over
/// [`super::real::Real`]; the result is then that energy's exact Hessian.
pub fn jacobian<const D: usize, G>(gradient: G, x: &[f64; D]) -> SMatrix<f64, D, D>
where
    G: Fn(&[DualSVec64<D>; D]) -> [DualSVec64<D>; D],
{
    let seeded: [DualSVec64<D>; D] =
        std::array::from_fn(|i| DualSVec64::new(x[i], Derivative::derivative_generic(Const::<D>, U1, i)));
    let g = gradient(&seeded);
    let mut h = SMatrix::<f64, D, D>::zeros();
    for (row, gi) in g.iter().enumerate() {
        let d = gi.eps.unwrap_generic(Const::<D>, U1);
        for col in 0..D {
            h[(row, col)] = d[col];
        }
    }
    h
}

/// Symmetrizes a Hessian in place: `(H + Hᵀ)/2` (removes round-off asymmetry of AD).
pub fn symmetrize<const D: usize>(h: &mut SMatrix<f64, D, D>) {
    for i in 0..D {
        for j in (i + 1)..D {
            let m = 0.5 * (h[(i, j)] + h[(j, i)]);
            h[(i, j)] = m;
            h[(j, i)] = m;
        }
    }
}

/// Projects a symmetric matrix onto the positive semi-definite cone by clamping negative
/// eigenvalues to zero (the modified Newton Jacobian; Rayleigh damping, so that damping never
/// injects energy).
pub fn project_psd<const D: usize>(h: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
    let eig = nalgebra::SymmetricEigen::new(nalgebra::DMatrix::from_column_slice(D, D, h.as_slice()));
    if eig.eigenvalues.iter().all(|&l| l >= 0.0) {
        return *h;
    }
    let lambda = eig.eigenvalues.map(|l| l.max(0.0));
    let p = &eig.eigenvectors * nalgebra::DMatrix::from_diagonal(&lambda) * eig.eigenvectors.transpose();
    SMatrix::<f64, D, D>::from_column_slice(p.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{SMatrix, SVector};

    /// Q diag(λ) Qᵀ for an orthogonal Q from the QR of a fixed pseudo-random matrix.
    fn with_eigenvalues(lambda: [f64; 6]) -> SMatrix<f64, 6, 6> {
        let a = SMatrix::<f64, 6, 6>::from_fn(|i, j| ((7 * i + 3 * j + 1) as f64 * 0.37).sin());
        let q = a.qr().q();
        q * SMatrix::from_diagonal(&SVector::from(lambda)) * q.transpose()
    }

    fn sorted_eigenvalues(m: &SMatrix<f64, 6, 6>) -> Vec<f64> {
        let mut e: Vec<f64> = nalgebra::SymmetricEigen::new(nalgebra::DMatrix::from_column_slice(6, 6, m.as_slice()))
            .eigenvalues
            .iter()
            .copied()
            .collect();
        e.sort_by(f64::total_cmp);
        e
    }

    #[test]
    fn positive_semi_definite_matrices_come_back_unchanged_up_to_round_off() {
        for lambda in [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.0, 0.0, 0.0, 1.0, 2.0, 3.0]] {
            let h = with_eigenvalues(lambda);
            assert!((project_psd(&h) - h).norm() < 1e-12 * h.norm());
        }
    }

    #[test]
    fn negative_eigenvalues_are_clamped_to_zero_and_the_rest_kept() {
        let h = with_eigenvalues([-3.0, -1e-3, 0.5, 1.0, 2.0, 4.0]);
        let e = sorted_eigenvalues(&project_psd(&h));
        let want = [0.0, 0.0, 0.5, 1.0, 2.0, 4.0];
        for (got, want) in e.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{e:?}");
        }
        // Slightly indefinite: still projected.
        let h = with_eigenvalues([-1e-9, 1.0, 1.0, 2.0, 3.0, 4.0]);
        assert!(sorted_eigenvalues(&project_psd(&h))[0] > -1e-14);
    }
}
