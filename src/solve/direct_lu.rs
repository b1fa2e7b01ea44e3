//! Sparse LU of the (non-symmetric) Newton Jacobian with faer, reusing the symbolic
//! factorization while the pattern is unchanged, and the numeric factors' storage and the
//! scratch memory from one factorization to the next (a Newton solve factorizes every
//! iteration; on small scenes allocating them anew cost a tenth of the step).

use super::pattern::BlockPattern;
use crate::error::{Error, Result};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::lu::{factorize_symbolic_lu, LuRef, NumericLu, SymbolicLu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use faer::{Conj, MatMut, Par};

/// faer's symbolic LU for one [`BlockPattern`], with the numeric factors of the last
/// [`DirectLu::factorize`].
pub struct DirectLu {
    symbolic_matrix: SymbolicSparseColMat<usize>,
    symbolic_lu: SymbolicLu<usize>,
    numeric: NumericLu<usize, f64>,
    factorized: bool,
    factorize_scratch: MemBuffer,
    solve_scratch: MemBuffer,
}

impl DirectLu {
    /// Symbolic analysis (fill-reducing ordering) of the pattern, done once.
    pub fn new(pattern: &BlockPattern) -> Result<Self> {
        let n = 3 * pattern.vertex_count;
        let symbolic_matrix =
            SymbolicSparseColMat::new_checked(n, n, pattern.col_ptr.clone(), None, pattern.row_idx.clone());
        let symbolic_lu = factorize_symbolic_lu(symbolic_matrix.as_ref(), Default::default())
            .map_err(|e| Error::NotConverged(format!("symbolic LU failed: {e:?}")))?;
        let scratch = |req| MemBuffer::try_new(req).map_err(|e| Error::NotConverged(format!("LU scratch: {e:?}")));
        let factorize_scratch = scratch(symbolic_lu.factorize_numeric_lu_scratch::<f64>(Par::Seq, Default::default()))?;
        let solve_scratch = scratch(symbolic_lu.solve_in_place_scratch::<f64>(1, Par::Seq))?;
        Ok(Self {
            symbolic_matrix,
            symbolic_lu,
            numeric: NumericLu::new(),
            factorized: false,
            factorize_scratch,
            solve_scratch,
        })
    }

    /// Numeric factorization of the matrix with values `val` in the pattern (sequential: the
    /// factors, and so every result, do not depend on the thread count).
    pub fn factorize(&mut self, val: &[f64]) -> Result<()> {
        self.factorized = false;
        let a = SparseColMatRef::new(self.symbolic_matrix.as_ref(), val);
        self.symbolic_lu
            .factorize_numeric_lu(
                &mut self.numeric,
                a,
                Par::Seq,
                MemStack::new(&mut self.factorize_scratch),
                Default::default(),
            )
            .map_err(|e| Error::NotConverged(format!("sparse LU failed (singular Jacobian?): {e:?}")))?;
        self.factorized = true;
        Ok(())
    }

    /// Solves A x = b in place with the last factorization.
    pub fn solve_in_place(&mut self, b: &mut [f64]) -> Result<()> {
        if !self.factorized {
            return Err(Error::Panic("solve before factorize".into()));
        }
        let n = b.len();
        LuRef::new_unchecked(&self.symbolic_lu, &self.numeric).solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(b, n, 1),
            Par::Seq,
            MemStack::new(&mut self.solve_scratch),
        );
        Ok(())
    }
}
