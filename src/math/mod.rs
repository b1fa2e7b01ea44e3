//! Small-vector arithmetic generic over [`real::Real`] (plain `f64` or forward-mode dual
//! numbers), and the automatic differentiation built on it ([`autodiff`]): the crate's lowest layer.

pub mod autodiff;
pub mod real;
