//! Experiments with closed-form answers (paper §5.1 and issue 3's acceptance cases): scene
//! builders and measurements shared by the tests, `grip accuracy` (which writes ACCURACY.md) and
//! the demos. The analytic values are physics, never fitted to the solver.

pub mod incline;
pub mod integrator_order;
pub mod pinch;

pub use incline::{Incline, InclineSample};
pub use pinch::{Pinch, PinchSample};
