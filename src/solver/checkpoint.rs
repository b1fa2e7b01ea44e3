//! The solver's state as bytes, to continue a simulation in another process (`grip run
//! --resume`, a bake that outlives its session): positions, velocities, pins and their targets,
//! collider poses and targets, the contact stiffnesses κ, κ_s and κ_b in use, the last substep's
//! acceleration (Newton's guess), BDF2's history, and the contact couplings of the system
//! pattern (the preconditioner's and the LU's orderings follow the pattern), and last the soft
//! pins (vertex, stiffness, anchor). Restoring into a
//! solver built the same way (same objects, same parameters) continues bit for bit as if the
//! process had never stopped.
//!
//! Format (little-endian): the magic `GRIPSTA3` (`GRIPSTA2` without soft pins and `GRIPSTA1` also
//! without κ_b are read too), a fingerprint of the model (vertex count,
//! collider count and an FNV-1a hash of the rest positions' bits), then the fields in the
//! order `Solver::checkpoint` writes them, each vector preceded by its length.

use super::Solver;
use crate::contact::Pose;
use crate::energy::target_spring::TargetSpring;
use crate::energy::Element;
use crate::error::{Error, Result};
use crate::integrate::carried::{CarriedState, LayoutCouplings};
use crate::integrate::schemes::StepHistory;
use crate::mesh::validate::MAX_COORDINATE;
use crate::model::soft_pins::MAX_PIN_STIFFNESS;
use crate::model::{Model, ObjectKind};
use bytes::{Reader, Writer};
use std::sync::Arc;

mod bytes;

/// First bytes of a solver checkpoint.
const MAGIC: &[u8; 8] = b"GRIPSTA3";

/// First bytes of the previous format, read still: the same fields but the soft pins (restored
/// as none).
const MAGIC_WITHOUT_SOFT_PINS: &[u8; 8] = b"GRIPSTA2";

/// First bytes of the format before it, read still: also without κ_b (restored as unset, so it
/// starts again from the value derived from κ_s).
const MAGIC_WITHOUT_SHELL_SOLID: &[u8; 8] = b"GRIPSTA1";

/// FNV-1a over the model's rest positions (their bits), its objects' kinds and vertex ranges,
/// and the vertices of its tets, membrane triangles and hinges: tells a checkpoint of another
/// model apart (materials and parameters may differ: a bake may go on with other settings).
fn fingerprint(model: &Model) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| {
        for byte in x.to_le_bytes() {
            h = (h ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    model.rest.iter().flatten().for_each(|x| eat(x.to_bits()));
    for o in &model.objects {
        [o.kind as u64, o.first_vertex as u64, o.vertex_count as u64].into_iter().for_each(&mut eat);
    }
    let tets = model.tets.elements.iter().map(|e| e.vertices());
    let membranes = model.membranes.elements.iter().map(|e| e.vertices());
    let hinges = model.hinges.elements.iter().map(|e| e.vertices());
    for vertices in tets.chain(membranes).chain(hinges) {
        vertices.iter().for_each(|&v| eat(v as u64));
        eat(u64::MAX);
    }
    h
}

/// Soft pins read back: vertices in increasing order below `n`, stiffness in (0, max] N/m,
/// anchors in bounds.
fn soft_pins(r: &mut Reader, n: usize) -> Result<Vec<TargetSpring>> {
    let count = r.len(n)?;
    let mut pins: Vec<TargetSpring> = Vec::with_capacity(count);
    for _ in 0..count {
        let vertex = r.u64()?;
        let (stiffness, anchor) = (r.f64()?, [r.f64()?, r.f64()?, r.f64()?]);
        let after_last = pins.last().is_none_or(|p| vertex > p.vertex[0] as u64);
        if vertex >= n as u64 || !after_last || !(stiffness > 0.0 && stiffness <= MAX_PIN_STIFFNESS) {
            return Err(Error::invalid(format!("checkpoint: soft pin of vertex {vertex} with stiffness {stiffness}")));
        }
        if !anchor.iter().all(|&x| coordinate(x)) {
            return Err(Error::invalid("checkpoint: a soft pin's anchor is not finite or out of bounds"));
        }
        pins.push(TargetSpring { vertex: [vertex as u32], anchor, stiffness });
    }
    Ok(pins)
}

/// Whether `x` is a usable position coordinate in m (finite, within the API's bound).
fn coordinate(x: f64) -> bool {
    x.abs() <= MAX_COORDINATE
}

/// A contact stiffness read back: absent, or finite and positive (N/m²).
fn stiffness(x: Option<f64>, what: &str) -> Result<Option<f64>> {
    match x {
        Some(k) if !(k > 0.0 && k.is_finite()) => {
            Err(Error::invalid(format!("checkpoint: {what} {k} is not positive")))
        }
        _ => Ok(x),
    }
}

impl Solver {
    /// The solver's state as bytes (see the module documentation); [`Solver::restore`] puts it
    /// back into a solver built with the same objects and parameters.
    pub fn checkpoint(&self) -> Vec<u8> {
        self.encode(MAGIC)
    }

    /// The bytes of [`Solver::checkpoint`] in the format of `magic` (the current one, or
    /// one of the older ones).
    fn encode(&self, magic: &[u8; 8]) -> Vec<u8> {
        let mut w = Writer(magic.to_vec());
        let n = self.model.vertex_count();
        w.u64(n as u64);
        w.u64(self.collider_pose.len() as u64);
        w.u64(fingerprint(&self.model));
        w.f64s(&self.q);
        w.f64s(&self.v);
        self.pinned.iter().for_each(|&p| w.u64(p as u64));
        for t in &self.target {
            w.u64(t.is_some() as u64);
            t.unwrap_or_default().iter().for_each(|&x| w.f64(x));
        }
        self.collider_pose.iter().for_each(|p| w.pose(p));
        for t in &self.collider_target {
            w.u64(t.is_some() as u64);
            w.pose(&t.unwrap_or_default());
        }
        let carried = &self.carried;
        w.option(carried.contact_stiffness);
        w.option(carried.self_contact_stiffness);
        if magic != MAGIC_WITHOUT_SHELL_SOLID {
            w.option(carried.shell_solid_stiffness);
        }
        w.f64s(&carried.acceleration);
        w.u64(carried.history.is_some() as u64);
        if let Some(h) = &carried.history {
            w.f64s(&h.q);
            w.f64s(&h.v);
            w.f64(h.h);
        }
        // The pattern's couplings beyond the elements' (those contacts added), or none.
        w.u64(carried.layout.is_some() as u64);
        if let Some(couplings) = &carried.layout {
            w.u64(couplings.0.is_some() as u64);
            let pairs = couplings.0.as_deref().unwrap_or_default();
            w.u64(pairs.len() as u64);
            pairs.iter().for_each(|&(a, b)| w.u64(((a as u64) << 32) | b as u64));
        }
        if magic == MAGIC {
            w.u64(self.model.soft_pins.len() as u64);
            for p in &self.model.soft_pins {
                w.u64(p.vertex[0] as u64);
                [p.stiffness, p.anchor[0], p.anchor[1], p.anchor[2]].iter().for_each(|&x| w.f64(x));
            }
        }
        w.0
    }

    /// Puts back the state of [`Solver::checkpoint`]. Fails, changing nothing, when the bytes
    /// are malformed or come from a solver with other vertices or colliders.
    pub fn restore(&mut self, bytes: &[u8]) -> Result<()> {
        let mut r = Reader { bytes, at: 0 };
        let magic = r.take(MAGIC.len())?;
        if ![MAGIC, MAGIC_WITHOUT_SOFT_PINS, MAGIC_WITHOUT_SHELL_SOLID].iter().any(|m| m.as_slice() == magic) {
            return Err(Error::invalid("not a grip solver checkpoint (wrong magic bytes)"));
        }
        let with_soft_pins = magic == MAGIC;
        let with_shell_solid = magic != MAGIC_WITHOUT_SHELL_SOLID;
        let n = self.model.vertex_count();
        let colliders = self.collider_pose.len();
        let (cn, cc, cf) = (r.u64()?, r.u64()?, r.u64()?);
        if cn != n as u64 || cc != colliders as u64 || cf != fingerprint(&self.model) {
            return Err(Error::invalid(format!(
                "checkpoint of another model: {cn} vertices and {cc} colliders (this solver: {n} and {colliders}), \
                 or other rest positions or elements"
            )));
        }
        let q = r.f64s(&[3 * n], "positions")?;
        if let Some(i) = q.iter().position(|&x| !coordinate(x)) {
            return Err(Error::invalid(format!("checkpoint: position coordinate {i} is beyond ±{MAX_COORDINATE} m")));
        }
        let v = r.f64s(&[3 * n], "velocities")?;
        let pinned = (0..n).map(|_| r.flag()).collect::<Result<Vec<bool>>>()?;
        for o in self.model.objects.iter().filter(|o| o.kind == ObjectKind::ColliderMesh) {
            if !pinned[o.first_vertex..o.first_vertex + o.vertex_count].iter().all(|&p| p) {
                return Err(Error::invalid(format!("checkpoint: collider mesh {} has vertices not pinned", o.id)));
            }
        }
        let mut target = Vec::with_capacity(n);
        for _ in 0..n {
            let some = r.flag()?;
            let t = [r.f64()?, r.f64()?, r.f64()?];
            if !t.iter().all(|&x| coordinate(x)) {
                return Err(Error::invalid("checkpoint: a pin target is not finite or out of bounds"));
            }
            target.push(some.then_some(t));
        }
        let collider_pose = (0..colliders).map(|_| r.pose()).collect::<Result<Vec<Pose>>>()?;
        let mut collider_target = Vec::with_capacity(colliders);
        for _ in 0..colliders {
            let some = r.flag()?;
            collider_target.push(Some(r.pose()?).filter(|_| some));
        }
        let contact_stiffness = stiffness(r.option()?, "contact stiffness")?;
        let self_contact_stiffness = stiffness(r.option()?, "self-contact stiffness")?;
        let shell_solid_stiffness =
            if with_shell_solid { stiffness(r.option()?, "shell-solid stiffness")? } else { None };
        let acceleration = r.f64s(&[0, 3 * n], "acceleration")?;
        let history = if r.flag()? {
            let (q, v) = (r.f64s(&[3 * n], "history positions")?, r.f64s(&[3 * n], "history velocities")?);
            let h = r.f64()?;
            if !(h > 0.0 && h.is_finite()) || !q.iter().all(|&x| coordinate(x)) {
                return Err(Error::invalid(format!(
                    "checkpoint: BDF2 history with step {h} s or positions out of bounds"
                )));
            }
            Some(StepHistory { q, v, h })
        } else {
            None
        };
        let layout = if r.flag()? {
            let with_contacts = r.flag()?;
            let count = r.len(bytes.len() / 8)?;
            let mut pairs = Vec::with_capacity(count);
            for _ in 0..count {
                let x = r.u64()?;
                let (a, b) = ((x >> 32) as u32, x as u32);
                if a as usize >= n || b as usize >= n {
                    return Err(Error::invalid(format!("checkpoint: coupling ({a}, {b}) outside {n} vertices")));
                }
                pairs.push((a, b));
            }
            if !with_contacts && !pairs.is_empty() {
                return Err(Error::invalid("checkpoint: contact couplings in a pattern of the elements alone"));
            }
            Some(Arc::new(LayoutCouplings(with_contacts.then_some(pairs))))
        } else {
            None
        };
        let system = layout.as_ref().map(|c| c.build(&self.model, &self.params)).transpose()?;
        let soft_pins = if with_soft_pins { soft_pins(&mut r, n)? } else { Vec::new() };
        if r.at != bytes.len() {
            return Err(Error::invalid(format!("checkpoint: {} bytes left over", bytes.len() - r.at)));
        }
        self.q = q;
        self.v = v;
        self.pinned = pinned;
        self.target = target;
        self.model.soft_pins = soft_pins;
        self.collider_pose = collider_pose;
        self.collider_target = collider_target;
        self.carried = CarriedState {
            contact_stiffness,
            self_contact_stiffness,
            shell_solid_stiffness,
            acceleration,
            history,
            system,
            layout,
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::VertexAttribute;
    use crate::{Material, SolverParams};

    /// A cloth square over a pinned box, with self-contact on, one step on.
    fn cloth_over_box() -> Solver {
        let params = SolverParams { self_contact: true, time_step: 5e-3, ..SolverParams::default() };
        let mut s = Solver::new(&params).unwrap();
        let (p, t) = crate::mesh::generate::box_tets([0.1, 0.1, 0.1], [2, 2, 2], [0.0; 3]);
        let block = s.add_solid(&p, &t, &Material::default()).unwrap();
        s.set_vertex_attribute(block, VertexAttribute::Pinned, &vec![1.0; p.len() / 3]).unwrap();
        let cloth = [0.02, 0.02, 0.103, 0.08, 0.02, 0.103, 0.02, 0.08, 0.103, 0.08, 0.08, 0.103];
        s.add_shell(&cloth, &[0, 1, 2, 2, 1, 3], &Material::default()).unwrap();
        s.step(5e-3).unwrap();
        s
    }

    /// A checkpoint of the previous format (no κ_b) is restored with κ_b unset and everything
    /// else as written.
    #[test]
    fn a_checkpoint_without_shell_solid_stiffness_is_read() {
        let source = cloth_over_box();
        assert!(source.carried.shell_solid_stiffness.is_some());
        let old = source.encode(MAGIC_WITHOUT_SHELL_SOLID);
        assert_eq!(old.len() + 16, source.encode(MAGIC_WITHOUT_SOFT_PINS).len());
        let mut target = cloth_over_box();
        target.step(5e-3).unwrap();
        target.restore(&old).unwrap();
        assert_eq!(target.carried.shell_solid_stiffness, None);
        assert_eq!(target.q, source.q);
        assert_eq!(target.v, source.v);
        assert_eq!(target.encode(MAGIC_WITHOUT_SHELL_SOLID), old);
    }

    /// Soft pins go through a checkpoint (stiffness and moved anchors); one of the format
    /// without them restores none.
    #[test]
    fn soft_pins_are_restored() {
        let mut source = cloth_over_box();
        let cloth = 2;
        source.set_vertex_attribute(cloth, VertexAttribute::PinStiffness, &[0.0, 40.0, 0.0, 7.5]).unwrap();
        let target: Vec<f64> = source.positions(cloth).unwrap().iter().map(|x| x + 0.01).collect();
        source.set_vertex_attribute(cloth, VertexAttribute::Target, &target).unwrap();
        source.step(5e-3).unwrap();
        let mut restored = cloth_over_box();
        restored.restore(&source.checkpoint()).unwrap();
        assert_eq!(restored.model.soft_pins, source.model.soft_pins);
        assert_eq!(restored.model.soft_pins[1].anchor, [target[9], target[10], target[11]]);
        restored.restore(&source.encode(MAGIC_WITHOUT_SOFT_PINS)).unwrap();
        assert!(restored.model.soft_pins.is_empty());
        assert_eq!(restored.q, source.q);
    }
}
