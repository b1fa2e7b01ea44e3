//! A stretch-jersey sleeve cut small (3, 10 and 20 % hoop strain when worn, 20 % being the tube
//! demo's sleeve), put on a rigid analytic cylinder (no gravity, no
//! friction) and left to settle: its mean contact pressure, the total normal contact force over
//! its worn area, agrees with the membrane's hoop pressure p = T / R (Laplace's law, T from the
//! membrane energy in closed form) within 10 %.

use grip::analytic::fitted_sleeve::{linear_hoop_pressure, FittedSleeve};

#[test]
fn fitted_sleeve_presses_with_the_hoop_pressure() {
    for strain in [0.03, 0.10, 0.20] {
        let experiment = FittedSleeve { hoop_strain: strain, ..FittedSleeve::jersey() };
        let s = experiment.run().expect("settles");
        let m = experiment.material;
        let linear = linear_hoop_pressure(m.youngs_modulus, m.thickness, s.hoop_strain, s.radius);
        eprintln!("strain {strain}: {s:#?}\nlinear E t eps / R = {linear:.3} Pa");
        assert!(s.max_speed < 1e-3, "not settled: {} m/s", s.max_speed);
        // Worn on the cylinder's surface or within the contact thickness δ = 1 mm of it.
        let worn = [strain, (1.0 + strain) * (1.0 + 1e-3 / 0.05) - 1.0];
        assert!((worn[0]..worn[1]).contains(&s.hoop_strain), "worn hoop strain {} not in {worn:?}", s.hoop_strain);
        let ratio = s.pressure / s.analytic_pressure;
        // The acceptance is 10 %; the settled sleeve agrees to 0.1 %, so 2 % still catches a
        // wrong tension (dropping the 1/λ₂ of a worn length is 6 % at 20 % strain).
        assert!((ratio - 1.0).abs() < 0.02, "measured {} Pa, analytic {} Pa", s.pressure, s.analytic_pressure);
    }
}
