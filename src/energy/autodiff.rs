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
/// eigenvalues to zero (used for Rayleigh damping so that damping never injects energy).
pub fn project_psd<const D: usize>(h: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
    let eig = nalgebra::SymmetricEigen::new(nalgebra::DMatrix::from_column_slice(D, D, h.as_slice()));
    if eig.eigenvalues.iter().all(|&l| l >= 0.0) {
        return *h;
    }
    let lambda = eig.eigenvalues.map(|l| l.max(0.0));
    let p = &eig.eigenvectors * nalgebra::DMatrix::from_diagonal(&lambda) * eig.eigenvectors.transpose();
    SMatrix::<f64, D, D>::from_column_slice(p.as_slice())
}
