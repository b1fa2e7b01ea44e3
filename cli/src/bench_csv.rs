//! `benches/results.csv`, the raw numbers of `grip bench --report`: one line per run.

use super::bench_tables::Entry;
use std::fmt::Write as _;

/// One CSV line per run: section, label, command, then the row's numbers (empty when it failed)
/// and the error.
pub(crate) fn csv(entries: &[Entry]) -> String {
    let mut o = String::from(
        "section,label,command,scene,solver,dofs,frames,substeps,newton_iterations,linear_iterations,seconds,\
         assembly_s,factorization_s,solve_s,residual_s,contact_search_s,peak_mib,volume_change_pct,slip_m,\
         intersecting_pairs,error\n",
    );
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let number = |x: f64| if x.is_nan() { String::new() } else { x.to_string() };
    for e in entries {
        let numbers = match &e.result {
            Ok(r) => format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},",
                quote(&r.name),
                r.solver,
                r.dofs,
                r.frames,
                r.substeps,
                r.newton_iterations,
                r.linear_iterations,
                r.seconds,
                r.assembly,
                r.factorization,
                r.solve,
                r.residual,
                r.contact_search,
                r.peak_mib,
                number(r.volume_change_pct),
                number(r.slip),
                number(r.intersecting_pairs)
            ),
            Err(m) => format!("{}{}", ",".repeat(17), quote(m)),
        };
        let _ = writeln!(o, "{},{},{},{numbers}", e.run.section.name(), quote(&e.run.label), quote(&e.run.command()));
    }
    o
}
