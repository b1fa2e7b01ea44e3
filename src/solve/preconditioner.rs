//! Preconditioners of the iterative Newton solve: block Jacobi (the inverse of each vertex's
//! 3×3 diagonal block of J), and a sparse Cholesky of the symmetric part of J restricted to the
//! element pattern (the elastic couplings; contact couplings between vertices that share no
//! element are left to BiCGSTAB), shifted towards its diagonal until positive definite.
//!
//! Every update rebuilds the preconditioner from the Jacobian alone (the shifts start again
//! from 0, the fallback is decided afresh), so a clone, which shares the symbolic analysis and
//! the element map and makes its values when first updated, preconditions bit for bit like the
//! original.

use super::pattern::BlockPattern;
use super::sparse_cholesky::SparseCholesky;
use crate::error::{Error, Result};
use nalgebra::Matrix3;
use std::sync::Arc;

/// Which preconditioner the iterative linear solver uses (`SolverParams::preconditioner`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PreconditionerKind {
    /// Sparse Cholesky of the symmetrised element-pattern part of J.
    #[default]
    Cholesky,
    /// Block Jacobi: each vertex's 3×3 diagonal block of J inverted.
    BlockJacobi,
}

/// Relative diagonal shifts tried, in order, when the symmetrised matrix is not positive
/// definite (buckling cloth, compressed solids). A diagonal entry d ≤ 0 (compression and
/// friction can make one) stays ≤ 0 under every shift d + s|d|: the update then fails at once,
/// without factorizing, and Newton falls back to its modified (definite) Jacobian.
const SHIFTS: [f64; 5] = [0.0, 1e-4, 1e-2, 1e-1, 1.0];

/// A preconditioner for matrices in one full pattern.
pub enum Preconditioner {
    /// Inverted diagonal blocks (empty until the first update).
    BlockJacobi(Vec<Matrix3<f64>>),
    /// Cholesky of the element-pattern part.
    Cholesky(Box<CholeskyPart>),
}

impl Clone for Preconditioner {
    /// The same kind for the same patterns, sharing the symbolic analysis; its values are made
    /// at its first update.
    fn clone(&self) -> Self {
        match self {
            Self::BlockJacobi(_) => Self::BlockJacobi(Vec::new()),
            Self::Cholesky(part) => Self::Cholesky(Box::new(CholeskyPart {
                cholesky: part.cholesky.clone(),
                map: part.map.clone(),
                values: Vec::new(),
                shift: 0.0,
                may_fall_back: part.may_fall_back,
                fallback: None,
            })),
        }
    }
}

/// Where the element-pattern entries live in the full pattern (see [`map_to_full`]); fixed
/// for one pair of patterns.
struct ElementMap {
    /// For each element-pattern entry: its index in the full pattern, and that of its transpose.
    to_full: Vec<(usize, usize)>,
    /// Element-pattern indices of the diagonal entries.
    diagonal: Vec<usize>,
}

/// The element-pattern part of J and its Cholesky.
pub struct CholeskyPart {
    cholesky: SparseCholesky,
    /// The element entries' places in the full pattern, shared by clones.
    map: Arc<ElementMap>,
    /// The symmetrised element-pattern values of the last update (empty until the first).
    values: Vec<f64>,
    /// Shift used at the last update (relative to each diagonal entry).
    pub shift: f64,
    /// Whether an update that no shift makes definite falls back to block Jacobi
    /// ([`Preconditioner::allow_fallback`]).
    may_fall_back: bool,
    /// The inverted diagonal blocks in use instead of the Cholesky after such a fallback.
    fallback: Option<Vec<Matrix3<f64>>>,
}

/// The inverse of each vertex's 3×3 diagonal block of `jac` (`diagonal`: the blocks' slots);
/// the identity for a singular block.
fn inverted_diagonal_blocks(jac: &[f64], diagonal: &[super::pattern::BlockSlot], out: &mut [Matrix3<f64>]) {
    for (b, slot) in out.iter_mut().zip(diagonal) {
        let m = Matrix3::from_fn(|r, c| jac[(slot.start + c as u32 * slot.stride + r as u32) as usize]);
        *b = m.try_inverse().unwrap_or_else(Matrix3::identity);
    }
}

/// z ← B z for the block-diagonal B of `inv`.
fn apply_blocks(inv: &[Matrix3<f64>], z: &mut [f64]) {
    for (i, b) in inv.iter().enumerate() {
        let x = b * nalgebra::Vector3::new(z[3 * i], z[3 * i + 1], z[3 * i + 2]);
        z[3 * i..3 * i + 3].copy_from_slice(x.as_slice());
    }
}

/// For each entry of `elements` (a sub-pattern of `full`), in its value order: the indices in
/// `full` of that entry and of its transpose; and the `elements` indices of the diagonal entries.
fn map_to_full(full: &BlockPattern, elements: &BlockPattern) -> Result<ElementMap> {
    let mut to_full = Vec::with_capacity(elements.nnz());
    let mut diagonal = Vec::with_capacity(3 * elements.vertex_count);
    for j in 0..elements.vertex_count as u32 {
        let rows = elements.block_rows(j);
        let slots = rows
            .iter()
            .map(|&i| match (full.slot(i, j), full.slot(j, i)) {
                (Some(a), Some(b)) => Ok((a, b)),
                _ => Err(Error::Panic(format!("element pattern block ({i}, {j}) not in the system pattern"))),
            })
            .collect::<Result<Vec<_>>>()?;
        // Column 3j + c of `elements` holds, per block row i, the rows 3i, 3i + 1, 3i + 2.
        for c in 0..3u32 {
            for (&i, (a, b)) in rows.iter().zip(&slots) {
                for r in 0..3u32 {
                    if i == j && r == c {
                        diagonal.push(to_full.len());
                    }
                    to_full.push(((a.start + c * a.stride + r) as usize, (b.start + r * b.stride + c) as usize));
                }
            }
        }
    }
    Ok(ElementMap { to_full, diagonal })
}

impl Preconditioner {
    /// An empty preconditioner of `kind` for matrices in `full`, whose Cholesky variant uses
    /// the pattern `elements` (a sub-pattern of `full`).
    pub fn new(kind: PreconditionerKind, full: &BlockPattern, elements: &BlockPattern) -> Result<Self> {
        if kind == PreconditionerKind::BlockJacobi {
            return Ok(Self::BlockJacobi(vec![Matrix3::identity(); full.vertex_count]));
        }
        let map = map_to_full(full, elements)?;
        Ok(Self::Cholesky(Box::new(CholeskyPart {
            cholesky: SparseCholesky::new(elements)?,
            values: vec![0.0; map.to_full.len()],
            map: Arc::new(map),
            shift: 0.0,
            may_fall_back: false,
            fallback: None,
        })))
    }

    /// This preconditioner set up for a new system pattern `full` whose element part is still
    /// `elements`: the Cholesky's symbolic analysis of `elements` is kept when it was made for
    /// that same pattern (the element couplings change only when objects are added; the
    /// contact couplings of `full` change with the contacts).
    pub fn for_pattern(self, kind: PreconditionerKind, full: &BlockPattern, elements: &BlockPattern) -> Result<Self> {
        match self {
            Self::Cholesky(mut part) if kind == PreconditionerKind::Cholesky && part.cholesky.analyses(elements) => {
                part.map = Arc::new(map_to_full(full, elements)?);
                part.fallback = None;
                part.shift = 0.0;
                Ok(Self::Cholesky(part))
            }
            _ => Self::new(kind, full, elements),
        }
    }

    /// Rebuilds from the Jacobian values `jac` in the full pattern (`diagonal`: each vertex's
    /// diagonal block slot, used by block Jacobi).
    pub fn update(&mut self, full: &BlockPattern, jac: &[f64], diagonal: &[super::pattern::BlockSlot]) -> Result<()> {
        match self {
            Self::BlockJacobi(inv) => {
                inv.resize(full.vertex_count, Matrix3::identity());
                inverted_diagonal_blocks(jac, diagonal, inv);
                Ok(())
            }
            Self::Cholesky(part) => match part.update(jac) {
                Ok(()) => {
                    part.fallback = None;
                    Ok(())
                }
                Err(e) if part.may_fall_back => {
                    log::debug!("preconditioner: {e}; block Jacobi for this solve");
                    let mut inv = vec![Matrix3::identity(); full.vertex_count];
                    inverted_diagonal_blocks(jac, diagonal, &mut inv);
                    part.fallback = Some(inv);
                    Ok(())
                }
                Err(e) => Err(e),
            },
        }
    }

    /// Whether the Cholesky variant, when no shift makes the symmetrised J definite, falls back
    /// to block Jacobi instead of failing. Newton allows it for its modified (definite)
    /// Jacobian only, where the failure would end the solve (with the exact Jacobian the failure
    /// sends Newton to the modified one); BiCGSTAB does not need a symmetric preconditioner.
    pub fn allow_fallback(&mut self, allow: bool) {
        if let Self::Cholesky(part) = self {
            part.may_fall_back = allow;
        }
    }

    /// z ← M⁻¹ z.
    pub fn apply(&self, z: &mut [f64]) {
        match self {
            Self::BlockJacobi(inv) => apply_blocks(inv, z),
            Self::Cholesky(part) => match &part.fallback {
                Some(inv) => apply_blocks(inv, z),
                None => {
                    // A factorization that exists was checked by `update`.
                    let _ = part.cholesky.solve_in_place(z);
                }
            },
        }
    }
}

impl CholeskyPart {
    fn update(&mut self, jac: &[f64]) -> Result<()> {
        let map = &*self.map;
        self.values.resize(map.to_full.len(), 0.0);
        for (v, &(a, b)) in self.values.iter_mut().zip(&map.to_full) {
            *v = 0.5 * (jac[a] + jac[b]);
        }
        let base: Vec<f64> = map.diagonal.iter().map(|&k| self.values[k]).collect();
        if base.iter().any(|d| !(*d > 0.0)) {
            return Err(Error::NotConverged(
                "symmetrised Jacobian has a diagonal entry ≤ 0 (not positive definite)".into(),
            ));
        }
        for shift in SHIFTS {
            for (&k, &d) in map.diagonal.iter().zip(&base) {
                self.values[k] = d + shift * d.abs();
            }
            if self.cholesky.factorize(&self.values).is_ok() {
                self.shift = shift;
                return Ok(());
            }
        }
        Err(Error::NotConverged("no positive definite preconditioner (Cholesky failed at every shift)".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A symmetric positive definite J is factored unshifted and inverted exactly; a J with a
    /// negative diagonal entry (which no relative shift d + s|d| makes positive) is refused.
    #[test]
    fn cholesky_inverts_spd_and_refuses_negative_diagonals() {
        let stencil = [0u32, 1];
        let pattern = BlockPattern::new(2, std::iter::once(&stencil[..]));
        let mut pre = Preconditioner::new(PreconditionerKind::Cholesky, &pattern, &pattern).expect("new");
        let spd = |r: usize, c: usize| if r == c { 2.0 + r as f64 } else { 0.2 };
        pre.update(&pattern, &pattern.values_of(spd), &[]).expect("SPD");
        let Preconditioner::Cholesky(part) = &pre else { panic!("Cholesky expected") };
        assert_eq!(part.shift, 0.0);
        let x_true = [1.0, -2.0, 3.0, -4.0, 5.0, -6.0];
        let mut z: Vec<f64> = (0..6).map(|r| (0..6).map(|c| spd(r, c) * x_true[c]).sum()).collect();
        pre.apply(&mut z);
        for (x, t) in z.iter().zip(x_true) {
            assert!((x - t).abs() < 1e-12, "{x} vs {t}");
        }
        // Indefinite with a positive diagonal (eigenvalues 1 − 5 × 0.21 = −0.05 and 1.21):
        // definite from the shift 0.1 on.
        let indefinite = |r: usize, c: usize| if r == c { 1.0 } else { -0.21 };
        pre.update(&pattern, &pattern.values_of(indefinite), &[]).expect("shifted");
        let Preconditioner::Cholesky(part) = &pre else { panic!("Cholesky expected") };
        assert_eq!(part.shift, 0.1);
        let negative = |r: usize, c: usize| if r == 2 && c == 2 { -3.0 } else { spd(r, c) };
        assert!(pre.update(&pattern, &pattern.values_of(negative), &[]).is_err());
    }

    /// Allowed to fall back, a Cholesky that no shift makes definite inverts J's diagonal
    /// blocks instead (and the Cholesky is back at the next update that factorizes).
    #[test]
    fn cholesky_falls_back_to_block_jacobi_when_allowed() {
        let stencil = [0u32, 1];
        let pattern = BlockPattern::new(2, std::iter::once(&stencil[..]));
        let diagonal = [pattern.slot(0, 0).unwrap(), pattern.slot(1, 1).unwrap()];
        let mut pre = Preconditioner::new(PreconditionerKind::Cholesky, &pattern, &pattern).expect("new");
        // A negative diagonal entry and, within each vertex, an invertible non-symmetric block.
        let a = |r: usize, c: usize| match (r, c) {
            (2, 2) => -3.0,
            (r, c) if r == c => 2.0 + r as f64,
            (r, c) if r / 3 == c / 3 => 0.1 * (r as f64 - c as f64),
            _ => 0.5,
        };
        let jac = pattern.values_of(a);
        pre.allow_fallback(true);
        pre.update(&pattern, &jac, &diagonal).expect("falls back");
        let x_true = [1.0, -2.0, 3.0, -4.0, 5.0, -6.0];
        // Block-diagonal products: the fallback must undo them exactly.
        let mut z: Vec<f64> =
            (0..6).map(|r| (0..6).filter(|c| c / 3 == r / 3).map(|c| a(r, c) * x_true[c]).sum()).collect();
        pre.apply(&mut z);
        for (x, t) in z.iter().zip(x_true) {
            assert!((x - t).abs() < 1e-12, "{x} vs {t}");
        }
        let spd = |r: usize, c: usize| if r == c { 2.0 + r as f64 } else { 0.2 };
        pre.update(&pattern, &pattern.values_of(spd), &diagonal).expect("SPD");
        let Preconditioner::Cholesky(part) = &pre else { panic!("Cholesky expected") };
        assert!(part.fallback.is_none());
        pre.allow_fallback(false);
        assert!(pre.update(&pattern, &jac, &diagonal).is_err());
    }

    /// Every element-pattern entry maps to the full-pattern entries of the same (row, column)
    /// and of its transpose, the diagonal entries are those with row = column, and a
    /// preconditioner moved to a new full pattern keeps its analysis only for the same elements.
    #[test]
    fn element_entries_map_to_the_full_pattern() {
        let elements = BlockPattern::new(4, [&[0u32, 1][..], &[1, 2][..]].into_iter());
        let full = BlockPattern::new(4, [&[0u32, 1][..], &[1, 2][..], &[0, 3, 2][..]].into_iter());
        let ElementMap { to_full, diagonal } = map_to_full(&full, &elements).expect("sub-pattern");
        assert_eq!(to_full.len(), elements.nnz());
        let column_of = |p: &BlockPattern, k: usize| (0..p.col_ptr.len() - 1).find(|&c| p.col_ptr[c + 1] > k).unwrap();
        for (k, &(a, b)) in to_full.iter().enumerate() {
            let (row, col) = (elements.row_idx[k], column_of(&elements, k));
            assert_eq!((full.row_idx[a], column_of(&full, a)), (row, col));
            assert_eq!((full.row_idx[b], column_of(&full, b)), (col, row));
            assert_eq!(diagonal.contains(&k), row == col);
        }
        assert_eq!(diagonal.len(), 12);
        let pre = Preconditioner::new(PreconditionerKind::Cholesky, &elements, &elements).expect("new");
        let moved = pre.for_pattern(PreconditionerKind::Cholesky, &full, &elements).expect("moved");
        let Preconditioner::Cholesky(part) = &moved else { panic!("Cholesky expected") };
        assert!(part.cholesky.analyses(&elements) && !part.cholesky.analyses(&full));
        assert_eq!(part.map.to_full, to_full);
        assert!(map_to_full(&elements, &full).is_err(), "full is not a sub-pattern of elements");
    }

    /// A clone, made after the original needed a shift, shares its analysis and element map
    /// and preconditions bit for bit like it from the next update on (Cholesky and block
    /// Jacobi).
    #[test]
    fn a_clone_preconditions_alike() {
        let stencil = [0u32, 1];
        let pattern = BlockPattern::new(2, std::iter::once(&stencil[..]));
        let diagonal = [pattern.slot(0, 0).unwrap(), pattern.slot(1, 1).unwrap()];
        let indefinite = pattern.values_of(|r, c| if r == c { 1.0 } else { -0.21 });
        let spd = pattern.values_of(|r, c| if r == c { 2.0 + r as f64 } else { 0.2 / (1.0 + c as f64) });
        for kind in [PreconditionerKind::Cholesky, PreconditionerKind::BlockJacobi] {
            let mut original = Preconditioner::new(kind, &pattern, &pattern).expect("new");
            original.update(&pattern, &indefinite, &diagonal).expect("shifted");
            let mut clone = original.clone();
            if let (Preconditioner::Cholesky(a), Preconditioner::Cholesky(b)) = (&original, &clone) {
                assert!(a.cholesky.shares_analysis(&b.cholesky) && Arc::ptr_eq(&a.map, &b.map));
                assert!(b.values.is_empty() && b.shift == 0.0);
            }
            original.update(&pattern, &spd, &diagonal).expect("SPD");
            clone.update(&pattern, &spd, &diagonal).expect("SPD");
            let (mut x, mut y) = (vec![1.0, -2.0, 3.0, -4.0, 5.0, -6.0], vec![1.0, -2.0, 3.0, -4.0, 5.0, -6.0]);
            original.apply(&mut x);
            clone.apply(&mut y);
            let bits = |z: &[f64]| z.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&x), bits(&y), "{kind:?}");
        }
    }
}
