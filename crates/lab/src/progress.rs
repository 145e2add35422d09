//! A one-line progress display on stderr: a bar, counts and whatever running
//! statistics the caller supplies. On a terminal the line is redrawn in place;
//! otherwise (output sent to a log) one line is printed per update.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    total: usize,
    start: Instant,
    /// Games already done when this run started (resumed from the PGN); they
    /// do not count towards the speed used for the ETA.
    initial: usize,
    tty: bool,
    enabled: bool,
    drawn: bool,
}

const WIDTH: usize = 24;

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

impl Progress {
    pub fn new(total: usize, initial: usize, enabled: bool) -> Self {
        Progress {
            total,
            start: Instant::now(),
            initial,
            tty: std::io::stderr().is_terminal(),
            enabled,
            drawn: false,
        }
    }

    /// The text of the progress line (without terminal control characters).
    pub fn line(&self, done: usize, stats: &str) -> String {
        let filled = (done * WIDTH)
            .checked_div(self.total)
            .unwrap_or(WIDTH)
            .min(WIDTH);
        let bar: String = "#".repeat(filled) + &".".repeat(WIDTH - filled);
        let elapsed = self.start.elapsed();
        let fresh = done.saturating_sub(self.initial);
        let eta = if fresh > 0 && done < self.total {
            let per_game = elapsed.as_secs_f64() / fresh as f64;
            format!(
                " ETA {}",
                fmt_duration(Duration::from_secs_f64(
                    per_game * (self.total - done) as f64
                ))
            )
        } else {
            String::new()
        };
        format!(
            "[{bar}] {done}/{} {stats} ({}{eta})",
            self.total,
            fmt_duration(elapsed)
        )
    }

    pub fn update(&mut self, done: usize, stats: &str) {
        if !self.enabled {
            return;
        }
        let line = self.line(done, stats);
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r\x1b[2K{line}");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
        self.drawn = true;
    }

    /// Ends the redrawn line so that later output starts on a fresh one.
    pub fn finish(&mut self) {
        if self.enabled && self.tty && self.drawn {
            eprintln!();
        }
        self.drawn = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_shows_bar_and_counts() {
        let p = Progress::new(10, 0, false);
        let l = p.line(5, "W 1 D 2 L 2");
        assert!(
            l.starts_with("[############............] 5/10 W 1 D 2 L 2"),
            "{l}"
        );
        let l = p.line(10, "");
        assert!(l.starts_with("[########################] 10/10"), "{l}");
    }
}
