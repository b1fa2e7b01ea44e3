//! Sparse Cholesky L Lᵀ with faer (supernodal, fill-reducing AMD ordering): the preconditioner of
//! the iterative linear solver. The symbolic analysis, the factor's storage and the numeric
//! factorization's workspace are made once per pattern and reused by every factorization (the
//! preconditioner is refactored at every Newton iteration; at high resolution its factor holds
//! millions of entries). Only the lower triangle of the (structurally symmetric) pattern's values
//! is read. The numeric factorization runs on the solver's worker threads (faer parallelises the
//! dense kernels inside each supernode). Its result does not depend on the thread count:
//! tests/solver_behaviour.rs checks 1, 2 and 4 threads bit for bit, and the high-resolution tube
//! cloth bend gave bit-identical positions with 1, 2 and 4 threads (BENCHMARKS.md).
//!
//! The factor stays in f64: an f32 factor (tried, with unit-diagonal scaling) halves the cost of a
//! factorization but left BiCGSTAB diverging on the hard frames of the tube cloth bend, where the
//! f64 one converges (BENCHMARKS.md).

use super::pattern::BlockPattern;
use crate::error::{Error, Result};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::{LltParams, LltRegularization};
use faer::sparse::linalg::cholesky::{factorize_symbolic_cholesky, LltRef, SymbolicCholesky, SymmetricOrdering};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use faer::{Conj, MatMut, Par, Side, Spec};
use std::sync::Mutex;

/// faer's Cholesky of matrices in one [`BlockPattern`].
pub struct SparseCholesky {
    symbolic_matrix: SymbolicSparseColMat<usize>,
    symbolic: SymbolicCholesky<usize>,
    /// Values of the factor L.
    factor: Vec<f64>,
    /// Scratch of the numeric factorization.
    workspace: MemBuffer,
    /// Whether `factor` holds a successful factorization.
    factored: bool,
    /// Threads of the numeric factorization: those of the rayon pool the analysis ran in.
    par: Par,
    /// Scratch of the triangular solves, made once (`solve_in_place` takes `&self`: the
    /// preconditioner is applied through a shared reference).
    solve_workspace: Mutex<MemBuffer>,
}

fn out_of_memory(what: &str) -> Error {
    Error::NotConverged(format!("out of memory for the {what}"))
}

impl SparseCholesky {
    /// Symbolic analysis of the pattern's lower triangle, done once per pattern.
    pub fn new(pattern: &BlockPattern) -> Result<Self> {
        let n = 3 * pattern.vertex_count;
        let symbolic_matrix =
            SymbolicSparseColMat::new_checked(n, n, pattern.col_ptr.clone(), None, pattern.row_idx.clone());
        let symbolic = factorize_symbolic_cholesky(
            symbolic_matrix.as_ref(),
            Side::Lower,
            SymmetricOrdering::Amd,
            Default::default(),
        )
        .map_err(|e| Error::NotConverged(format!("symbolic Cholesky failed: {e:?}")))?;
        let par = Par::rayon(rayon::current_num_threads());
        let scratch = symbolic.factorize_numeric_llt_scratch::<f64>(par, Spec::<LltParams, f64>::default());
        let solve_scratch = symbolic.solve_in_place_scratch::<f64>(1, Par::Seq);
        Ok(Self {
            solve_workspace: Mutex::new(
                MemBuffer::try_new(solve_scratch).map_err(|_| out_of_memory("Cholesky solve workspace"))?,
            ),
            factor: vec![0.0; symbolic.len_val()],
            workspace: MemBuffer::try_new(scratch).map_err(|_| out_of_memory("Cholesky workspace"))?,
            symbolic_matrix,
            symbolic,
            factored: false,
            par,
        })
    }

    /// Whether this is the analysis of `pattern`.
    pub fn analyses(&self, pattern: &BlockPattern) -> bool {
        let m = self.symbolic_matrix.as_ref();
        m.col_ptr() == pattern.col_ptr.as_slice() && m.row_idx() == pattern.row_idx.as_slice()
    }

    /// Numeric factorization of the symmetric positive definite matrix with values `val` (only
    /// entries with row ≥ column are read); fails when it is not positive definite.
    pub fn factorize(&mut self, val: &[f64]) -> Result<()> {
        self.factored = false;
        let a = SparseColMatRef::new(self.symbolic_matrix.as_ref(), val);
        self.symbolic
            .factorize_numeric_llt(
                &mut self.factor,
                a,
                Side::Lower,
                LltRegularization::default(),
                self.par,
                MemStack::new(&mut self.workspace),
                Spec::default(),
            )
            .map_err(|e| Error::NotConverged(format!("sparse Cholesky failed (not positive definite?): {e:?}")))?;
        self.factored = true;
        Ok(())
    }

    /// Solves A x = b in place with the last successful factorization.
    pub fn solve_in_place(&self, b: &mut [f64]) -> Result<()> {
        if !self.factored {
            return Err(Error::Panic("solve before a successful factorize".into()));
        }
        let n = b.len();
        // A poisoned lock only means an earlier solve panicked; the scratch holds no state.
        let mut workspace = self.solve_workspace.lock().unwrap_or_else(|e| e.into_inner());
        LltRef::new(&self.symbolic, &self.factor).solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(b, n, 1),
            Par::Seq,
            MemStack::new(&mut *workspace),
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2-vertex pattern (6×6, dense) holding a symmetric positive definite matrix: the solve
    /// matches A⁻¹ b, a refactorization with new values reuses the analysis, and an indefinite
    /// matrix is refused without leaving a stale factor usable.
    #[test]
    fn factors_solves_and_refuses_indefinite() {
        let stencil = [0u32, 1];
        let pattern = BlockPattern::new(2, std::iter::once(&stencil[..]));
        let n = 6;
        let fill = |diag: [f64; 6]| {
            let a = move |r: usize, c: usize| if r == c { diag[r] } else { 0.3 / (1.0 + (r + c) as f64) };
            let multiply = move |x: &[f64]| (0..n).map(|r| (0..n).map(|c| a(r, c) * x[c]).sum()).collect::<Vec<f64>>();
            (pattern.values_of(a), multiply)
        };
        let mut chol = SparseCholesky::new(&pattern).expect("symbolic");
        let x_true: Vec<f64> = (0..n).map(|i| 1.0 + i as f64).collect();
        for diag in [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [9.0, 1.0, 8.0, 2.0, 7.0, 3.0]] {
            let (val, multiply) = fill(diag);
            chol.factorize(&val).expect("SPD");
            let mut b = multiply(&x_true);
            chol.solve_in_place(&mut b).expect("solve");
            for (x, t) in b.iter().zip(&x_true) {
                assert!((x - t).abs() < 1e-12 * t, "{x} vs {t}");
            }
        }
        let (val, _) = fill([1.0, 2.0, -3.0, 4.0, 5.0, 6.0]);
        assert!(chol.factorize(&val).is_err());
        assert!(chol.solve_in_place(&mut vec![1.0; n]).is_err());
    }
}
