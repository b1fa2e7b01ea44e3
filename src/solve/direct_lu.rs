//! Sparse LU of the (non-symmetric) Newton Jacobian with faer, reusing the symbolic
//! factorization while the pattern is unchanged, and the numeric factors' storage and the
//! scratch memory from one factorization to the next (a Newton solve factorizes every
//! iteration; on small scenes allocating them anew cost a tenth of the step).
//!
//! A clone shares the symbolic analysis and makes its own numeric factors and scratch at its
//! first factorization: no factorization reads what an earlier one left in them, so the clone
//! factorizes and solves bit for bit like the original.

use super::pattern::BlockPattern;
use crate::error::{Error, Result};
use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::sparse::linalg::lu::{factorize_symbolic_lu, LuRef, NumericLu, SymbolicLu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use faer::{Conj, MatMut, Par};
use std::sync::Arc;

/// The immutable symbolic part: the pattern as faer's matrix structure and its LU analysis.
struct LuAnalysis {
    matrix: SymbolicSparseColMat<usize>,
    lu: SymbolicLu<usize>,
}

/// faer's symbolic LU for one [`BlockPattern`], with the numeric factors of the last
/// [`DirectLu::factorize`].
pub struct DirectLu {
    analysis: Arc<LuAnalysis>,
    numeric: NumericLu<usize, f64>,
    factorized: bool,
    /// Scratch of the numeric factorization, made at the first one.
    factorize_scratch: Option<MemBuffer>,
    /// Scratch of the triangular solves, made at the first one.
    solve_scratch: Option<MemBuffer>,
}

impl Clone for DirectLu {
    /// The same analysis, shared; numeric factors and scratch made when first used.
    fn clone(&self) -> Self {
        Self::with_analysis(self.analysis.clone())
    }
}

/// The buffer in `slot`, made with `req` bytes if there is none yet.
fn scratch(slot: &mut Option<MemBuffer>, req: impl FnOnce() -> StackReq) -> Result<&mut MemBuffer> {
    if slot.is_none() {
        *slot = Some(MemBuffer::try_new(req()).map_err(|e| Error::NotConverged(format!("LU scratch: {e:?}")))?);
    }
    slot.as_mut().ok_or_else(|| Error::Panic("LU scratch missing".into()))
}

impl DirectLu {
    /// Symbolic analysis (fill-reducing ordering) of the pattern, done once.
    pub fn new(pattern: &BlockPattern) -> Result<Self> {
        let n = 3 * pattern.vertex_count;
        let matrix = SymbolicSparseColMat::new_checked(n, n, pattern.col_ptr.clone(), None, pattern.row_idx.clone());
        let lu = factorize_symbolic_lu(matrix.as_ref(), Default::default())
            .map_err(|e| Error::NotConverged(format!("symbolic LU failed: {e:?}")))?;
        let mut direct = Self::with_analysis(Arc::new(LuAnalysis { matrix, lu }));
        // Made now, so that a pattern too large for memory fails where it is analysed.
        let analysis = &*direct.analysis;
        scratch(&mut direct.factorize_scratch, || {
            analysis.lu.factorize_numeric_lu_scratch::<f64>(Par::Seq, Default::default())
        })?;
        scratch(&mut direct.solve_scratch, || analysis.lu.solve_in_place_scratch::<f64>(1, Par::Seq))?;
        Ok(direct)
    }

    fn with_analysis(analysis: Arc<LuAnalysis>) -> Self {
        Self { analysis, numeric: NumericLu::new(), factorized: false, factorize_scratch: None, solve_scratch: None }
    }

    /// Numeric factorization of the matrix with values `val` in the pattern (sequential: the
    /// factors, and so every result, do not depend on the thread count).
    pub fn factorize(&mut self, val: &[f64]) -> Result<()> {
        self.factorized = false;
        let analysis = &*self.analysis;
        let buffer = scratch(&mut self.factorize_scratch, || {
            analysis.lu.factorize_numeric_lu_scratch::<f64>(Par::Seq, Default::default())
        })?;
        let a = SparseColMatRef::new(analysis.matrix.as_ref(), val);
        analysis
            .lu
            .factorize_numeric_lu(&mut self.numeric, a, Par::Seq, MemStack::new(buffer), Default::default())
            .map_err(|e| Error::NotConverged(format!("sparse LU failed (singular Jacobian?): {e:?}")))?;
        self.factorized = true;
        Ok(())
    }

    /// Solves A x = b in place with the last factorization.
    pub fn solve_in_place(&mut self, b: &mut [f64]) -> Result<()> {
        if !self.factorized {
            return Err(Error::Panic("solve before factorize".into()));
        }
        let analysis = &*self.analysis;
        let buffer = scratch(&mut self.solve_scratch, || analysis.lu.solve_in_place_scratch::<f64>(1, Par::Seq))?;
        let n = b.len();
        LuRef::new_unchecked(&analysis.lu, &self.numeric).solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(b, n, 1),
            Par::Seq,
            MemStack::new(buffer),
        );
        Ok(())
    }

    /// Whether `other` shares this one's symbolic analysis.
    pub fn shares_analysis(&self, other: &DirectLu) -> bool {
        Arc::ptr_eq(&self.analysis, &other.analysis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clone shares the analysis but not the factors: factorized with the same values as the
    /// original (which factorized other values before), it solves bit for bit alike, and it
    /// holds no factorization of its own until it makes one.
    #[test]
    fn a_clone_shares_the_analysis_and_solves_alike() {
        let stencils = [[0u32, 1], [1, 2]];
        let pattern = BlockPattern::new(3, stencils.iter().map(|s| &s[..]));
        let values = |k: f64| {
            pattern.values_of(|r, c| if r == c { 4.0 + k * r as f64 } else { 0.3 * (r as f64 - c as f64) / (1.0 + k) })
        };
        let mut original = DirectLu::new(&pattern).unwrap();
        original.factorize(&values(1.0)).unwrap();
        let mut clone = original.clone();
        assert!(clone.shares_analysis(&original));
        assert!(clone.solve_in_place(&mut [1.0; 9]).is_err(), "no factors yet");
        original.factorize(&values(2.0)).unwrap();
        clone.factorize(&values(2.0)).unwrap();
        let b: Vec<f64> = (0..9).map(|i| 1.0 + i as f64).collect();
        let (mut x, mut y) = (b.clone(), b.clone());
        original.solve_in_place(&mut x).unwrap();
        clone.solve_in_place(&mut y).unwrap();
        assert_eq!(
            x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            y.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
    }
}
