//! Sparse Cholesky L Lᵀ with faer (supernodal, fill-reducing ordering), the symbolic analysis
//! reused while the pattern is unchanged: the preconditioner of the iterative linear solver.
//! Only the lower triangle of the (structurally symmetric) pattern's values is read.

use super::pattern::BlockPattern;
use crate::error::{Error, Result};
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Llt, SymbolicLlt};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use faer::{MatMut, Side};

/// faer's Cholesky of matrices in one [`BlockPattern`].
pub struct SparseCholesky {
    symbolic_matrix: SymbolicSparseColMat<usize>,
    symbolic: SymbolicLlt<usize>,
    numeric: Option<Llt<usize, f64>>,
}

impl SparseCholesky {
    /// Symbolic analysis of the pattern's lower triangle, done once per pattern.
    pub fn new(pattern: &BlockPattern) -> Result<Self> {
        let n = 3 * pattern.vertex_count;
        let symbolic_matrix =
            SymbolicSparseColMat::new_checked(n, n, pattern.col_ptr.clone(), None, pattern.row_idx.clone());
        let symbolic = SymbolicLlt::try_new(symbolic_matrix.as_ref(), Side::Lower)
            .map_err(|e| Error::NotConverged(format!("symbolic Cholesky failed: {e:?}")))?;
        Ok(Self { symbolic_matrix, symbolic, numeric: None })
    }

    /// Numeric factorization of the symmetric positive definite matrix with values `val` (only
    /// entries with row ≥ column are read); fails when it is not positive definite.
    pub fn factorize(&mut self, val: &[f64]) -> Result<()> {
        let a = SparseColMatRef::new(self.symbolic_matrix.as_ref(), val);
        self.numeric = Some(
            Llt::try_new_with_symbolic(self.symbolic.clone(), a, Side::Lower)
                .map_err(|e| Error::NotConverged(format!("sparse Cholesky failed (not positive definite?): {e:?}")))?,
        );
        Ok(())
    }

    /// Solves A x = b in place with the last factorization.
    pub fn solve_in_place(&self, b: &mut [f64]) -> Result<()> {
        let llt = self.numeric.as_ref().ok_or_else(|| Error::Panic("solve before factorize".into()))?;
        let n = b.len();
        llt.solve_in_place(MatMut::from_column_major_slice_mut(b, n, 1));
        Ok(())
    }
}
