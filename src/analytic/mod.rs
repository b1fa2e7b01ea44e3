//! Experiments with closed-form answers (the block slide, conveyor belt and pinch of paper §5.1,
//! and the integrators' order of accuracy): scene builders and measurements shared by the
//! tests, `grip accuracy` (which writes ACCURACY.md) and the demos. The analytic values are
//! physics, never fitted to the solver.

pub mod fitted_sleeve;
pub mod incline;
pub mod integrator_order;
pub mod pinch;

pub use fitted_sleeve::{FittedSleeve, FittedSleeveSample};
pub use incline::{Incline, InclineSample, InclineSurface};
pub use pinch::{Pinch, PinchSample};
