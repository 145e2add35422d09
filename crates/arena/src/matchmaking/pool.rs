//! A pool of workers playing scheduled games concurrently. Each worker runs
//! its own engine processes, reused from game to game (`ucinewgame` before
//! each) and restarted after any fault; results arrive as games finish.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use anyhow::Result;
use shakmaty::Color;

use crate::engine::spec::EngineSpec;
use crate::engine::uci::UciEngine;
use crate::game::{self, GameRecord, GameSettings};
use crate::matchmaking::schedule::Slot;

pub struct Pool {
    stop: Arc<AtomicBool>,
    rx: Receiver<Result<GameRecord>>,
    workers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts `concurrency` workers on the slots listed in `pending` (indices
    /// into `slots`); `fens[slot.opening]` is each game's start position.
    pub fn start(
        specs: &[EngineSpec],
        slots: &[Slot],
        pending: Vec<usize>,
        fens: &[String],
        settings: &GameSettings,
        concurrency: usize,
    ) -> Pool {
        let n = concurrency.max(1).min(pending.len());
        let queue = Arc::new(Mutex::new(pending.into_iter()));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<Result<GameRecord>>();
        let mut workers = Vec::new();
        for _ in 0..n {
            let queue = Arc::clone(&queue);
            let stop = Arc::clone(&stop);
            let tx = tx.clone();
            let specs = specs.to_vec();
            let slots = slots.to_vec();
            let fens = fens.to_vec();
            let settings = *settings;
            workers.push(thread::spawn(move || {
                worker(&queue, &stop, &tx, &specs, &slots, &fens, &settings);
            }));
        }
        Pool { stop, rx, workers }
    }

    /// Finished games (or the error that stopped a worker), as they come.
    pub fn results(&self) -> &Receiver<Result<GameRecord>> {
        &self.rx
    }

    /// No new games are started; those in flight finish and are still sent.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn join(self) {
        drop(self.rx);
        for w in self.workers {
            let _ = w.join();
        }
    }
}

/// Plays every slot and returns the records in slot order.
pub fn play_all(
    specs: &[EngineSpec],
    slots: &[Slot],
    fens: &[String],
    settings: &GameSettings,
    concurrency: usize,
) -> Result<Vec<GameRecord>> {
    let pool = Pool::start(
        specs,
        slots,
        (0..slots.len()).collect(),
        fens,
        settings,
        concurrency,
    );
    let mut records = Vec::with_capacity(slots.len());
    for msg in pool.results() {
        match msg {
            Ok(r) => records.push(r),
            Err(e) => {
                pool.stop();
                pool.join();
                return Err(e);
            }
        }
    }
    pool.join();
    records.sort_by_key(|r| r.round);
    Ok(records)
}

/// One worker: takes game numbers from the queue and plays them with its own
/// engine processes, restarting an engine after any fault.
fn worker(
    queue: &Mutex<std::vec::IntoIter<usize>>,
    stop: &AtomicBool,
    tx: &mpsc::Sender<Result<GameRecord>>,
    specs: &[EngineSpec],
    slots: &[Slot],
    fens: &[String],
    settings: &GameSettings,
) {
    let mut engines: Vec<Option<UciEngine>> = specs.iter().map(|_| None).collect();
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let next = match queue.lock() {
            Ok(mut q) => q.next(),
            Err(_) => None,
        };
        let Some(i) = next else { break };
        let slot = slots[i];
        let fen = &fens[slot.opening];
        let mut missing = None;
        for (side, e) in [(Color::White, slot.white), (Color::Black, slot.black)] {
            if engines[e].is_none() {
                match UciEngine::start(&specs[e]) {
                    Ok(engine) => engines[e] = Some(engine),
                    Err(_) => {
                        missing = Some(side);
                        break;
                    }
                }
            }
        }
        let rec = match two_mut(&mut engines, slot.white, slot.black) {
            (Some(w), Some(b)) if missing.is_none() => game::play(i + 1, [w, b], fen, settings),
            _ => Ok(game::forfeit_before_start(
                i + 1,
                &specs[slot.white].name,
                &specs[slot.black].name,
                fen,
                missing.unwrap_or(Color::White),
            )),
        };
        if let Ok(r) = &rec {
            if let Some(side) = r.faulty_side() {
                let e = if side == Color::White {
                    slot.white
                } else {
                    slot.black
                };
                if let Some(mut engine) = engines[e].take() {
                    engine.kill();
                }
            }
        }
        let failed = rec.is_err();
        if tx.send(rec).is_err() || failed {
            break;
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit();
    }
}

/// Two distinct mutable elements of a slice.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b);
    if a < b {
        let (x, y) = v.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = v.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}
