//! Exact element Hessians by forward-mode automatic differentiation of element gradients.

use nalgebra::{Const, SMatrix, SVector, U1};
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

/// Relative diagonal shift under which a matrix whose Cholesky factorization succeeds counts
/// as positive semi-definite in [`project_psd`] (its eigenvalues are then ≥ −10⁻¹² max |h_ii|).
const PSD_TEST_SHIFT: f64 = 1e-12;

/// Projects a symmetric matrix onto the positive semi-definite cone by clamping negative
/// eigenvalues to zero (the modified Newton Jacobian; Rayleigh damping, so that damping never
/// injects energy). A matrix that a Cholesky factorization (after a diagonal shift of
/// 10⁻¹² of its largest diagonal entry) shows to be definite is returned as is,
/// without an eigendecomposition. nalgebra's `SymmetricEigen` returns NaN for some matrices with
/// zero rows (dimforge/nalgebra#379; a flat, axis-aligned bending hinge at rest gives one);
/// then the cyclic Jacobi method ([`jacobi_eigen`]) decomposes it instead.
pub fn project_psd<const D: usize>(h: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
    if !h.iter().all(|x| x.is_finite()) {
        return *h;
    }
    let shift = PSD_TEST_SHIFT * h.diagonal().amax();
    if nalgebra::Cholesky::new(h + SMatrix::<f64, D, D>::identity() * shift).is_some() {
        return *h;
    }
    let (values, vectors) = match symmetric_eigen(h) {
        Some(eig) => eig,
        None => jacobi_eigen(h),
    };
    if values.iter().all(|&l| l >= 0.0) {
        return *h;
    }
    let clamped = SMatrix::<f64, D, D>::from_diagonal(&values.map(|l| l.max(0.0)));
    vectors * clamped * vectors.transpose()
}

/// Eigenvalues and eigenvectors (columns) of a symmetric matrix by nalgebra's `SymmetricEigen`
/// (Householder tridiagonalization and implicit QR), on the stack for the element sizes (6, 9,
/// 12); `None` when a value is not finite.
fn symmetric_eigen<const D: usize>(h: &SMatrix<f64, D, D>) -> Option<(SVector<f64, D>, SMatrix<f64, D, D>)> {
    macro_rules! fixed {
        ($n:literal) => {
            if D == $n {
                let e = SMatrix::<f64, $n, $n>::from_column_slice(h.as_slice()).symmetric_eigen();
                return finite(e.eigenvalues.as_slice(), e.eigenvectors.as_slice());
            }
        };
    }
    fn finite<const D: usize>(values: &[f64], vectors: &[f64]) -> Option<(SVector<f64, D>, SMatrix<f64, D, D>)> {
        values
            .iter()
            .chain(vectors)
            .all(|x| x.is_finite())
            .then(|| (SVector::<f64, D>::from_column_slice(values), SMatrix::<f64, D, D>::from_column_slice(vectors)))
    }
    fixed!(6);
    fixed!(9);
    fixed!(12);
    let e = nalgebra::SymmetricEigen::new(nalgebra::DMatrix::from_column_slice(D, D, h.as_slice()));
    finite(e.eigenvalues.as_slice(), e.eigenvectors.as_slice())
}

/// Eigenvalues and eigenvectors (columns) of a symmetric matrix by the cyclic Jacobi method
/// (Golub & Van Loan §8.5): plane rotations annihilate each off-diagonal entry in turn until
/// the off-diagonal norm is below 10⁻¹⁵ of the matrix norm (at most 50 sweeps). Slower than
/// QR on a tridiagonal form but robust for any finite input, zero rows included.
pub fn jacobi_eigen<const D: usize>(h: &SMatrix<f64, D, D>) -> (SVector<f64, D>, SMatrix<f64, D, D>) {
    let mut a = (h + h.transpose()) * 0.5;
    let mut v = SMatrix::<f64, D, D>::identity();
    let scale = a.norm();
    for _sweep in 0..50 {
        let off: f64 = (0..D)
            .flat_map(|i| (0..D).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[(i, j)].powi(2))
            .sum();
        if !(off.sqrt() > 1e-15 * scale) {
            break;
        }
        for p in 0..D {
            for q in (p + 1)..D {
                let apq = a[(p, q)];
                if apq == 0.0 {
                    continue;
                }
                // Rotation angle that zeroes a_pq: t = tan θ of the smaller root.
                let theta = (a[(q, q)] - a[(p, p)]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..D {
                    let (akp, akq) = (a[(k, p)], a[(k, q)]);
                    a[(k, p)] = c * akp - s * akq;
                    a[(k, q)] = s * akp + c * akq;
                }
                for k in 0..D {
                    let (apk, aqk) = (a[(p, k)], a[(q, k)]);
                    a[(p, k)] = c * apk - s * aqk;
                    a[(q, k)] = s * apk + c * aqk;
                }
                for k in 0..D {
                    let (vkp, vkq) = (v[(k, p)], v[(k, q)]);
                    v[(k, p)] = c * vkp - s * vkq;
                    v[(k, q)] = s * vkp + c * vkq;
                }
            }
        }
    }
    (a.diagonal(), v)
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

    /// A flat bending hinge's Hessian (captured from the cloth-fold test, where nalgebra's
    /// SymmetricEigen returned NaN for it and the damping matrix became NaN): the projection is
    /// finite, PSD and, as the matrix is PSD (rank one), equal to it.
    #[test]
    fn the_flat_hinge_matrix_nalgebra_fails_on_is_projected() {
        let h = SMatrix::<f64, 12, 12>::from_column_slice(&FLAT_HINGE);
        let p = project_psd(&h);
        assert!(p.iter().all(|x| x.is_finite()));
        assert!((p - h).norm() < 1e-12 * h.norm(), "{:e}", (p - h).norm());
        let (values, vectors) = jacobi_eigen(&h);
        let back = vectors * SMatrix::<f64, 12, 12>::from_diagonal(&values) * vectors.transpose();
        assert!((back - h).norm() < 1e-13 * h.norm());
        assert!((vectors.transpose() * vectors - SMatrix::<f64, 12, 12>::identity()).norm() < 1e-13);
    }

    #[test]
    fn jacobi_agrees_with_the_qr_decomposition() {
        let h = with_eigenvalues([-3.0, -1e-3, 0.5, 1.0, 2.0, 4.0]);
        let (values, _) = jacobi_eigen(&h);
        let mut got: Vec<f64> = values.iter().copied().collect();
        got.sort_by(f64::total_cmp);
        for (g, w) in got.iter().zip(sorted_eigenvalues(&h)) {
            assert!((g - w).abs() < 1e-13, "{got:?}");
        }
    }

    const FLAT_HINGE: [f64; 144] = [
        0.0,
        0.0,
        0.0,
        0.0,
        -0.0,
        0.0,
        0.0,
        0.0,
        -0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        3.3043992557547127e-32,
        -1.7316877098938485e-16,
        0.0,
        3.3043992557547127e-32,
        -1.7316877098938485e-16,
        0.0,
        -3.3043992557547127e-32,
        1.7316877098938485e-16,
        0.0,
        -3.3043992557547127e-32,
        1.7316877098938485e-16,
        0.0,
        -1.7316877098938485e-16,
        0.9074999999999998,
        0.0,
        -1.7316877098938485e-16,
        0.9074999999999998,
        0.0,
        1.7316877098938485e-16,
        -0.9074999999999999,
        0.0,
        1.7316877098938485e-16,
        -0.9074999999999999,
        0.0,
        0.0,
        0.0,
        0.0,
        -0.0,
        0.0,
        0.0,
        0.0,
        -0.0,
        0.0,
        0.0,
        0.0,
        -0.0,
        3.3043992557547127e-32,
        -1.7316877098938485e-16,
        -0.0,
        3.3043992557547127e-32,
        -1.7316877098938485e-16,
        0.0,
        -3.3043992557547127e-32,
        1.7316877098938485e-16,
        0.0,
        -3.3043992557547127e-32,
        1.7316877098938485e-16,
        0.0,
        -1.7316877098938485e-16,
        0.9074999999999998,
        0.0,
        -1.7316877098938485e-16,
        0.9074999999999998,
        0.0,
        1.7316877098938485e-16,
        -0.9074999999999999,
        0.0,
        1.7316877098938485e-16,
        -0.9074999999999999,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -3.3043992557547127e-32,
        1.7316877098938485e-16,
        0.0,
        -3.3043992557547127e-32,
        1.7316877098938485e-16,
        0.0,
        3.3043992557547127e-32,
        -1.7316877098938485e-16,
        0.0,
        3.3043992557547127e-32,
        -1.7316877098938485e-16,
        -0.0,
        1.7316877098938485e-16,
        -0.9074999999999999,
        -0.0,
        1.7316877098938485e-16,
        -0.9074999999999999,
        0.0,
        -1.7316877098938485e-16,
        0.9075,
        0.0,
        -1.7316877098938485e-16,
        0.9075,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -3.3043992557547127e-32,
        1.7316877098938485e-16,
        0.0,
        -3.3043992557547127e-32,
        1.7316877098938485e-16,
        0.0,
        3.3043992557547127e-32,
        -1.7316877098938485e-16,
        0.0,
        3.3043992557547127e-32,
        -1.7316877098938485e-16,
        0.0,
        1.7316877098938485e-16,
        -0.9074999999999999,
        0.0,
        1.7316877098938485e-16,
        -0.9074999999999999,
        0.0,
        -1.7316877098938485e-16,
        0.9075,
        0.0,
        -1.7316877098938485e-16,
        0.9075,
    ];

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
