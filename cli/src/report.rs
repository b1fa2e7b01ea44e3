//! `grip demo` and `grip run` in a terminal: the library's frame driver
//! ([`grip::scene::run::simulate`]) with a progress bar on stderr and the previews written as
//! PNG files, then a one-line summary.

use crate::png_file::write_png;
use grip::io::preview::RgbImage;
use grip::scene::run::{describe, simulate, RunObserver, RunOptions, Summary};
use grip::scene::Scene;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::Path;

/// The progress bar of a run (drawn on stderr only when it is a terminal) and its PNG writer.
pub struct Terminal {
    bar: ProgressBar,
}

impl Terminal {
    /// A hidden bar until the run starts.
    pub fn new() -> Self {
        Self { bar: ProgressBar::hidden() }
    }
}

impl Default for Terminal {
    fn default() -> Self {
        Self::new()
    }
}

impl RunObserver for Terminal {
    fn start(&mut self, done: usize, frames: usize) {
        let bar = ProgressBar::with_draw_target(Some(frames as u64), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{pos:>4}/{len} frames {elapsed}<{eta} {msg} {wide_bar:.cyan/blue}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style.progress_chars("=> "));
        bar.set_position(done as u64);
        self.bar = bar;
    }

    fn frame(&mut self, summary: &Summary) {
        self.bar.set_message(format!("{:.1} Newton it/step", summary.mean_iterations()));
        self.bar.inc(1);
    }

    fn fallback(&mut self, message: &str) {
        // Above the bar, which a plain print would break.
        self.bar.suspend(|| eprintln!("grip: warning: {message}"));
    }

    fn pinch(&mut self, message: &str) {
        self.bar.suspend(|| eprintln!("grip: warning: {message}"));
    }

    fn end(&mut self) {
        self.bar.finish_and_clear();
    }

    fn write_preview(&mut self, path: &Path, image: &RgbImage) -> Result<(), String> {
        write_png(path, image)
    }
}

/// Runs `scene` into `out` and prints a line describing the scene, then the one-line summary
/// (stdout) or the error (stderr). Returns the process exit code: 0 on success, 1 on failure.
pub fn run_and_report(scene: &Scene, out: &Path, options: RunOptions) -> i32 {
    println!("grip: {}", describe(scene));
    let line = |s: &Summary| {
        let fallbacks = match s.fallbacks {
            0 => String::new(),
            n => format!(", {n} by a fallback"),
        };
        format!(
            "{} frames in {:.2} s, {:.2} Newton iterations per substep ({} substeps{fallbacks}), output in {}",
            s.frames,
            s.seconds,
            s.mean_iterations(),
            s.substeps,
            out.display()
        )
    };
    match simulate(scene, out, options, &mut Terminal::new()) {
        Ok(s) => {
            println!("grip: {}", line(&s));
            0
        }
        Err(e) => {
            eprintln!("grip: error: {}", e.message);
            if e.summary.frames > 0 {
                eprintln!("grip: kept {}", line(&e.summary));
            }
            1
        }
    }
}
