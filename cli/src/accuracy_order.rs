//! The order-of-accuracy section of ACCURACY.md: every integrator's error at t = 1 s
//! on the contact-free mass–spring of `grip::analytic::integrator_order` for 4 step sizes, and
//! the fitted slope against the theoretical order.

use grip::analytic::integrator_order::{reference, study, DURATION, STEPS};
use std::fmt::Write as _;

/// The Markdown section (a failed run is reported in it, not fatal).
pub fn section() -> String {
    let mut out = String::from("\n## Integrators: order of accuracy\n\n");
    let _ = writeln!(
        out,
        "Largest vertex error at t = {DURATION} s on a contact-free nonlinear mass–spring (the apex of one \
         neo-Hookean tet with its base pinned, ≈ 25 % strain, mass damping) against SDIRK2 at h = {} s; \
         order = least-squares slope of log(error) over log(h). Theory: 1 for BE, SI and SIERE (1 mode of 3), 2 for the others (ERE: with the exact Jacobian).\n",
        STEPS[STEPS.len() - 1] / 16.0
    );
    let steps: Vec<String> = STEPS.iter().map(|h| format!("h = {h} s")).collect();
    let _ = writeln!(out, "| integrator | {} | order | theory |", steps.join(" | "));
    let _ = writeln!(out, "|---|{}---|---|", "---|".repeat(STEPS.len()));
    eprintln!("grip accuracy: integrator order study");
    match reference(&STEPS).and_then(|r| study(&STEPS, &r)) {
        Ok(results) => {
            for r in results {
                let errors: Vec<String> = r.errors.iter().map(|e| format!("{e:.3e} m")).collect();
                let theory = r.theory;
                let _ = writeln!(out, "| {} | {} | {:.3} | {theory} |", r.name, errors.join(" | "), r.order);
            }
        }
        Err(e) => {
            let _ = writeln!(out, "| failed: {e} |");
        }
    }
    out
}
