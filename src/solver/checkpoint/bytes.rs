//! The byte encoding of checkpoints: little-endian fields, vectors preceded by their length,
//! and a reader that fails on truncated or malformed input.

use super::coordinate;
use crate::contact::Pose;
use crate::error::{Error, Result};
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

/// Appends little-endian fields to a byte vector.
pub(super) struct Writer(pub(super) Vec<u8>);

impl Writer {
    pub(super) fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    pub(super) fn f64(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    pub(super) fn f64s(&mut self, xs: &[f64]) {
        self.u64(xs.len() as u64);
        xs.iter().for_each(|&x| self.f64(x));
    }
    pub(super) fn option(&mut self, x: Option<f64>) {
        self.u64(x.is_some() as u64);
        self.f64(x.unwrap_or(0.0));
    }
    pub(super) fn pose(&mut self, p: &Pose) {
        let c = p.rotation.quaternion().coords;
        [c[0], c[1], c[2], c[3], p.translation[0], p.translation[1], p.translation[2]]
            .iter()
            .for_each(|&x| self.f64(x));
    }
}

/// Reads the fields of a [`Writer`], failing on truncated or malformed input.
pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl Reader<'_> {
    pub(super) fn take(&mut self, n: usize) -> Result<&[u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| Error::invalid(format!("checkpoint truncated at byte {}", self.at)))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    pub(super) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    pub(super) fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    pub(super) fn flag(&mut self) -> Result<bool> {
        match self.u64()? {
            0 => Ok(false),
            1 => Ok(true),
            x => Err(Error::invalid(format!("checkpoint: flag {x} at byte {} is not 0 or 1", self.at - 8))),
        }
    }
    pub(super) fn len(&mut self, max: usize) -> Result<usize> {
        let n = self.u64()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| Error::invalid(format!("checkpoint: length {n} at byte {} exceeds {max}", self.at - 8)))
    }
    /// A vector of finite values whose length must be one of `allowed`.
    pub(super) fn f64s(&mut self, allowed: &[usize], what: &str) -> Result<Vec<f64>> {
        let n = self.len(allowed.iter().copied().max().unwrap_or(0))?;
        if !allowed.contains(&n) {
            return Err(Error::invalid(format!("checkpoint: {what} has {n} values, expected one of {allowed:?}")));
        }
        let xs = (0..n).map(|_| self.f64()).collect::<Result<Vec<f64>>>()?;
        match xs.iter().position(|x| !x.is_finite()) {
            Some(i) => Err(Error::invalid(format!("checkpoint: {what}[{i}] is not finite"))),
            None => Ok(xs),
        }
    }
    pub(super) fn option(&mut self) -> Result<Option<f64>> {
        let (some, x) = (self.flag()?, self.f64()?);
        Ok(some.then_some(x))
    }
    pub(super) fn pose(&mut self) -> Result<Pose> {
        let x: Vec<f64> = (0..7).map(|_| self.f64()).collect::<Result<_>>()?;
        let norm = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]).sqrt();
        if !x[4..].iter().all(|&v| coordinate(v)) || !((norm - 1.0).abs() <= 1e-9) {
            return Err(Error::invalid("checkpoint: a collider pose is not a rotation and a translation in bounds"));
        }
        // The quaternion's own bits: it was unit when written, and normalising again could
        // change its last bit.
        Ok(Pose {
            rotation: UnitQuaternion::new_unchecked(Quaternion::new(x[3], x[0], x[1], x[2])),
            translation: Vector3::new(x[4], x[5], x[6]),
        })
    }
}
