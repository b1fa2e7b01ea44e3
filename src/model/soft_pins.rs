//! Soft pins of the model: per-vertex springs to anchor points ([`TargetSpring`]), kept in
//! increasing vertex order so that their sum does not depend on the order they were set in.

use super::Model;
use crate::energy::target_spring::TargetSpring;
use crate::error::{Error, Result};

/// Largest soft-pin stiffness (N/m) accepted: beyond it a soft pin is a hard pin in all but
/// conditioning, and the Jacobian of a gram-weight vertex loses every other term to rounding.
/// cbindgen:ignore
pub const MAX_PIN_STIFFNESS: f64 = 1e9;

impl Model {
    /// Sets the soft-pin stiffness (N/m) of vertices `first..first + stiffness.len()`: 0 removes
    /// a vertex's soft pin; a vertex that gets one anchors at its position in `q` (m, flat
    /// `x0 y0 z0 …` over all vertices), one that has one keeps its anchor. Checks every value
    /// first and changes nothing when one is out of [0, [`MAX_PIN_STIFFNESS`]].
    pub fn set_pin_stiffness(&mut self, first: usize, stiffness: &[f64], q: &[f64]) -> Result<()> {
        if let Some(i) = stiffness.iter().position(|k| !(*k >= 0.0 && *k <= MAX_PIN_STIFFNESS)) {
            return Err(Error::invalid(format!(
                "pin stiffness of vertex {i} is {} N/m, outside [0, {MAX_PIN_STIFFNESS:e}]",
                stiffness[i]
            )));
        }
        let last = first + stiffness.len();
        let inside = |p: &TargetSpring| (first..last).contains(&(p.vertex[0] as usize));
        let mut pins = Vec::with_capacity(self.soft_pins.len() + stiffness.len());
        let (before, rest): (Vec<_>, Vec<_>) = self.soft_pins.drain(..).partition(|p| (p.vertex[0] as usize) < first);
        pins.extend(before);
        let mut kept = rest.iter().filter(|p| inside(p)).peekable();
        for (i, &k) in stiffness.iter().enumerate() {
            let vertex = (first + i) as u32;
            let old = kept.next_if(|p| p.vertex[0] == vertex);
            if k > 0.0 {
                let anchor = old.map_or_else(|| [0, 1, 2].map(|c| q[3 * vertex as usize + c]), |p| p.anchor);
                pins.push(TargetSpring { vertex: [vertex], anchor, stiffness: k });
            }
        }
        pins.extend(rest.into_iter().filter(|p| !inside(p)));
        self.soft_pins = pins;
        Ok(())
    }

    /// Moves the anchors of the soft pins of vertices that have a target to it (m); returns the
    /// anchors before, to put back with [`Model::restore_pin_anchors`].
    pub fn move_pin_anchors(&mut self, target: &[Option<[f64; 3]>]) -> Vec<[f64; 3]> {
        let before = self.soft_pins.iter().map(|p| p.anchor).collect();
        for p in &mut self.soft_pins {
            if let Some(t) = target[p.vertex[0] as usize] {
                p.anchor = t;
            }
        }
        before
    }

    /// Puts back anchors saved by [`Model::move_pin_anchors`].
    pub fn restore_pin_anchors(&mut self, anchors: &[[f64; 3]]) {
        self.soft_pins.iter_mut().zip(anchors).for_each(|(p, &a)| p.anchor = a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(n: usize) -> Model {
        Model { mass: vec![1.0; n], ..Default::default() }
    }

    #[test]
    fn pins_stay_sorted_keep_anchors_and_are_removed_by_zero() {
        let mut m = model(5);
        let q: Vec<f64> = (0..15).map(|x| x as f64).collect();
        m.set_pin_stiffness(3, &[10.0, 0.0], &q).unwrap();
        m.set_pin_stiffness(0, &[5.0, 0.0, 7.0], &q).unwrap();
        let vertices: Vec<u32> = m.soft_pins.iter().map(|p| p.vertex[0]).collect();
        assert_eq!(vertices, [0, 2, 3]);
        assert_eq!(m.soft_pins[1].anchor, [6.0, 7.0, 8.0]);
        // A new stiffness keeps the anchor, even after the vertex moved.
        let moved = vec![-1.0; 15];
        m.set_pin_stiffness(2, &[9.0, 10.0], &moved).unwrap();
        assert_eq!(m.soft_pins[1].anchor, [6.0, 7.0, 8.0]);
        assert_eq!(m.soft_pins[1].stiffness, 9.0);
        m.set_pin_stiffness(0, &[0.0, 0.0, 0.0, 0.0, 0.0], &q).unwrap();
        assert!(m.soft_pins.is_empty());
    }

    #[test]
    fn invalid_stiffness_changes_nothing() {
        let mut m = model(2);
        let q = vec![0.0; 6];
        m.set_pin_stiffness(0, &[1.0, 2.0], &q).unwrap();
        let before = m.soft_pins.clone();
        for bad in [-1.0, f64::NAN, f64::INFINITY, 2.0 * MAX_PIN_STIFFNESS] {
            assert!(m.set_pin_stiffness(0, &[3.0, bad], &q).is_err());
            assert_eq!(m.soft_pins, before);
        }
    }

    #[test]
    fn anchors_move_to_targets_and_back() {
        let mut m = model(2);
        m.set_pin_stiffness(0, &[1.0, 1.0], &[0.0; 6]).unwrap();
        let saved = m.move_pin_anchors(&[None, Some([1.0, 2.0, 3.0])]);
        assert_eq!(m.soft_pins[1].anchor, [1.0, 2.0, 3.0]);
        assert_eq!(m.soft_pins[0].anchor, [0.0; 3]);
        m.restore_pin_anchors(&saved);
        assert_eq!(m.soft_pins[1].anchor, [0.0; 3]);
    }
}
