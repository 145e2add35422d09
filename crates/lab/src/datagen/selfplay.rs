//! One self-play game of training data: a random opening, node-limited searches by the engine
//! library in-process, adjudication, and the filtered positions with the game's result.
//!
//! A game is a pure function of (settings, game index): its random numbers come from a
//! generator seeded by the run's seed and the index, and every game starts with a fresh
//! searcher and hash table, so node-limited searches repeat exactly. That is what makes a run
//! reproducible and a resumed run identical to an uninterrupted one.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use anyhow::{bail, Result};
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::ordering::is_noisy;
use augur::search::{Control, SearchResult, SearchTeam, MATE_BOUND};
use cozy_chess::Color;

use crate::data::records::{Outcome, Record};
use augur_arena::matchmaking::schedule::SplitMix64;

/// When a game is decided before the rules end it. Scores are the search's, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Win: the score from white's view stays at or beyond ±`win_score` for `win_plies`
    /// consecutive plies, i.e. both sides' own searches agree (mate scores count).
    pub win_score: i32,
    pub win_plies: u32,
    /// Long quiet draw: from ply `draw_min_ply` of the game on, |score| ≤ `draw_score` for
    /// `draw_plies` consecutive plies.
    pub draw_min_ply: u32,
    pub draw_score: i32,
    pub draw_plies: u32,
    /// A game still running after this many plies is a draw (a safety net; the fifty-move rule
    /// and the quiet-draw rule end nearly every game well before).
    pub max_plies: u32,
}

impl Adjudication {
    /// [datagen-adjudication] The defaults. A win at 1,000 cp held for 4 plies: Augur's
    /// centipawns predict results at K ≈ 157 (docs/tune.md), so 1,000 cp is a 99.8% expected
    /// score, and in 378 games of seed 2701 (88857b3) the side so far ahead failed to win once;
    /// the positions after that point (6% of the kept ones) teach the network nothing that
    /// +2,000 would. Draws as Stormphrax adjudicates them: from ply 70, ±10 cp for 10 plies.
    /// Until 26 November 2026: win 2,000 × 4, draw from ply 80, ±10 for 12 plies (files made
    /// then resume with `--win-score 2000 --draw-ply 80 --draw-plies 12`).
    pub const DEFAULT: Adjudication = Adjudication {
        win_score: 1000,
        win_plies: 4,
        draw_min_ply: 70,
        draw_score: 10,
        draw_plies: 10,
        max_plies: 600,
    };
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication::DEFAULT
    }
}

/// Everything that decides what a game is (see `DatagenArgs` for the options).
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub seed: u64,
    /// Soft node limit per move: no new iteration after it is crossed.
    pub soft_nodes: u64,
    /// Hard node cap per move: the search is cut off mid-iteration here.
    pub hard_nodes: u64,
    pub random_plies: u32,
    /// Start positions (FEN); empty means the standard start position.
    pub book: Vec<String>,
    pub hash_mib: usize,
    /// Openings whose first search says |score| above this are replayed with new random moves.
    pub opening_max_score: i32,
    pub adjudication: Adjudication,
    /// The searcher's configuration (the engine's defaults unless `--eval` or `--set` said
    /// otherwise).
    pub config: SearchConfig,
}

/// Tries per game for an opening within `opening_max_score`, before giving up on the run.
const MAX_OPENING_TRIES: u32 = 1000;

/// A finished game: its recorded positions (results filled in) and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub records: Vec<Record>,
    pub white: Outcome,
    pub plies: u32,
}

/// The random-number stream of game `index`: both the seed and the index go through
/// SplitMix64's finaliser, so neighbouring games get unrelated streams.
fn game_rng(seed: u64, index: u64) -> SplitMix64 {
    let a = SplitMix64::new(seed).next_u64();
    let b = SplitMix64::new(index).next_u64();
    SplitMix64::new(a ^ b.rotate_left(17))
}

/// The engine searcher of one game: the run's configuration, a fresh hash table, sharing the
/// run's `control` so that the end of the run stops every search at once.
fn new_searcher(s: &GameSettings, control: &Arc<Control>) -> Result<SearchTeam> {
    Ok(SearchTeam::new(s.config.clone(), s.hash_mib)?.with_control(control.clone()))
}

/// The one call into the engine's search per move.
fn search(searcher: &mut SearchTeam, pos: &Position, s: &GameSettings) -> SearchResult {
    searcher.search(
        pos,
        &Limits {
            soft_nodes: Some(s.soft_nodes),
            nodes: Some(s.hard_nodes),
            ..Default::default()
        },
    )
}

/// A start position: a book position (chosen by the game's random stream) or the standard
/// one, then `random_plies` uniformly random legal moves. `None` if it ends the game.
fn opening(s: &GameSettings, rng: &mut SplitMix64) -> Result<Option<Position>> {
    let mut pos = if s.book.is_empty() {
        Position::startpos()
    } else {
        let fen = &s.book[rng.below(s.book.len() as u64) as usize];
        match Position::from_fen(fen, false) {
            Ok(p) => p,
            Err(e) => bail!("book position '{fen}': {e}"),
        }
    };
    for _ in 0..s.random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(None);
        }
        pos.make(moves[rng.below(moves.len() as u64) as usize]);
    }
    let over = !pos.has_legal_move() || pos.is_threefold() || pos.is_insufficient_material();
    Ok((!over).then_some(pos))
}

/// Plays game `index`. `Ok(None)` when the run was stopped (through `control`) meanwhile.
pub fn play_game(s: &GameSettings, index: u64, control: &Arc<Control>) -> Result<Option<Game>> {
    let mut rng = game_rng(s.seed, index);
    for _ in 0..MAX_OPENING_TRIES {
        let Some(pos) = opening(s, &mut rng)? else {
            continue;
        };
        let mut searcher = new_searcher(s, control)?;
        let first = search(&mut searcher, &pos, s);
        if control.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        // [datagen-opening] A lopsided opening teaches little and ends at once by adjudication.
        if first.score.abs() > s.opening_max_score {
            continue;
        }
        return Ok(play_out(pos, searcher, first, s, control));
    }
    bail!(
        "game {index}: no opening within ±{} cp in {MAX_OPENING_TRIES} tries \
         (is the book lopsided, or --random-plies too high?)",
        s.opening_max_score
    )
}

fn play_out(
    mut pos: Position,
    mut searcher: SearchTeam,
    first: SearchResult,
    s: &GameSettings,
    control: &Arc<Control>,
) -> Option<Game> {
    let adj = &s.adjudication;
    let mut ply = s.random_plies;
    let mut pending = Some(first);
    let mut kept: Vec<(Record, Color)> = Vec::new();
    // Consecutive plies with white (> 0) or black (< 0) winning by the adjudication score.
    let mut win_streak: i64 = 0;
    let mut quiet_streak = 0;
    let white = loop {
        let stm = pos.side();
        if !pos.has_legal_move() {
            break if pos.in_check() {
                mated(stm)
            } else {
                Outcome::Draw
            };
        }
        if pos.is_threefold() || pos.is_fifty_moves() || pos.is_insufficient_material() {
            break Outcome::Draw;
        }
        if ply >= adj.max_plies {
            break Outcome::Draw;
        }
        let r = match pending.take() {
            Some(r) => r,
            None => search(&mut searcher, &pos, s),
        };
        if control.stop.load(Ordering::Relaxed) {
            return None;
        }
        let Some(best) = r.best else {
            break Outcome::Draw;
        };
        // [datagen-filter] Positions in check, with a noisy best move or a mate score are not
        // quiet: their search score says little about a static evaluation of the board.
        if !pos.in_check() && !is_noisy(pos.board(), best) && r.score.abs() < MATE_BOUND {
            let score = r.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            kept.push((Record::from_position(&pos, score, Outcome::Draw), stm));
        }
        // [datagen-adjudication] Both sides' searches must agree on a decisive score, or on a
        // dead-level one late in the game, before the game is cut short.
        let white_score = if stm == Color::White {
            r.score
        } else {
            -r.score
        };
        win_streak = if white_score >= adj.win_score {
            win_streak.max(0) + 1
        } else if white_score <= -adj.win_score {
            win_streak.min(0) - 1
        } else {
            0
        };
        if win_streak >= i64::from(adj.win_plies) {
            break Outcome::Win;
        }
        if win_streak <= -i64::from(adj.win_plies) {
            break Outcome::Loss;
        }
        quiet_streak = if ply >= adj.draw_min_ply && r.score.abs() <= adj.draw_score {
            quiet_streak + 1
        } else {
            0
        };
        if quiet_streak >= adj.draw_plies {
            break Outcome::Draw;
        }
        pos.make(best);
        ply += 1;
    };
    let records = kept
        .into_iter()
        .map(|(r, stm)| {
            r.with_result(if stm == Color::White {
                white
            } else {
                white.flip()
            })
        })
        .collect();
    Some(Game {
        records,
        white,
        plies: ply,
    })
}

/// The result for white when `stm` is checkmated.
fn mated(stm: Color) -> Outcome {
    if stm == Color::White {
        Outcome::Loss
    } else {
        Outcome::Win
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> GameSettings {
        GameSettings {
            seed: 7,
            soft_nodes: 300,
            hard_nodes: 3000,
            random_plies: 8,
            book: Vec::new(),
            hash_mib: 1,
            opening_max_score: 300,
            adjudication: Adjudication::default(),
            config: SearchConfig::default(),
        }
    }

    /// The configuration reaches the searcher: the network plays other games than the HCE.
    #[test]
    fn the_searcher_plays_with_the_runs_configuration() {
        let mut hce = tiny();
        hce.config.eval = augur::eval::EvalKind::Hce;
        let mut nnue = tiny();
        nnue.config.eval = augur::eval::EvalKind::Nnue;
        let control = Arc::new(Control::default());
        let a = play_game(&hce, 0, &control).unwrap().unwrap();
        let b = play_game(&nnue, 0, &control).unwrap().unwrap();
        assert_ne!(a.records, b.records);
        assert_eq!(b, play_game(&nnue, 0, &control).unwrap().unwrap());
    }

    #[test]
    fn a_game_is_a_function_of_seed_and_index() {
        let s = tiny();
        let control = Arc::new(Control::default());
        let a = play_game(&s, 3, &control).unwrap().unwrap();
        let b = play_game(&s, 3, &control).unwrap().unwrap();
        assert_eq!(a, b);
        let c = play_game(&s, 4, &control).unwrap().unwrap();
        assert_ne!(a.records, c.records);
        assert!(!a.records.is_empty());
    }

    #[test]
    fn records_are_quiet_legal_and_carry_the_game_result() {
        let s = tiny();
        let control = Arc::new(Control::default());
        for index in 0..3 {
            let g = play_game(&s, index, &control).unwrap().unwrap();
            for r in &g.records {
                let pos = r.to_position().unwrap();
                assert!(!pos.in_check(), "{}", r.to_fen());
                assert!(i32::from(r.score()).abs() < MATE_BOUND);
                assert_eq!(r.white_result(), g.white, "{}", r.to_fen());
            }
        }
    }

    #[test]
    fn adjudicates_a_won_position_as_a_win() {
        // Two queens and a rook against a bare king: both searches see > 2000 at once.
        let s = GameSettings {
            book: vec!["4k3/8/8/8/8/8/8/QQR1K3 w - - 0 1".into()],
            random_plies: 0,
            opening_max_score: i32::MAX,
            ..tiny()
        };
        let g = play_game(&s, 0, &Arc::new(Control::default()))
            .unwrap()
            .unwrap();
        assert_eq!(g.white, Outcome::Win);
        assert!(g.plies <= 4, "{}", g.plies);
    }

    #[test]
    fn refuses_a_book_of_only_lopsided_openings() {
        let s = GameSettings {
            book: vec!["4k3/8/8/8/8/8/8/QQR1K3 w - - 0 1".into()],
            random_plies: 0,
            ..tiny()
        };
        let err = play_game(&s, 0, &Arc::new(Control::default())).unwrap_err();
        assert!(
            err.to_string().contains("no opening within ±300 cp"),
            "{err}"
        );
    }

    #[test]
    fn a_stopped_run_returns_no_game() {
        let control = Arc::new(Control::default());
        control.stop.store(true, Ordering::Relaxed);
        assert!(play_game(&tiny(), 0, &control).unwrap().is_none());
    }
}
