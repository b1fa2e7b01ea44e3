//! The candidate cache of every contact kind. A kind gathers its candidate stencils in units
//! (one per query vertex, per surface edge or triangle, or one for a whole broad phase), each
//! around the positions of the vertices it tracks, within its reach plus a padding. While none
//! of a unit's vertices has moved more than half the padding from where it was gathered, no
//! contact can have come within reach that the gather missed (each primitive moved at most
//! that far, so a distance fell by at most the padding); once one has, the unit is gathered
//! again. The residual is then always the exact one, and Newton's iterates never miss a contact
//! that enters the contact band (paper §6).
//!
//! The stencils are kept in one list in unit order (each unit's in the order it gathered
//! them), so that every sum over them runs in a fixed order.

use super::ContactKind;
use rayon::prelude::*;
use std::time::Instant;

/// A kind's gather units: unit u tracks `vertices[offsets[u]..offsets[u + 1]]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Units {
    /// Start of each unit's vertices, and their end (`count + 1` entries).
    pub offsets: Vec<usize>,
    /// The tracked vertices of all units, unit after unit (global indices).
    pub vertices: Vec<u32>,
    /// Search padding (m).
    pub padding: f64,
}

impl Units {
    /// One unit per item of `tracked`, each tracking its vertices, with `padding` (m).
    pub fn each<'a, V: AsRef<[u32]> + 'a>(tracked: impl Iterator<Item = V>, padding: f64) -> Self {
        let mut units = Units { offsets: vec![0], vertices: Vec::new(), padding };
        for t in tracked {
            units.vertices.extend_from_slice(t.as_ref());
            units.offsets.push(units.vertices.len());
        }
        units
    }

    /// A single unit tracking `vertices`, with `padding` (m).
    pub fn one(vertices: Vec<u32>, padding: f64) -> Self {
        Units { offsets: vec![0, vertices.len()], vertices, padding }
    }

    /// How many units there are.
    pub fn count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
}

/// The stencils of a kind, gathered unit by unit and gathered again where stale.
pub struct CandidateCache<S> {
    units: Units,
    /// Per tracked vertex: its position where its unit was gathered (m).
    reference: Vec<[f64; 3]>,
    /// Per unit: how many stencils it holds.
    counts: Vec<usize>,
    /// Per unit: where its stencils start in `stencils`.
    starts: Vec<usize>,
    /// Every stencil, unit after unit.
    stencils: Vec<S>,
    /// How many times some unit was gathered again after the first gather.
    pub refreshes: u32,
    /// Seconds spent gathering.
    pub seconds: f64,
}

fn position(q: &[f64], v: u32) -> [f64; 3] {
    let i = 3 * v as usize;
    [q[i], q[i + 1], q[i + 2]]
}

impl<S: Send + Sync> CandidateCache<S> {
    /// The cache of `kind` with every unit gathered at positions `q` (m).
    pub fn new<K: ContactKind<Stencil = S>>(kind: &mut K, q: &[f64]) -> Self {
        let units = kind.units();
        let count = units.count();
        let mut cache = Self {
            reference: vec![[f64::INFINITY; 3]; units.vertices.len()],
            units,
            counts: vec![0; count],
            starts: vec![0; count],
            stencils: Vec::new(),
            refreshes: 0,
            seconds: 0.0,
        };
        cache.gather(kind, (0..count).collect(), q);
        cache
    }

    /// Whether one of unit `u`'s vertices at `q` (m) is more than half the padding from where
    /// the unit was gathered (written as "not within", so that a non-finite position counts).
    pub fn moved(&self, u: usize, q: &[f64]) -> bool {
        let limit = 0.25 * self.units.padding * self.units.padding;
        let range = self.units.offsets[u]..self.units.offsets[u + 1];
        self.units.vertices[range.clone()].iter().zip(&self.reference[range]).any(|(&v, r)| {
            let x = position(q, v);
            !((0..3).map(|k| (x[k] - r[k]).powi(2)).sum::<f64>() <= limit)
        })
    }

    /// Gathers again the units stale at positions `q` (m); returns whether any was.
    pub fn refresh<K: ContactKind<Stencil = S>>(&mut self, kind: &mut K, q: &[f64]) -> bool {
        let stale: Vec<usize> = (0..self.counts.len()).into_par_iter().filter(|&u| self.moved(u, q)).collect();
        if stale.is_empty() {
            return false;
        }
        self.refreshes += 1;
        self.gather(kind, stale, q);
        true
    }

    fn gather<K: ContactKind<Stencil = S>>(&mut self, kind: &mut K, stale: Vec<usize>, q: &[f64]) {
        if stale.is_empty() {
            return;
        }
        let started = Instant::now();
        let fresh = kind.gather(&stale, q);
        for &u in &stale {
            for i in self.units.offsets[u]..self.units.offsets[u + 1] {
                self.reference[i] = position(q, self.units.vertices[i]);
            }
        }
        let mut old = std::mem::take(&mut self.stencils).into_iter();
        let mut fresh = stale.into_iter().zip(fresh).peekable();
        let mut stencils = Vec::with_capacity(old.len());
        for u in 0..self.counts.len() {
            self.starts[u] = stencils.len();
            if fresh.peek().is_some_and(|(s, _)| *s == u) {
                let (_, new) = fresh.next().unwrap_or_default();
                old.by_ref().take(self.counts[u]).for_each(drop);
                self.counts[u] = new.len();
                stencils.extend(new);
            } else {
                stencils.extend(old.by_ref().take(self.counts[u]));
            }
        }
        self.stencils = stencils;
        self.seconds += started.elapsed().as_secs_f64();
    }

    /// Every stencil, unit after unit (fresh for the last refreshed positions).
    pub fn stencils(&self) -> &[S] {
        &self.stencils
    }

    /// Unit `u`'s stencils.
    pub fn unit(&self, u: usize) -> &[S] {
        &self.stencils[self.starts[u]..self.starts[u] + self.counts[u]]
    }

    /// How many units there are.
    pub fn unit_count(&self) -> usize {
        self.counts.len()
    }
}
