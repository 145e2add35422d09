//! Plays one game between two running UCI engines under the referee, with
//! clocks, fault detection and optional score adjudication; the referee,
//! clocks, openings and PGN it relies on live in the submodules.

pub mod openings;
pub mod pgn;
pub mod referee;
pub mod time_control;

use std::time::{Duration, Instant};

use shakmaty::{Color, KnownOutcome};

use crate::engine::uci::{Score, SearchFailure, UciEngine};
use crate::game::referee::{Referee, RuleEnd};
use crate::game::time_control::{Clocks, TimeControl};
use crate::machine::CpuMark;

/// An engine misbehaving; the offender loses the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Used more than its time plus the margin.
    TimeForfeit,
    /// Sent a move the referee rejects (the text says what and where).
    IllegalMove(String),
    /// The process exited, closed its pipes or could not be (re)started.
    Crash,
    /// No `bestmove`, even after `stop`.
    Stall,
}

impl Fault {
    pub fn describe(&self) -> String {
        match self {
            Fault::TimeForfeit => "time forfeit".to_string(),
            Fault::IllegalMove(m) => format!("illegal move: {m}"),
            Fault::Crash => "crash".to_string(),
            Fault::Stall => "stall (no bestmove)".to_string(),
        }
    }

    /// The short word used in the PGN `TerminationDetail` tag.
    pub fn keyword(&self) -> &'static str {
        match self {
            Fault::TimeForfeit => "time",
            Fault::IllegalMove(_) => "illegal",
            Fault::Crash => "crash",
            Fault::Stall => "stall",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    Rules(RuleEnd),
    Fault { side: Color, fault: Fault },
    ResignAdjudication,
    DrawAdjudication,
}

#[derive(Clone, Debug)]
pub struct MoveRecord {
    pub san: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub time: Duration,
    /// Mover's clock after the move (clock games only).
    pub clock: Option<Duration>,
}

/// Runner overhead: from one engine's `bestmove` being read to the next `go`
/// being written. This is all the time the runner adds per move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overhead {
    pub total: Duration,
    pub max: Duration,
    pub count: u32,
    /// Moves whose overhead exceeded one millisecond.
    pub over_1ms: u32,
}

impl Overhead {
    pub fn add(&mut self, d: Duration) {
        self.total += d;
        self.max = self.max.max(d);
        self.count += 1;
        if d > Duration::from_millis(1) {
            self.over_1ms += 1;
        }
    }

    pub fn merge(&mut self, other: &Overhead) {
        self.total += other.total;
        self.max = self.max.max(other.max);
        self.count += other.count;
        self.over_1ms += other.over_1ms;
    }

    pub fn mean(&self) -> Duration {
        self.total.checked_div(self.count).unwrap_or_default()
    }
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number in the schedule (PGN `Round`).
    pub round: usize,
    pub white: String,
    pub black: String,
    pub start_fen: String,
    pub moves: Vec<MoveRecord>,
    pub outcome: KnownOutcome,
    pub end: GameEnd,
    pub overhead: Overhead,
    /// Time the engines spent thinking (sum over moves).
    pub think: Duration,
    pub wall: Duration,
    /// A move that lost on time: (time it used, the clock it had).
    pub flag: Option<(Duration, Duration)>,
    /// [arena-others] In a game on the clock, the cores' worth of CPU that processes outside
    /// the match used while it was played (`machine::CpuMark`); `None` elsewhere, and for a
    /// game shorter than the kernel's CPU tick (10 ms), which it cannot measure.
    pub others: Option<f64>,
}

impl GameRecord {
    /// The side that faulted, if any.
    pub fn faulty_side(&self) -> Option<Color> {
        match &self.end {
            GameEnd::Fault { side, .. } => Some(*side),
            _ => None,
        }
    }
}

/// Resign / draw adjudication by engine scores.
#[derive(Clone, Copy, Debug, Default)]
pub struct Adjudication {
    /// (centipawns, moves): a side whose own score has been at most -cp for
    /// `moves` consecutive moves, while its opponent's has been at least +cp,
    /// loses.
    pub resign: Option<(i32, usize)>,
    /// (centipawns, moves, from move number): both sides' scores within ±cp
    /// for `moves` consecutive moves each, from that move number on: draw.
    pub draw: Option<(i32, usize, u32)>,
}

/// The adjudication flags of every command that plays games (`match`, `spsa`).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct AdjudicationArgs {
    /// Resign adjudication: a side at or below -CP (and its opponent at or above +CP) for --resign-moves moves loses.
    #[arg(long, value_name = "CP")]
    pub resign_score: Option<i32>,
    #[arg(long, default_value_t = 3)]
    pub resign_moves: usize,
    /// Draw adjudication: both sides within ±CP for --draw-moves moves each, from move --draw-after on.
    #[arg(long, value_name = "CP")]
    pub draw_score: Option<i32>,
    #[arg(long, default_value_t = 8)]
    pub draw_moves: usize,
    #[arg(long, default_value_t = 40)]
    pub draw_after: u32,
}

impl AdjudicationArgs {
    /// The rules the flags name (each off unless its score is given).
    pub fn rules(&self) -> Adjudication {
        Adjudication {
            resign: self.resign_score.map(|cp| (cp, self.resign_moves)),
            draw: self
                .draw_score
                .map(|cp| (cp, self.draw_moves, self.draw_after)),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct GameSettings {
    pub tc: TimeControl,
    /// Allowed overstep before a time forfeit.
    pub margin: Duration,
    /// For games without a clock: longest wait for `bestmove`.
    pub stall_timeout: Duration,
    pub adjudication: Adjudication,
    /// Chess960: start FENs may name rook files; castling is sent king-takes-rook.
    pub chess960: bool,
}

fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn last_n_all(scores: &[Option<i32>], n: usize, pred: impl Fn(i32) -> bool) -> bool {
    n > 0
        && scores.len() >= n
        && scores[scores.len() - n..]
            .iter()
            .all(|s| s.is_some_and(&pred))
}

/// A game lost before it began because an engine could not be started.
pub fn forfeit_before_start(
    round: usize,
    white: &str,
    black: &str,
    start_fen: &str,
    side: Color,
) -> GameRecord {
    GameRecord {
        round,
        white: white.to_string(),
        black: black.to_string(),
        start_fen: start_fen.to_string(),
        moves: Vec::new(),
        outcome: KnownOutcome::Decisive { winner: !side },
        end: GameEnd::Fault {
            side,
            fault: Fault::Crash,
        },
        overhead: Overhead::default(),
        think: Duration::ZERO,
        wall: Duration::ZERO,
        flag: None,
        others: None,
    }
}

/// Plays a game from `start_fen`; `engines[0]` has White.
pub fn play(
    round: usize,
    engines: [&mut UciEngine; 2],
    start_fen: &str,
    settings: &GameSettings,
) -> anyhow::Result<GameRecord> {
    let began = Instant::now();
    // [arena-others] A clock measures the machine too: what else ran beside the game is
    // read at its start and end, so that a timed result can show it was played alone.
    let cpu_at_start = settings.tc.is_timed().then(CpuMark::now).flatten();
    let mode = shakmaty::CastlingMode::from_chess960(settings.chess960);
    let mut referee = Referee::from_fen_in(start_fen, mode)?;
    let names = [
        engines[0].spec().name.clone(),
        engines[1].spec().name.clone(),
    ];
    let mut record = GameRecord {
        round,
        white: names[0].clone(),
        black: names[1].clone(),
        start_fen: referee.start_fen().to_string(),
        moves: Vec::new(),
        outcome: KnownOutcome::Draw,
        end: GameEnd::DrawAdjudication,
        overhead: Overhead::default(),
        think: Duration::ZERO,
        wall: Duration::ZERO,
        flag: None,
        others: None,
    };
    let [white, black] = engines;
    let mut engines = [white, black];
    let mut fault: Option<(Color, Fault)> = None;
    for (i, e) in engines.iter_mut().enumerate() {
        if e.new_game().is_err() {
            fault = Some((
                if i == 0 { Color::White } else { Color::Black },
                Fault::Crash,
            ));
            break;
        }
    }
    let mut clocks = Clocks::new(settings.tc);
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    let mut last_bestmove: Option<Instant> = None;
    let end = loop {
        if let Some((side, f)) = fault.take() {
            break GameEnd::Fault { side, fault: f };
        }
        if let Some(r) = referee.rule_end() {
            break GameEnd::Rules(r);
        }
        let mover = referee.turn();
        let engine = &mut engines[side_index(mover)];
        let allowance = clocks.allowance(mover);
        let (deadline, timed) = match allowance {
            Some(a) => (a + settings.margin, true),
            None => (settings.stall_timeout, false),
        };
        let grace = Duration::from_secs(2).max(settings.margin);
        let position = referee.uci_position();
        // An engine with its own node limit (`nodes=` in its spec) in a nodes match, or its own
        // depth (`depth=`) in a depth match.
        let go = match (settings.tc, engine.spec().nodes, engine.spec().depth) {
            (TimeControl::Nodes(_), Some(n), _) => format!("nodes {n}"),
            (TimeControl::Depth(_), _, Some(d)) => format!("depth {d}"),
            _ => clocks.go_args(mover),
        };
        let reply = engine.search(&position, &go, deadline, grace);
        if let (Some(prev), Some(sent)) = (last_bestmove, engine.last_write) {
            // `last_write` is the `go` (or, after a failure, `stop`); only
            // count it when it is the go that followed prev.
            if reply.is_ok() {
                record.overhead.add(sent.saturating_duration_since(prev));
            }
        }
        let report = match reply {
            Ok(r) => r,
            Err(SearchFailure::Crashed) => {
                fault = Some((mover, Fault::Crash));
                continue;
            }
            Err(SearchFailure::Stalled) => {
                fault = Some((mover, Fault::Stall));
                continue;
            }
            Err(SearchFailure::Late(used)) => {
                record.flag = allowance.filter(|_| timed).map(|a| (used, a));
                fault = Some((
                    mover,
                    if timed {
                        Fault::TimeForfeit
                    } else {
                        Fault::Stall
                    },
                ));
                continue;
            }
        };
        last_bestmove = report.received;
        record.think += report.elapsed;
        if !clocks.charge(mover, report.elapsed, settings.margin) {
            record.flag = allowance.map(|a| (report.elapsed, a));
            fault = Some((mover, Fault::TimeForfeit));
            continue;
        }
        let san = match referee.play_uci(&report.bestmove) {
            Ok(san) => san,
            Err(why) => {
                fault = Some((mover, Fault::IllegalMove(why)));
                continue;
            }
        };
        let clock = match settings.tc {
            TimeControl::Clock { .. } => Some(clocks.remaining(mover)),
            _ => None,
        };
        record.moves.push(MoveRecord {
            san: san.to_string(),
            score: report.score,
            depth: report.depth,
            time: report.elapsed,
            clock,
        });
        scores[side_index(mover)].push(report.score.map(Score::as_cp));
        if referee.rule_end().is_some() {
            continue;
        }
        if let Some((cp, n)) = settings.adjudication.resign {
            let me = &scores[side_index(mover)];
            let them = &scores[side_index(!mover)];
            if last_n_all(me, n, |s| s <= -cp) && last_n_all(them, n, |s| s >= cp) {
                record.outcome = KnownOutcome::Decisive { winner: !mover };
                break GameEnd::ResignAdjudication;
            }
            if last_n_all(me, n, |s| s >= cp) && last_n_all(them, n, |s| s <= -cp) {
                record.outcome = KnownOutcome::Decisive { winner: mover };
                break GameEnd::ResignAdjudication;
            }
        }
        if let Some((cp, n, from)) = settings.adjudication.draw {
            if referee.fullmoves() >= from
                && last_n_all(&scores[0], n, |s| s.abs() <= cp)
                && last_n_all(&scores[1], n, |s| s.abs() <= cp)
            {
                record.outcome = KnownOutcome::Draw;
                break GameEnd::DrawAdjudication;
            }
        }
    };
    record.outcome = match &end {
        GameEnd::Rules(RuleEnd::Checkmate) => KnownOutcome::Decisive {
            winner: !referee.turn(),
        },
        GameEnd::Rules(_) => KnownOutcome::Draw,
        // FIDE 6.9: flagging against a side that cannot mate is a draw.
        GameEnd::Fault {
            side,
            fault: Fault::TimeForfeit,
        } if !referee.can_mate(!*side) => KnownOutcome::Draw,
        GameEnd::Fault { side, .. } => KnownOutcome::Decisive { winner: !*side },
        GameEnd::ResignAdjudication | GameEnd::DrawAdjudication => record.outcome,
    };
    record.end = end;
    record.wall = began.elapsed();
    record.others = cpu_at_start.and_then(|a| a.others_since(&CpuMark::now()?));
    Ok(record)
}
