//! Right-preconditioned BiCGSTAB (van der Vorst 1992) for the non-symmetric Newton systems of
//! frictional contact (paper §4.3): finds x with ‖b − A x‖ ≤ tol ‖b‖, A given as a product
//! x ↦ A x and the preconditioner as an approximate solve z ↦ M⁻¹ z. Dot products are summed
//! serially in index order, so results do not depend on the thread count.

/// How a BiCGSTAB solve ended.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BicgstabOutcome {
    /// Iterations taken (each costs two products and two preconditioner solves).
    pub iterations: u32,
    /// Final ‖b − A x‖ / ‖b‖.
    pub relative_residual: f64,
    /// Whether the tolerance was reached.
    pub converged: bool,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// Solves A x = b from x = 0 (overwritten) to relative residual `tol`, at most `max_iterations`
/// iterations. `apply(x, y)` writes A x into y; `precondition(z)` replaces z by M⁻¹ z.
pub fn solve(
    apply: &mut dyn FnMut(&[f64], &mut [f64]),
    precondition: &mut dyn FnMut(&mut [f64]),
    b: &[f64],
    x: &mut [f64],
    tol: f64,
    max_iterations: u32,
) -> BicgstabOutcome {
    let n = b.len();
    x.iter_mut().for_each(|v| *v = 0.0);
    let b_norm = norm(b);
    if b_norm == 0.0 {
        return BicgstabOutcome { iterations: 0, relative_residual: 0.0, converged: true };
    }
    let mut r = b.to_vec();
    let r_hat = b.to_vec();
    let (mut p, mut v, mut y, mut s, mut z, mut t) =
        (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut rho, mut alpha, mut omega) = (1.0, 1.0, 1.0);
    let mut outcome = BicgstabOutcome { iterations: 0, relative_residual: 1.0, converged: false };
    while outcome.iterations < max_iterations {
        outcome.iterations += 1;
        let rho_new = dot(&r_hat, &r);
        if rho_new == 0.0 || !rho_new.is_finite() {
            break; // breakdown: the caller uses the best x so far
        }
        let beta = (rho_new / rho) * (alpha / omega);
        rho = rho_new;
        for i in 0..n {
            p[i] = r[i] + beta * (p[i] - omega * v[i]);
        }
        y.copy_from_slice(&p);
        precondition(&mut y);
        apply(&y, &mut v);
        let denom = dot(&r_hat, &v);
        if denom == 0.0 || !denom.is_finite() {
            break;
        }
        alpha = rho / denom;
        for i in 0..n {
            s[i] = r[i] - alpha * v[i];
        }
        if norm(&s) <= tol * b_norm {
            for i in 0..n {
                x[i] += alpha * y[i];
            }
            r.copy_from_slice(&s);
            outcome.relative_residual = norm(&r) / b_norm;
            outcome.converged = true;
            return outcome;
        }
        z.copy_from_slice(&s);
        precondition(&mut z);
        apply(&z, &mut t);
        let tt = dot(&t, &t);
        omega = if tt > 0.0 { dot(&t, &s) / tt } else { 0.0 };
        for i in 0..n {
            x[i] += alpha * y[i] + omega * z[i];
            r[i] = s[i] - omega * t[i];
        }
        outcome.relative_residual = norm(&r) / b_norm;
        if outcome.relative_residual <= tol {
            outcome.converged = true;
            return outcome;
        }
        if omega == 0.0 || !omega.is_finite() {
            break;
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A non-symmetric, diagonally dominant tridiagonal system is solved to the tolerance, with
    /// and without a Jacobi preconditioner; the answer satisfies the equations.
    #[test]
    fn solves_a_nonsymmetric_system() {
        let n = 200;
        let apply = |x: &[f64], y: &mut [f64]| {
            for i in 0..n {
                let mut v = 4.0 * x[i];
                if i > 0 {
                    v -= 1.5 * x[i - 1];
                }
                if i + 1 < n {
                    v -= 0.5 * x[i + 1];
                }
                y[i] = v;
            }
        };
        let b: Vec<f64> = (0..n).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect();
        for jacobi in [false, true] {
            let mut x = vec![0.0; n];
            let mut op = apply;
            let mut pre = |z: &mut [f64]| {
                if jacobi {
                    z.iter_mut().for_each(|v| *v /= 4.0)
                }
            };
            let out = solve(&mut op, &mut pre, &b, &mut x, 1e-10, 200);
            assert!(out.converged && out.relative_residual <= 1e-10, "{out:?}");
            let mut ax = vec![0.0; n];
            apply(&x, &mut ax);
            let err = ax.iter().zip(&b).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(err < 1e-8, "max |Ax − b| = {err}");
        }
    }
}
