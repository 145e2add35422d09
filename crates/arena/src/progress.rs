//! A one-line progress display on stderr: a bar, counts, the rate, an ETA and
//! whatever running statistics the caller supplies. On a terminal the line is
//! an `indicatif` bar redrawn in place; otherwise (output sent to a log) one
//! plain line is printed per update.
//!
//! The rate and the ETA count only the work done by this run: items already
//! done when it started (a resumed match, a resumed data collection) finished
//! in no time as far as this run is concerned and would make the ETA far too
//! optimistic. The rate is the run's average, not a moving one: matches and
//! experiments are long runs of similar items, where the average is the best
//! predictor, and a moving average jumps with every slow game.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

pub struct Progress {
    total: usize,
    start: Instant,
    /// Items already done when this run started; they do not count towards
    /// the rate or the ETA.
    initial: usize,
    unit: &'static str,
    enabled: bool,
    /// The redrawn bar on a terminal; `None` when writing plain lines.
    bar: Option<ProgressBar>,
}

const WIDTH: usize = 24;
/// The bar's characters: done, the head (on a terminal), still to do.
const BAR_CHARS: &str = "#>.";

/// A progress line as a log holds it, without the bar's drawing (`[###>....] `): what follows
/// (counts, statistics, rate, ETA) is what a reader of the log wants. Other lines unchanged.
pub fn without_bar(line: &str) -> &str {
    match line.strip_prefix('[').and_then(|rest| rest.split_once(']')) {
        Some((bar, rest)) if !bar.is_empty() && bar.chars().all(|c| BAR_CHARS.contains(c)) => {
            rest.trim_start()
        }
        _ => line,
    }
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// Items per second over this run, e.g. `2.41 games/s`.
fn rate_text(fresh: usize, elapsed: Duration, unit: &str) -> String {
    let secs = elapsed.as_secs_f64();
    if fresh == 0 || secs <= 0.0 {
        return format!("- {unit}/s");
    }
    let rate = fresh as f64 / secs;
    if rate >= 100.0 {
        format!("{rate:.0} {unit}/s")
    } else if rate >= 1.0 {
        format!("{rate:.2} {unit}/s")
    } else {
        format!("{:.1} s/{}", 1.0 / rate, unit.trim_end_matches('s'))
    }
}

/// Time left at this run's average rate, or nothing before the first item.
fn eta(fresh: usize, remaining: usize, elapsed: Duration) -> Option<Duration> {
    if fresh == 0 || remaining == 0 {
        return None;
    }
    Some(Duration::from_secs_f64(
        elapsed.as_secs_f64() / fresh as f64 * remaining as f64,
    ))
}

impl Progress {
    /// `total` items of which `initial` are already done; nothing is drawn
    /// unless `enabled`.
    pub fn new(total: usize, initial: usize, enabled: bool) -> Self {
        Progress::with_unit(total, initial, enabled, "items")
    }

    /// As [`Progress::new`], naming the items (`games`, `positions`, ...) in the rate.
    pub fn with_unit(total: usize, initial: usize, enabled: bool, unit: &'static str) -> Self {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(
                Some(total as u64),
                ProgressDrawTarget::stderr_with_hz(4),
            );
            let style = ProgressStyle::with_template(
                "[{bar:24}] {pos}/{len} {msg} ({elapsed} {rate} {eta_left})",
            )
            .expect("the progress template is valid")
            .progress_chars(BAR_CHARS)
            .with_key(
                "rate",
                move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let fresh = (s.pos() as usize).saturating_sub(initial);
                    let _ = w.write_str(&rate_text(fresh, s.elapsed(), unit));
                },
            )
            .with_key(
                "eta_left",
                move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let pos = s.pos() as usize;
                    let left = (s.len().unwrap_or(0) as usize).saturating_sub(pos);
                    if let Some(t) = eta(pos.saturating_sub(initial), left, s.elapsed()) {
                        let _ = write!(w, "ETA {}", fmt_duration(t));
                    }
                },
            );
            bar.set_style(style);
            bar.set_position(initial as u64);
            bar
        });
        Progress {
            total,
            start: Instant::now(),
            initial,
            unit,
            enabled,
            bar,
        }
    }

    /// The text of the progress line (without terminal control characters),
    /// as written to a log.
    pub fn line(&self, done: usize, stats: &str) -> String {
        let filled = (done * WIDTH)
            .checked_div(self.total)
            .unwrap_or(WIDTH)
            .min(WIDTH);
        let (done_char, todo_char) = (&BAR_CHARS[..1], &BAR_CHARS[2..]);
        let bar: String = done_char.repeat(filled) + &todo_char.repeat(WIDTH - filled);
        let elapsed = self.start.elapsed();
        let fresh = done.saturating_sub(self.initial);
        let mut tail = format!(
            "{} {}",
            fmt_duration(elapsed),
            rate_text(fresh, elapsed, self.unit)
        );
        if let Some(t) = eta(fresh, self.total.saturating_sub(done), elapsed) {
            let _ = write!(tail, " ETA {}", fmt_duration(t));
        }
        format!("[{bar}] {done}/{} {stats} ({tail})", self.total)
    }

    pub fn update(&mut self, done: usize, stats: &str) {
        if !self.enabled {
            return;
        }
        if let Some(bar) = &self.bar {
            bar.set_message(stats.to_string());
            bar.set_position(done as u64);
            return;
        }
        let line = self.line(done, stats);
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{line}");
        let _ = err.flush();
    }

    /// Ends the redrawn line so that later output starts on a fresh one.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
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
        assert!(without_bar(&l).starts_with("5/10 W 1 D 2 L 2 ("), "{l}");
        let l = p.line(10, "");
        assert!(l.starts_with("[########################] 10/10"), "{l}");
        assert!(!l.contains("ETA"), "nothing left: {l}");
    }

    #[test]
    fn eta_and_rate_count_only_this_runs_work() {
        // 40 of 100 were done before; 20 more took 10 s: 2 per second, and the
        // 40 left take 20 s. Counting the resumed 40 would predict 6.7 s.
        let t = eta(20, 40, Duration::from_secs(10)).unwrap();
        assert_eq!(t, Duration::from_secs(20));
        assert_eq!(
            rate_text(20, Duration::from_secs(10), "games"),
            "2.00 games/s"
        );
        assert_eq!(rate_text(1, Duration::from_secs(4), "games"), "4.0 s/game");
        assert!(eta(0, 10, Duration::from_secs(3)).is_none());
        let p = Progress::with_unit(100, 40, false, "games");
        assert!(p.line(40, "").contains("- games/s"));
    }
}
