//! `augur-lab timing`: how close each engine's moves came to its clock, from the runner's
//! own PGN records, and its faults.
//!
//! Every move comment holds the time the runner charged (`0.250s`) and the mover's clock
//! after the move (`[%clk 0:00:09.850]`, the increment added). The clock the engine had when
//! it was sent `go` is its previous `%clk`, or the base time for its first move; the runner
//! forfeits a move that uses more than that clock plus its `--margin` (the increment is
//! added after the move). So, per move:
//! * allowed = the clock before the move (what `go wtime/btime` said);
//! * overshoot = used − allowed (negative: time to spare);
//! * share = used / allowed.
//!
//! A move that lost on time is not in the movetext; the game's closing comment gives its
//! time and clock (`{Black: time, used 0.134s of 0.017s}`) and it is counted too.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use statrs::statistics::{Data, OrderStatistics};

use crate::game::time_control::TimeControl;

#[derive(Args, Debug, Clone)]
pub struct TimingArgs {
    /// PGN files written by `augur-lab match` (clock time controls).
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
}

/// One move on the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTiming {
    /// Time the runner charged, ms.
    pub used_ms: f64,
    /// The mover's clock when it was sent `go`, ms.
    pub allowed_ms: f64,
    /// The mover's clock after the move (increment added), ms; 0 for a move that lost on
    /// time.
    pub left_ms: f64,
}

impl MoveTiming {
    pub fn overshoot_ms(&self) -> f64 {
        self.used_ms - self.allowed_ms
    }
}

/// One game's engines, clock moves and `TerminationDetail`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameTiming {
    pub white: String,
    pub black: String,
    /// Per side (White, Black), in order.
    pub moves: [Vec<MoveTiming>; 2],
    /// `TerminationDetail` (e.g. `White: time`).
    pub detail: Option<String>,
}

#[derive(Default)]
struct Tags {
    game: GameTiming,
    fen: Option<String>,
    tc: Option<String>,
}

struct Movetext {
    game: GameTiming,
    /// Side to move: 0 White, 1 Black.
    side: usize,
    /// The clocks before the next move of each side; `None` off a clock time control.
    clocks: Option<[f64; 2]>,
    /// The side whose move's comment is still to come.
    pending: Option<usize>,
}

struct TimingVisitor;

impl Visitor for TimingVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = GameTiming;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, t: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<GameTiming> {
        let v = value.decode_utf8_lossy().into_owned();
        match name {
            b"White" => t.game.white = v,
            b"Black" => t.game.black = v,
            b"FEN" => t.fen = Some(v),
            b"TimeControl" => t.tc = Some(v),
            b"TerminationDetail" => t.game.detail = Some(v),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, t: Tags) -> ControlFlow<GameTiming, Movetext> {
        let side = match t.fen.as_deref().and_then(|f| f.split_whitespace().nth(1)) {
            Some("b") => 1,
            _ => 0,
        };
        let clocks = match t.tc.as_deref().map(str::parse::<TimeControl>) {
            Some(Ok(TimeControl::Clock { base, .. })) => {
                let ms = base.as_secs_f64() * 1000.0;
                Some([ms, ms])
            }
            _ => None,
        };
        ControlFlow::Continue(Movetext {
            game: t.game,
            side,
            clocks,
            pending: None,
        })
    }

    fn san(&mut self, m: &mut Movetext, _san: SanPlus) -> ControlFlow<GameTiming> {
        m.pending = Some(m.side);
        m.side ^= 1;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, m: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<GameTiming> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        let Some(side) = m.pending.take() else {
            if let Some((side, t)) = flag_of(&text) {
                m.game.moves[side].push(t);
            }
            return ControlFlow::Continue(());
        };
        let Some(clocks) = m.clocks.as_mut() else {
            return ControlFlow::Continue(());
        };
        if let (Some(used_ms), Some(left_ms)) = (used_of(&text), clock_of(&text)) {
            m.game.moves[side].push(MoveTiming {
                used_ms,
                allowed_ms: clocks[side],
                left_ms,
            });
            clocks[side] = left_ms;
        } else {
            // Without both figures this side's clock is unknown from here on.
            m.clocks = None;
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, m: Movetext) -> GameTiming {
        m.game
    }
}

/// The time a move comment gives (`0.250s`), ms.
fn used_of(comment: &str) -> Option<f64> {
    comment.split_whitespace().find_map(|w| {
        let secs: f64 = w.strip_suffix('s')?.parse().ok()?;
        // Written to the millisecond.
        (secs.is_finite() && secs >= 0.0).then_some((secs * 1000.0).round())
    })
}

/// The move that lost on time, from a game's closing comment
/// (`White: time, used 0.134s of 0.017s`): its side and figures.
fn flag_of(comment: &str) -> Option<(usize, MoveTiming)> {
    let (side, rest) = comment.trim().split_once(": time, used ")?;
    let side = match side {
        "White" => 0,
        "Black" => 1,
        _ => return None,
    };
    let (used, clock) = rest.split_once(" of ")?;
    Some((
        side,
        MoveTiming {
            used_ms: used_of(used)?,
            allowed_ms: used_of(clock)?,
            left_ms: 0.0,
        },
    ))
}

/// The clock a move comment gives (`[%clk 0:00:09.850]`), ms.
fn clock_of(comment: &str) -> Option<f64> {
    let rest = &comment[comment.find("[%clk")? + 5..];
    let value = rest[..rest.find(']')?].trim();
    let mut parts = value.rsplitn(3, ':');
    let secs: f64 = parts.next()?.parse().ok()?;
    let mins: f64 = parts.next().map_or(Some(0.0), |m| m.parse().ok())?;
    let hours: f64 = parts.next().map_or(Some(0.0), |h| h.parse().ok())?;
    Some((((hours * 60.0 + mins) * 60.0 + secs) * 1000.0).round())
}

/// Reads the games of PGN text (`name` for errors).
pub fn read_timings(bytes: &[u8], name: &str) -> Result<Vec<GameTiming>> {
    collect(Reader::new(bytes), name)
}

fn collect<R: std::io::Read>(mut reader: Reader<R>, name: &str) -> Result<Vec<GameTiming>> {
    let mut out = Vec::new();
    while let Some(g) = reader
        .read_game(&mut TimingVisitor)
        .with_context(|| format!("cannot read {name}"))?
    {
        out.push(g);
    }
    Ok(out)
}

/// One engine's figures over all its clock moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineTiming {
    pub games: usize,
    pub moves: Vec<MoveTiming>,
    /// Fault keyword (`time`, `crash`, `stall`, `illegal`) → games lost by it.
    pub faults: BTreeMap<String, usize>,
    /// Per game with clock moves: the time it thought in all (ms) and its clock after its
    /// last move (ms), to tell an engine that spends its clock from one that banks it.
    pub per_game: Vec<(f64, f64)>,
}

/// Per engine name, in name order.
pub fn by_engine(games: &[GameTiming]) -> BTreeMap<String, EngineTiming> {
    let mut out: BTreeMap<String, EngineTiming> = BTreeMap::new();
    for g in games {
        for (side, name) in [&g.white, &g.black].into_iter().enumerate() {
            let e = out.entry(name.clone()).or_default();
            e.games += 1;
            e.moves.extend(g.moves[side].iter().cloned());
            if let Some(last) = g.moves[side].last() {
                let think = g.moves[side].iter().map(|m| m.used_ms).sum();
                e.per_game.push((think, last.left_ms));
            }
        }
        let fault = g.detail.as_deref().and_then(|d| d.split_once(": "));
        if let Some((side, what)) = fault {
            let name = match side {
                "White" => &g.white,
                "Black" => &g.black,
                _ => continue,
            };
            let e = out.entry(name.clone()).or_default();
            *e.faults.entry(what.to_string()).or_default() += 1;
        }
    }
    out
}

fn quantile(values: impl Iterator<Item = f64>, q: f64) -> f64 {
    Data::new(values.collect::<Vec<_>>()).quantile(q)
}

/// The report text.
pub fn report(games: &[GameTiming]) -> String {
    let mut s = String::new();
    let total_moves: usize = games
        .iter()
        .map(|g| g.moves[0].len() + g.moves[1].len())
        .sum();
    s.push_str(&format!(
        "{} games, {total_moves} clock moves. allowed = the mover's clock when sent go \
         (the increment comes after the move); overshoot = used - allowed\n",
        games.len()
    ));
    for (name, e) in by_engine(games) {
        let faults = ["time", "crash", "stall", "illegal"]
            .iter()
            .map(|k| format!("{k} {}", e.faults.get(*k).copied().unwrap_or(0)))
            .collect::<Vec<_>>()
            .join(", ");
        s.push_str(&format!(
            "\n{name}: {} games, {} moves; faults: {faults}\n",
            e.games,
            e.moves.len()
        ));
        if e.moves.is_empty() {
            continue;
        }
        let m = &e.moves;
        let over = || m.iter().map(MoveTiming::overshoot_ms);
        let share = || m.iter().map(|t| 100.0 * t.used_ms / t.allowed_ms.max(1.0));
        let max = |it: &mut dyn Iterator<Item = f64>| it.fold(f64::NEG_INFINITY, f64::max);
        s.push_str(&format!(
            "  overshoot ms: 99.9th percentile {:+.0}, max {:+.0}; moves over their clock: {}\n",
            quantile(over(), 0.999),
            max(&mut over()),
            over().filter(|&o| o > 0.0).count()
        ));
        s.push_str(&format!(
            "  used / allowed: median {:.1}%, 99th {:.1}%, 99.9th {:.1}%, max {:.1}%\n",
            quantile(share(), 0.5),
            quantile(share(), 0.99),
            quantile(share(), 0.999),
            max(&mut share())
        ));
        let longest = max(&mut m.iter().map(|t| t.used_ms));
        let least_left = m.iter().map(|t| t.left_ms).fold(f64::INFINITY, f64::min);
        let least_allowed = m.iter().map(|t| t.allowed_ms).fold(f64::INFINITY, f64::min);
        s.push_str(&format!(
            "  longest move {:.3} s; least clock when sent go {:.3} s; least clock after a move {:.3} s\n",
            longest / 1000.0,
            least_allowed / 1000.0,
            least_left / 1000.0
        ));
        let think = || e.per_game.iter().map(|g| g.0 / 1000.0);
        let left = || e.per_game.iter().map(|g| g.1 / 1000.0);
        s.push_str(&format!(
            "  per game: thought median {:.2} s (mean {:.2}); clock after its last move median {:.2} s (quartiles {:.2}, {:.2})\n",
            quantile(think(), 0.5),
            think().sum::<f64>() / e.per_game.len().max(1) as f64,
            quantile(left(), 0.5),
            quantile(left(), 0.25),
            quantile(left(), 0.75),
        ));
    }
    s
}

pub fn run(args: &TimingArgs) -> Result<()> {
    let mut games = Vec::new();
    for path in &args.pgn {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        games.extend(collect(
            Reader::new(BufReader::new(file)),
            &path.display().to_string(),
        )?);
    }
    print!("{}", report(&games));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pgn::format_game;
    use crate::game::{GameEnd, GameRecord, MoveRecord, Overhead};
    use shakmaty::{Color, KnownOutcome};
    use std::time::Duration;

    fn mv(san: &str, used: u64, clock: u64) -> MoveRecord {
        MoveRecord {
            san: san.to_string(),
            score: None,
            depth: Some(7),
            time: Duration::from_millis(used),
            clock: Some(Duration::from_millis(clock)),
        }
    }

    #[test]
    fn clocks_before_each_move_are_recovered_from_the_runners_pgn() {
        // 1+0.01 from a Black-to-move opening; Black's third move overruns by 5 ms (within
        // the runner's margin, so its clock reads as the increment), White's third loses on
        // time (31 ms used of 12).
        let moves = vec![
            mv("e5", 100, 910),
            mv("Nf3", 50, 960),
            mv("Nc6", 400, 520),
            mv("Bb5", 958, 12),
            mv("a6", 525, 10),
        ];
        let rec = GameRecord {
            round: 1,
            white: "w".into(),
            black: "b".into(),
            start_fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            moves,
            outcome: KnownOutcome::Decisive {
                winner: Color::Black,
            },
            end: GameEnd::Fault {
                side: Color::White,
                fault: crate::game::Fault::TimeForfeit,
            },
            overhead: Overhead::default(),
            think: Duration::ZERO,
            wall: Duration::ZERO,
            flag: Some((Duration::from_millis(31), Duration::from_millis(12))),
            others: None,
        };
        let text = format_game(&rec, "t", "2026.11.23", "1+0.01");
        let games = read_timings(text.as_bytes(), "t").unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        let allowed = |side: usize| {
            g.moves[side]
                .iter()
                .map(|m| m.allowed_ms)
                .collect::<Vec<_>>()
        };
        assert_eq!(allowed(1), vec![1000.0, 910.0, 520.0]);
        assert_eq!(allowed(0), vec![1000.0, 960.0, 12.0]);
        assert_eq!(g.moves[0][2].overshoot_ms(), 19.0);
        let over: Vec<f64> = g.moves[1].iter().map(MoveTiming::overshoot_ms).collect();
        assert_eq!(over, vec![-900.0, -510.0, 5.0]);
        assert_eq!(
            (g.moves[0][1].used_ms, g.moves[0][1].left_ms),
            (958.0, 12.0)
        );

        let e = by_engine(&games);
        assert_eq!(e["w"].faults.get("time"), Some(&1));
        assert!(e["b"].faults.is_empty());
        let r = report(&games);
        assert!(
            r.contains("w: 1 games, 3 moves; faults: time 1, crash 0"),
            "{r}"
        );
        assert!(r.contains("max +19; moves over their clock: 1"), "{r}");
        assert!(r.contains("max +5; moves over their clock: 1"), "{r}");
        // Black thought 100 + 400 + 525 ms and ended on 10 ms; White 50 + 958 + 31.
        assert_eq!(e["b"].per_game, vec![(1025.0, 10.0)]);
        assert_eq!(e["w"].per_game, vec![(1039.0, 0.0)]);
        assert!(
            r.contains(
                "thought median 1.02 s (mean 1.02); clock after its last move median 0.01 s"
            ),
            "{r}"
        );
    }

    #[test]
    fn untimed_games_and_odd_comments_give_no_moves() {
        let text = "[White \"a\"]\n[Black \"b\"]\n[TimeControl \"nodes=1000\"]\n\n\
                    1. e4 {0.010s} e5 {0.020s} 1/2-1/2\n\n\
                    [White \"a\"]\n[Black \"b\"]\n[TimeControl \"1+0\"]\n\n\
                    1. e4 {no figures here} e5 {0.020s [%clk 0:00:00.980]} 1/2-1/2\n\n";
        let games = read_timings(text.as_bytes(), "t").unwrap();
        assert_eq!(games.len(), 2);
        assert!(games[0].moves.iter().all(Vec::is_empty));
        // White's clock is lost at the first comment without figures: nothing after it.
        assert!(games[1].moves.iter().all(Vec::is_empty));
        assert_eq!(clock_of("[%clk 1:02:03.500]"), Some(3_723_500.0));
        assert_eq!(used_of("+0.31/12 1.250s [%clk 0:00:01.000]"), Some(1250.0));
    }
}
