//! Time controls and chess clocks.
//!
//! Accepted forms: `10+0.1` (base seconds + increment), `40/60` or `40/60+1`
//! (moves per period / seconds), `movetime=0.5` (seconds per move),
//! `nodes=20000` and `depth=8`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use anyhow::{bail, Context, Error, Result};
use shakmaty::Color;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    Clock {
        /// Moves per period (`40/60`); `None` for sudden death.
        moves: Option<u32>,
        base: Duration,
        inc: Duration,
    },
    MoveTime(Duration),
    Nodes(u64),
    Depth(u32),
}

/// The longest time a time control may name, in seconds.
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// A flag's wait in seconds (`--stall-timeout`): above 0 and at most [`MAX_SECONDS`].
pub fn parse_wait(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= MAX_SECONDS => Ok(v),
        _ => Err(format!(
            "'{text}' is not a number of seconds above 0, at most {MAX_SECONDS}"
        )),
    }
}

fn seconds(text: &str) -> Result<Duration> {
    let v: f64 = text
        .trim()
        .parse()
        .with_context(|| format!("'{text}' is not a number of seconds"))?;
    if !v.is_finite() || v < 0.0 {
        bail!("'{text}' is not a non-negative number of seconds");
    }
    // A clock is added to and multiplied: a bound far above any game keeps that arithmetic
    // in range.
    if v > MAX_SECONDS {
        bail!("'{text}' seconds: at most {MAX_SECONDS} (about 11 days)");
    }
    Ok(Duration::from_secs_f64(v))
}

impl FromStr for TimeControl {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim();
        let bad = || {
            format!(
                "bad time control '{s}' (try 10+0.1, 40/60, movetime=0.5, nodes=20000, depth=8)"
            )
        };
        if let Some(v) = s.strip_prefix("movetime=") {
            let d = seconds(v).with_context(bad)?;
            if d.is_zero() {
                bail!("{}: movetime must be positive", bad());
            }
            return Ok(TimeControl::MoveTime(d));
        }
        if let Some(v) = s.strip_prefix("nodes=") {
            let n: u64 = v.parse().with_context(bad)?;
            if n == 0 {
                bail!("{}: nodes must be positive", bad());
            }
            return Ok(TimeControl::Nodes(n));
        }
        if let Some(v) = s.strip_prefix("depth=") {
            let n: u32 = v.parse().with_context(bad)?;
            if n == 0 {
                bail!("{}: depth must be positive", bad());
            }
            return Ok(TimeControl::Depth(n));
        }
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m.parse().with_context(bad)?;
                if m == 0 {
                    bail!("{}: moves per period must be positive", bad());
                }
                (Some(m), rest)
            }
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b).with_context(bad)?, seconds(i).with_context(bad)?),
            None => (seconds(rest).with_context(bad)?, Duration::ZERO),
        };
        if base.is_zero() {
            bail!("{}: base time must be positive", bad());
        }
        Ok(TimeControl::Clock { moves, base, inc })
    }
}

fn secs_text(d: Duration) -> String {
    let v = d.as_secs_f64();
    let mut t = format!("{v:.3}");
    while t.ends_with('0') {
        t.pop();
    }
    if t.ends_with('.') {
        t.pop();
    }
    t
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag value (or our own notation for the untimed kinds).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { moves, base, inc } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", secs_text(*base))?;
                if !inc.is_zero() {
                    write!(f, "+{}", secs_text(*inc))?;
                }
                Ok(())
            }
            TimeControl::MoveTime(d) => write!(f, "movetime={}", secs_text(*d)),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(n) => write!(f, "depth={n}"),
        }
    }
}

impl TimeControl {
    /// Whether the engines play on a clock (a time control or a fixed time a move), where the
    /// machine's other load changes the result; nodes and depth do not see it.
    pub fn is_timed(&self) -> bool {
        matches!(self, TimeControl::Clock { .. } | TimeControl::MoveTime(_))
    }

    /// The PGN `TimeControl` tag: PGN has forms only for clocks and fixed time per move.
    pub fn pgn_tag(&self) -> String {
        match self {
            TimeControl::MoveTime(d) => format!("*{}", secs_text(*d)),
            TimeControl::Clock { .. } => self.to_string(),
            _ => "-".to_string(),
        }
    }
}

/// Both players' clocks during one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    tc: TimeControl,
    /// Remaining time, white then black.
    remaining: [Duration; 2],
    /// Moves made by each side (for `movestogo`).
    moves_made: [u32; 2],
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clocks {
    pub fn new(tc: TimeControl) -> Self {
        let start = match tc {
            TimeControl::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        Clocks {
            tc,
            remaining: [start; 2],
            moves_made: [0; 2],
        }
    }

    pub fn remaining(&self, c: Color) -> Duration {
        self.remaining[idx(c)]
    }

    /// The arguments after `go` for the side to move.
    pub fn go_args(&self, to_move: Color) -> String {
        match self.tc {
            TimeControl::Clock { moves, inc, .. } => {
                let ms = |d: Duration| d.as_millis();
                let mut s = format!(
                    "wtime {} btime {} winc {} binc {}",
                    ms(self.remaining[0]),
                    ms(self.remaining[1]),
                    ms(inc),
                    ms(inc)
                );
                if let Some(m) = moves {
                    let togo = m - self.moves_made[idx(to_move)] % m;
                    s.push_str(&format!(" movestogo {togo}"));
                }
                s
            }
            TimeControl::MoveTime(d) => format!("movetime {}", d.as_millis()),
            TimeControl::Nodes(n) => format!("nodes {n}"),
            TimeControl::Depth(n) => format!("depth {n}"),
        }
    }

    /// The time the mover may use before a forfeit (margin not included);
    /// `None` when the game is not played on time.
    pub fn allowance(&self, to_move: Color) -> Option<Duration> {
        match self.tc {
            TimeControl::Clock { .. } => Some(self.remaining[idx(to_move)]),
            TimeControl::MoveTime(d) => Some(d),
            _ => None,
        }
    }

    /// Charges `used` to the mover and applies increment and period refills.
    /// Returns false when the mover overstepped its time by more than `margin`.
    pub fn charge(&mut self, mover: Color, used: Duration, margin: Duration) -> bool {
        let i = idx(mover);
        self.moves_made[i] += 1;
        match self.tc {
            TimeControl::Clock { moves, base, inc } => {
                let left = self.remaining[i];
                if used > left + margin {
                    self.remaining[i] = Duration::ZERO;
                    return false;
                }
                let mut after = left.saturating_sub(used) + inc;
                if let Some(m) = moves {
                    if self.moves_made[i].is_multiple_of(m) {
                        after += base;
                    }
                }
                self.remaining[i] = after;
                true
            }
            TimeControl::MoveTime(d) => used <= d + margin,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_forms() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl::Clock {
                moves: None,
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            }
        );
        assert_eq!(tc.to_string(), "10+0.1");
        let tc: TimeControl = "40/60".parse().unwrap();
        assert_eq!(tc.to_string(), "40/60");
        assert_eq!(
            "movetime=0.25".parse::<TimeControl>().unwrap().pgn_tag(),
            "*0.25"
        );
        assert_eq!(
            "nodes=500".parse::<TimeControl>().unwrap(),
            TimeControl::Nodes(500)
        );
        assert_eq!(
            "depth=7".parse::<TimeControl>().unwrap(),
            TimeControl::Depth(7)
        );
        for bad in [
            "",
            "abc",
            "0+1",
            "-5+1",
            "40/",
            "0/60",
            "nodes=0",
            "depth=x",
            "10+x",
            // Beyond any game (a Duration would overflow): refused, not a panic.
            "1e300+0",
            "movetime=1e300",
            "10+1e12",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_wait_is_positive_and_bounded() {
        assert_eq!(parse_wait("600"), Ok(600.0));
        for bad in ["0", "-1", "inf", "nan", "1e300", "x"] {
            assert!(parse_wait(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_increments_and_periods() {
        let mut c = Clocks::new("40/60".parse().unwrap());
        assert!(c.go_args(Color::White).ends_with("movestogo 40"));
        for _ in 0..39 {
            assert!(c.charge(Color::White, Duration::from_secs(1), Duration::ZERO));
        }
        assert!(c.go_args(Color::White).ends_with("movestogo 1"));
        assert!(c.charge(Color::White, Duration::from_secs(1), Duration::ZERO));
        assert_eq!(c.remaining(Color::White), Duration::from_secs(80));
        let mut c = Clocks::new("1+0.5".parse().unwrap());
        assert!(c.charge(Color::Black, Duration::from_millis(300), Duration::ZERO));
        assert_eq!(c.remaining(Color::Black), Duration::from_millis(1200));
        assert!(!c.charge(
            Color::Black,
            Duration::from_millis(1300),
            Duration::from_millis(50)
        ));
        assert!(c.charge(
            Color::White,
            Duration::from_millis(1040),
            Duration::from_millis(50)
        ));
    }
}
