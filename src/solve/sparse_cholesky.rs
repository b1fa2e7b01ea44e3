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
//!
//! A clone shares the symbolic analysis and makes its own factor and scratch at its first
//! factorization, so that no large buffer exists twice.

use super::pattern::BlockPattern;
use crate::error::{Error, Result};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::{LltParams, LltRegularization};
use faer::sparse::linalg::cholesky::{factorize_symbolic_cholesky, LltRef, SymbolicCholesky, SymmetricOrdering};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use faer::{Conj, MatMut, Par, Side, Spec};
use std::sync::{Arc, Mutex};

/// The immutable symbolic part: the pattern as faer's matrix structure and its Cholesky
/// analysis (faer's `SymbolicCholesky` cannot be cloned; clones share it).
struct CholeskyAnalysis {
    matrix: SymbolicSparseColMat<usize>,
    symbolic: SymbolicCholesky<usize>,
}

/// faer's Cholesky of matrices in one [`BlockPattern`].
pub struct SparseCholesky {
    analysis: Arc<CholeskyAnalysis>,
    /// Values of the factor L (empty until the first factorization).
    factor: Vec<f64>,
    /// Scratch of the numeric factorization, made at the first one.
    workspace: Option<MemBuffer>,
    /// Whether `factor` holds a successful factorization.
    factored: bool,
    /// Threads of the numeric factorization: those of the rayon pool the analysis ran in.
    par: Par,
    /// Scratch of the triangular solves, made at the first one (`solve_in_place` takes
    /// `&self`: the preconditioner is applied through a shared reference).
    solve_workspace: Mutex<Option<MemBuffer>>,
}

impl Clone for SparseCholesky {
    /// The same analysis, shared; the factor and the scratch are made at the clone's first
    /// factorization (faer's factorizations write the factor afresh, reading nothing an
    /// earlier one left, so the clone factors bit for bit like the original).
    fn clone(&self) -> Self {
        Self::with_analysis(self.analysis.clone(), self.par)
    }
}

fn out_of_memory(what: &str) -> Error {
    Error::NotConverged(format!("out of memory for the {what}"))
}

impl SparseCholesky {
    /// Symbolic analysis of the pattern's lower triangle, done once per pattern.
    pub fn new(pattern: &BlockPattern) -> Result<Self> {
        let n = 3 * pattern.vertex_count;
        let matrix = SymbolicSparseColMat::new_checked(n, n, pattern.col_ptr.clone(), None, pattern.row_idx.clone());
        let symbolic =
            factorize_symbolic_cholesky(matrix.as_ref(), Side::Lower, SymmetricOrdering::Amd, Default::default())
                .map_err(|e| Error::NotConverged(format!("symbolic Cholesky failed: {e:?}")))?;
        let par = Par::rayon(rayon::current_num_threads());
        let mut cholesky = Self::with_analysis(Arc::new(CholeskyAnalysis { matrix, symbolic }), par);
        // Made now, so that a pattern too large for memory fails where it is analysed.
        cholesky.allocate()?;
        Ok(cholesky)
    }

    fn with_analysis(analysis: Arc<CholeskyAnalysis>, par: Par) -> Self {
        Self { analysis, factor: Vec::new(), workspace: None, factored: false, par, solve_workspace: Mutex::new(None) }
    }

    /// Makes the factor's storage and the scratch of the factorization and of the solves, if
    /// not made yet.
    fn allocate(&mut self) -> Result<()> {
        let symbolic = &self.analysis.symbolic;
        if self.factor.len() != symbolic.len_val() {
            self.factor = vec![0.0; symbolic.len_val()];
        }
        if self.workspace.is_none() {
            let req = symbolic.factorize_numeric_llt_scratch::<f64>(self.par, Spec::<LltParams, f64>::default());
            self.workspace = Some(MemBuffer::try_new(req).map_err(|_| out_of_memory("Cholesky workspace"))?);
        }
        let solve = self.solve_workspace.get_mut().unwrap_or_else(|e| e.into_inner());
        if solve.is_none() {
            let req = symbolic.solve_in_place_scratch::<f64>(1, Par::Seq);
            *solve = Some(MemBuffer::try_new(req).map_err(|_| out_of_memory("Cholesky solve workspace"))?);
        }
        Ok(())
    }

    /// Whether this is the analysis of `pattern`.
    pub fn analyses(&self, pattern: &BlockPattern) -> bool {
        let m = self.analysis.matrix.as_ref();
        m.col_ptr() == pattern.col_ptr.as_slice() && m.row_idx() == pattern.row_idx.as_slice()
    }

    /// Whether `other` shares this one's symbolic analysis.
    pub fn shares_analysis(&self, other: &SparseCholesky) -> bool {
        Arc::ptr_eq(&self.analysis, &other.analysis)
    }

    /// Numeric factorization of the symmetric positive definite matrix with values `val` (only
    /// entries with row ≥ column are read); fails when it is not positive definite.
    pub fn factorize(&mut self, val: &[f64]) -> Result<()> {
        self.factored = false;
        self.allocate()?;
        let analysis = &*self.analysis;
        let workspace = self.workspace.as_mut().ok_or_else(|| Error::Panic("Cholesky workspace missing".into()))?;
        let a = SparseColMatRef::new(analysis.matrix.as_ref(), val);
        analysis
            .symbolic
            .factorize_numeric_llt(
                &mut self.factor,
                a,
                Side::Lower,
                LltRegularization::default(),
                self.par,
                MemStack::new(workspace),
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
        let workspace = workspace.as_mut().ok_or_else(|| Error::Panic("Cholesky solve workspace missing".into()))?;
        LltRef::new(&self.analysis.symbolic, &self.factor).solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(b, n, 1),
            Par::Seq,
            MemStack::new(workspace),
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

    /// A clone shares the analysis and holds no factor until it factors: then it solves bit for
    /// bit like the original, whose factor came after a refused (indefinite) matrix.
    #[test]
    fn a_clone_shares_the_analysis_and_solves_alike() {
        let stencil = [0u32, 1];
        let pattern = BlockPattern::new(2, std::iter::once(&stencil[..]));
        let spd = pattern.values_of(|r, c| if r == c { 2.0 + r as f64 } else { 0.3 / (1.0 + (r + c) as f64) });
        let indefinite = pattern.values_of(|r, c| if r == c { 1.0 } else { -0.5 });
        let mut original = SparseCholesky::new(&pattern).unwrap();
        assert!(original.factorize(&indefinite).is_err());
        let clone = original.clone();
        assert!(clone.shares_analysis(&original) && clone.factor.is_empty());
        let mut clone = clone;
        assert!(clone.solve_in_place(&mut [1.0; 6]).is_err(), "no factor yet");
        original.factorize(&spd).unwrap();
        clone.factorize(&spd).unwrap();
        let (mut x, mut y) = (vec![1.0, -2.0, 3.0, -4.0, 5.0, -6.0], vec![1.0, -2.0, 3.0, -4.0, 5.0, -6.0]);
        original.solve_in_place(&mut x).unwrap();
        clone.solve_in_place(&mut y).unwrap();
        assert_eq!(
            x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            y.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
    }
}
