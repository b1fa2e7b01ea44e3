//! The command line's log output: the library's `log` records (Newton iterations, substep
//! halvings, contact retries) written to standard error when the environment variable
//! `GRIP_LOG` names a level (`error`, `warn`, `info`, `debug` or `trace`). Off by default so that
//! progress bars and reports stay readable; hosts embedding the library install their own logger.

use log::{LevelFilter, Log, Metadata, Record};

/// Writes every enabled record as one line `grip [level] message` to standard error.
struct StderrLogger;

impl Log for StderrLogger {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &Record) {
        if self.enabled(record.metadata()) {
            eprintln!("grip [{}] {}", record.level().as_str().to_ascii_lowercase(), record.args());
        }
    }

    fn flush(&self) {}
}

static LOGGER: StderrLogger = StderrLogger;

/// The level named by `value` (case-insensitive); `None` for anything else.
pub fn parse_level(value: &str) -> Option<LevelFilter> {
    value.trim().parse::<LevelFilter>().ok()
}

/// Installs the stderr logger at the level of `GRIP_LOG`, if set and valid (an invalid value is
/// reported once and ignored).
pub fn install_from_env() {
    let Ok(value) = std::env::var("GRIP_LOG") else { return };
    match parse_level(&value) {
        Some(level) => {
            if log::set_logger(&LOGGER).is_ok() {
                log::set_max_level(level);
            }
        }
        None => eprintln!("grip: warning: GRIP_LOG={value:?} is not a log level (error, warn, info, debug, trace)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_case_insensitively_and_junk_does_not() {
        assert_eq!(parse_level("debug"), Some(LevelFilter::Debug));
        assert_eq!(parse_level(" WARN "), Some(LevelFilter::Warn));
        assert_eq!(parse_level("off"), Some(LevelFilter::Off));
        assert_eq!(parse_level("loud"), None);
    }
}
