//! Sparse LU of the (non-symmetric) Newton Jacobian with faer, reusing the symbolic
//! factorization while the pattern is unchanged.

use super::pattern::BlockPattern;
use crate::error::{Error, Result};
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Lu, SymbolicLu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use faer::MatMut;

/// faer's symbolic LU for one [`BlockPattern`].
pub struct DirectLu {
    symbolic_matrix: SymbolicSparseColMat<usize>,
    symbolic_lu: SymbolicLu<usize>,
    numeric: Option<Lu<usize, f64>>,
}

impl DirectLu {
    /// Symbolic analysis (fill-reducing ordering) of the pattern, done once.
    pub fn new(pattern: &BlockPattern) -> Result<Self> {
        let n = 3 * pattern.vertex_count;
        let symbolic_matrix =
            SymbolicSparseColMat::new_checked(n, n, pattern.col_ptr.clone(), None, pattern.row_idx.clone());
        let symbolic_lu = SymbolicLu::try_new(symbolic_matrix.as_ref())
            .map_err(|e| Error::NotConverged(format!("symbolic LU failed: {e:?}")))?;
        Ok(Self { symbolic_matrix, symbolic_lu, numeric: None })
    }

    /// Numeric factorization of the matrix with values `val` in the pattern.
    pub fn factorize(&mut self, val: &[f64]) -> Result<()> {
        let a = SparseColMatRef::new(self.symbolic_matrix.as_ref(), val);
        self.numeric = Some(
            Lu::try_new_with_symbolic(self.symbolic_lu.clone(), a)
                .map_err(|e| Error::NotConverged(format!("sparse LU failed (singular Jacobian?): {e:?}")))?,
        );
        Ok(())
    }

    /// Solves A x = b in place with the last factorization.
    pub fn solve_in_place(&self, b: &mut [f64]) -> Result<()> {
        let lu = self.numeric.as_ref().ok_or_else(|| Error::Panic("solve before factorize".into()))?;
        let n = b.len();
        lu.solve_in_place(MatMut::from_column_major_slice_mut(b, n, 1));
        Ok(())
    }
}
