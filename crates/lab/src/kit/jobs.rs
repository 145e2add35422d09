//! The one resumable job runner: every lab command that works through a grid of items
//! (positions × variants, self-play games, the cells of a match grid) and keeps each item's
//! result in a result file runs on it.
//!
//! A command describes its work as a [`Job`]: how many items, how a worker (one thread with
//! its searcher or engine processes) works out one item, and how an item's output is written
//! as a block of CSV rows and read back. [`run`] then
//!
//! - opens the result file ([`result_log`]; its header's settings must match), reads the rows
//!   an earlier run left, cuts an unfinished last block (a kill during its write) and keeps
//!   every finished item, so a restart skips them;
//! - works out the other items on `workers` threads, largest [`Job::cost`] first, and appends
//!   each item's block in one write as it finishes, so kill -9 loses only the items in flight;
//! - draws the progress line (items, rate, ETA, and the nodes per second when the job counts
//!   nodes);
//! - stops handing out work at the first error (the items already running finish) and returns
//!   that error;
//! - rewrites the file in item order at the end, so the finished file does not depend on
//!   thread timing or on where the kills fell.
//!
//! A new command needs only its `Job`. For example, fixed-node matches of a technique against
//! its baseline at several node counts: the items are the node counts, `run` plays one match
//! (the arena's runner resumes its own PGN), `rows` is the match's W/D/L as one row, `output`
//! reads it back, `is_done` says whether the row already has the games asked for, and
//! `may_repeat` lets a rerun with more games continue the match (given the earlier row as
//! `earlier`) and append its new row.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, OnceLock};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use augur_arena::progress::Progress;

use crate::kit::result_log::{self, Header, ResultLog, Row};

/// A grid of items worked out one by one, each item's output kept as a block of rows.
pub trait Job: Sync {
    /// What one item yields.
    type Output: Send + Sync;
    /// A record of the result file; an item's output is a block of one or more.
    type Row: Row;
    /// What a worker thread keeps from one item to the next (a searcher, engine processes).
    type Worker;

    /// The number of items, numbered `0..items()` in the order of the finished file.
    fn items(&self) -> usize;

    /// Starts a worker; called once on each worker thread.
    fn worker(&self) -> Result<Self::Worker>;

    /// Works out `item`. `earlier` is what an earlier run left for it when that did not count
    /// as done ([`Job::is_done`]), for an item that continues its earlier work.
    fn run(
        &self,
        worker: &mut Self::Worker,
        item: usize,
        earlier: Option<&Self::Output>,
    ) -> Result<Self::Output>;

    /// Ends a worker (quits its engines); by default it is dropped.
    fn finish(&self, _worker: Self::Worker) {}

    /// The rows of an item's output, appended in one write.
    fn rows(&self, item: usize, output: &Self::Output) -> Vec<Self::Row>;

    /// The item a row belongs to; an error when it is none of this run's.
    fn item_of(&self, row: &Self::Row) -> Result<usize>;

    /// How many rows make an item's block whole, from its first row.
    fn block_len(&self, _first: &Self::Row) -> usize {
        1
    }

    /// An item's output read back from its whole block.
    fn output(&self, item: usize, rows: Vec<Self::Row>) -> Result<Self::Output>;

    /// Whether an output read back counts as done, so that the item is skipped; an item not
    /// done is worked out again.
    fn is_done(&self, _output: &Self::Output) -> bool {
        true
    }

    /// Whether an item's block may be in the file more than once, the last one counting (a
    /// match continued with more games appends its new record); otherwise that is an error.
    fn may_repeat(&self) -> bool {
        false
    }

    /// A rough cost: the largest items start first, so that no long item is left to run alone
    /// at the end. Equal costs keep the item order.
    fn cost(&self, _item: usize) -> f64 {
        0.0
    }

    /// Nodes searched for an output, for the progress line's rate (0: none shown).
    fn nodes(&self, _output: &Self::Output) -> u64 {
        0
    }
}

/// How [`run`] works through a job.
pub struct Options<'a> {
    /// Worker threads (at least one, at most one per item left).
    pub workers: usize,
    /// Draw the progress line and say what a resumed file held.
    pub progress: bool,
    /// What an item is, for the progress line's rate (`positions`, `games`, ...).
    pub unit: &'static str,
    /// The result file and its header; `None` for a run that keeps no file.
    pub file: Option<(&'a Path, Header)>,
}

/// What a run leaves: every item's output in item order.
pub struct Finished<O> {
    pub outputs: Vec<O>,
    /// Items an earlier run had finished (skipped by this one).
    pub resumed: usize,
}

/// Each item's output an earlier run left in the file, with the file cut back to them.
struct Resumed<O> {
    log: ResultLog,
    earlier: Vec<Option<O>>,
    /// Rows of an unfinished last block that were cut, and whether a torn line was.
    cut: usize,
    torn: bool,
}

fn resume<J: Job>(job: &J, path: &Path, header: &Header) -> Result<Resumed<J::Output>> {
    debug_assert_eq!(
        header.columns,
        J::Row::COLUMNS,
        "the header names other columns"
    );
    let opened = result_log::open(path, header)?;
    let name = path.display();
    let rows: Vec<J::Row> = opened
        .records
        .iter()
        .enumerate()
        .map(|(i, line)| {
            result_log::from_line(line)
                .with_context(|| format!("{name}: record {}: bad CSV line '{line}'", i + 1))
        })
        .collect::<Result<_>>()?;
    let items = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            job.item_of(r)
                .with_context(|| format!("{name}: record {}", i + 1))
        })
        .collect::<Result<Vec<usize>>>()?;
    let mut earlier: Vec<Option<J::Output>> = (0..job.items()).map(|_| None).collect();
    let mut rows = rows.into_iter();
    let mut at = 0;
    while at < items.len() {
        let item = items[at];
        let want = job.block_len(rows.as_slice().first().expect("a row per item"));
        let len = items[at..].iter().take_while(|&&i| i == item).count();
        if len < want && at + len == items.len() {
            break; // the last block, cut short by a kill: worked out again
        }
        if len != want {
            bail!(
                "{name}: record {}: item {} has {len} records, expected {want} (an edited file?)",
                at + 1,
                item + 1
            );
        }
        let block: Vec<J::Row> = rows.by_ref().take(want).collect();
        let output = job
            .output(item, block)
            .with_context(|| format!("{name}: record {}", at + 1))?;
        if earlier[item].is_some() && !job.may_repeat() {
            bail!(
                "{name}: record {}: item {} is in the file twice",
                at + 1,
                item + 1
            );
        }
        earlier[item] = Some(output);
        at += want;
    }
    let mut log = opened.log;
    log.keep(at)?;
    Ok(Resumed {
        log,
        earlier,
        cut: items.len() - at,
        torn: opened.torn_bytes > 0,
    })
}

/// Works through `job` (see the module's notes): resumes what its result file holds, works out
/// the other items, and returns every output in item order.
pub fn run<J: Job>(job: &J, options: Options) -> Result<Finished<J::Output>> {
    let total = job.items();
    let (mut log, earlier) = match &options.file {
        None => (None, (0..total).map(|_| None).collect()),
        Some((path, header)) => {
            let r = resume(job, path, header)?;
            let done = r
                .earlier
                .iter()
                .flatten()
                .filter(|o| job.is_done(o))
                .count();
            if options.progress && (done > 0 || r.cut > 0 || r.torn) {
                eprintln!(
                    "resuming {}: {done} {} done earlier{}{}",
                    path.display(),
                    options.unit,
                    if r.cut > 0 {
                        format!("; cut an unfinished block of {} records", r.cut)
                    } else {
                        String::new()
                    },
                    if r.torn { "; cut a torn last line" } else { "" }
                );
            }
            (Some(r.log), r.earlier)
        }
    };
    let done = |o: &Option<J::Output>| o.as_ref().is_some_and(|o| job.is_done(o));
    let mut todo: Vec<usize> = (0..total).filter(|&i| !done(&earlier[i])).collect();
    let resumed = total - todo.len();
    let costs: Vec<f64> = todo.iter().map(|&i| job.cost(i)).collect();
    let mut order: Vec<usize> = (0..todo.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]));
    todo = order.into_iter().map(|k| todo[k]).collect();

    let mut outputs: Vec<Option<J::Output>> = (0..total).map(|_| None).collect();
    let next = AtomicUsize::new(0);
    let mut progress = Progress::with_unit(total, resumed, options.progress, options.unit);
    progress.update(resumed, "");
    let mut first_error: Option<anyhow::Error> = None;
    let (start, mut count, mut nodes) = (Instant::now(), resumed, 0u64);
    let started = pool(
        options.workers.clamp(1, todo.len().max(1)),
        || job.worker(),
        |worker, item| job.run(worker, item, earlier[item].as_ref()),
        |worker| job.finish(worker),
        || todo.get(next.fetch_add(1, Ordering::Relaxed)).copied(),
        |item, output| {
            let kept = output.and_then(|o| match log.as_mut() {
                Some(log) => {
                    let lines = job
                        .rows(item, &o)
                        .iter()
                        .map(result_log::to_line)
                        .collect::<Result<Vec<_>>>()?;
                    log.append(&lines).map(|_| o)
                }
                None => Ok(o),
            });
            match kept {
                Ok(o) => {
                    nodes += job.nodes(&o);
                    outputs[item] = Some(o);
                    count += 1;
                    let note = if nodes > 0 {
                        let secs = start.elapsed().as_secs_f64().max(1e-3);
                        format!("{:.0} knps", nodes as f64 / secs / 1000.0)
                    } else {
                        String::new()
                    };
                    progress.update(count, &note);
                    ControlFlow::Continue(())
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                    ControlFlow::Break(())
                }
            }
        },
    );
    progress.finish();
    if let Some(e) = first_error {
        return Err(e);
    }
    started?;
    let outputs: Vec<J::Output> = outputs
        .into_iter()
        .zip(earlier)
        .map(|(new, old)| new.or(old).expect("every item is done or worked out"))
        .collect();
    if let Some(log) = log.as_mut() {
        let mut lines = Vec::new();
        for (item, o) in outputs.iter().enumerate() {
            for row in job.rows(item, o) {
                lines.push(result_log::to_line(&row)?);
            }
        }
        log.rewrite(&lines)?;
    }
    Ok(Finished { outputs, resumed })
}

/// The worker pool under both runners: `workers` threads each start a worker (`start`) and
/// work out (`work`) the items `next` hands out until it hands out none; each output goes to
/// `receive` on the calling thread as it finishes. When `receive` breaks, or a worker cannot
/// start, no more items are handed out; the ones running finish and `receive` still gets their
/// outputs (a result file keeps them). Returns the first worker's failure to start.
fn pool<W, O: Send>(
    workers: usize,
    start: impl Fn() -> Result<W> + Sync,
    work: impl Fn(&mut W, usize) -> Result<O> + Sync,
    finish: impl Fn(W) + Sync,
    next: impl Fn() -> Option<usize> + Sync,
    mut receive: impl FnMut(usize, Result<O>) -> ControlFlow<()>,
) -> Result<()> {
    let stopped = AtomicBool::new(false);
    // The first failure to start; a later one is dropped (`set` refuses it).
    let not_started = OnceLock::new();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, Result<O>)>();
        for _ in 0..workers.max(1) {
            let (tx, start, work, finish, next, stopped, not_started) = (
                tx.clone(),
                &start,
                &work,
                &finish,
                &next,
                &stopped,
                &not_started,
            );
            scope.spawn(move || {
                let mut worker = match start() {
                    Ok(w) => w,
                    Err(e) => {
                        stopped.store(true, Ordering::Relaxed);
                        let _ = not_started.set(e);
                        return;
                    }
                };
                while let Some(item) = next().filter(|_| !stopped.load(Ordering::Relaxed)) {
                    let output = work(&mut worker, item);
                    if tx.send((item, output)).is_err() {
                        break;
                    }
                }
                finish(worker);
            });
        }
        drop(tx);
        for (item, output) in rx {
            if receive(item, output).is_break() {
                stopped.store(true, Ordering::Relaxed);
            }
        }
    });
    not_started.into_inner().map_or(Ok(()), Err)
}

/// Works out the items `first..end` in order on `workers` threads, for work whose outputs go
/// to a stream of their own (datagen's games into its record file and journal) rather than to
/// a result file of rows: `sink` receives every output in item order (an output that finishes
/// early waits for the ones before it), so what it writes does not depend on the number of
/// threads, and breaks when it has what it wants. `end` may be `usize::MAX`, for a run that
/// stops on what the outputs hold. An item's error stops the handing out of items; the items
/// before it still reach the sink (those already handed out are waited for), so that what the
/// sink wrote does not depend on the number of threads either, and the error of the lowest
/// failed item is returned. A worker that cannot start stops the handing out too (its error is
/// returned after the items handed out are delivered); an error of the sink stops everything
/// at once.
pub fn run_in_order<W, O: Send>(
    workers: usize,
    items: std::ops::Range<usize>,
    start: impl Fn() -> Result<W> + Sync,
    work: impl Fn(&mut W, usize) -> Result<O> + Sync,
    mut sink: impl FnMut(usize, O) -> Result<ControlFlow<()>>,
) -> Result<()> {
    let next = AtomicUsize::new(items.start);
    let mut waiting: BTreeMap<usize, O> = BTreeMap::new();
    let mut due = items.start;
    // The lowest item that failed, and its error: nothing from it on reaches the sink.
    let mut failed: Option<(usize, anyhow::Error)> = None;
    let mut outcome = Ok(());
    let mut ended = false;
    let started = pool(
        workers,
        start,
        work,
        drop,
        || Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&i| i < items.end),
        |item, output| {
            if ended {
                return ControlFlow::Break(());
            }
            let limit = failed.as_ref().map_or(usize::MAX, |(k, _)| *k);
            match output {
                Err(e) if item < limit => failed = Some((item, e)),
                Ok(o) if item < limit => {
                    waiting.insert(item, o);
                }
                _ => {}
            }
            let limit = failed.as_ref().map_or(usize::MAX, |(k, _)| *k);
            while due < limit {
                let Some(o) = waiting.remove(&due) else { break };
                due += 1;
                match sink(due - 1, o) {
                    Ok(ControlFlow::Continue(())) => {}
                    Ok(ControlFlow::Break(())) => ended = true,
                    Err(e) => {
                        outcome = Err(e);
                        ended = true;
                    }
                }
                if ended {
                    return ControlFlow::Break(());
                }
            }
            if failed.is_some() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    // A sink that broke before reaching the failed item had what it wanted.
    match (outcome, failed, started) {
        (Err(e), _, _) => Err(e),
        (Ok(()), Some((_, e)), _) | (Ok(()), None, Err(e)) if !ended => Err(e),
        _ => Ok(()),
    }
}

/// A record of a block per position: which position it is of (`index`, 1-based) and which
/// member of the block (a variant, a rule) it holds.
pub trait PositionRow: Row + Clone + Send + Sync {
    fn index(&self) -> usize;
    fn member(&self) -> &str;
    /// Records where it was measured: the position's 1-based index in the run, its line in
    /// its file, its FEN.
    fn place(&mut self, index: usize, line: usize, fen: &str);
}

/// Implements [`PositionRow`] for a record type whose `index`, `line` and `fen` fields say
/// where it was measured and whose field `$member` names its member.
macro_rules! position_row {
    ($row:ty, $member:ident) => {
        impl $crate::kit::jobs::PositionRow for $row {
            fn index(&self) -> usize {
                self.index
            }

            fn member(&self) -> &str {
                &self.$member
            }

            fn place(&mut self, index: usize, line: usize, fen: &str) {
                (self.index, self.line, self.fen) = (index, line, fen.to_string());
            }
        }
    };
}
pub(crate) use position_row;

/// The job of the in-process experiments: per position, one search per member (variant,
/// rule), each its own record, and nothing kept from one position to the next.
pub struct PositionBlocks<'a, F> {
    /// Each position's (line in its file, FEN).
    pub positions: &'a [(usize, String)],
    /// The members of a block, in order.
    pub members: &'a [&'a str],
    /// The block of a position (by its place in `positions`), one record per member.
    pub measure: F,
}

impl<F> PositionBlocks<'_, F> {
    /// Works through the positions one at a time (the searches use every core they are
    /// given), into `file` when given; every position's block, in order.
    pub fn run<R>(&self, file: Option<(&Path, Header)>, progress: bool) -> Result<Vec<Vec<R>>>
    where
        R: PositionRow,
        F: Fn(usize) -> Result<Vec<R>> + Sync,
    {
        let options = Options {
            workers: 1,
            progress,
            unit: "positions",
            file,
        };
        Ok(run(self, options)?.outputs)
    }
}

impl<R: PositionRow, F: Fn(usize) -> Result<Vec<R>> + Sync> Job for PositionBlocks<'_, F> {
    type Output = Vec<R>;
    type Row = R;
    type Worker = ();

    fn items(&self) -> usize {
        self.positions.len()
    }

    fn worker(&self) -> Result<()> {
        Ok(())
    }

    fn run(&self, _: &mut (), item: usize, _: Option<&Vec<R>>) -> Result<Vec<R>> {
        let (line, fen) = &self.positions[item];
        let mut block = (self.measure)(item)?;
        for r in &mut block {
            r.place(item + 1, *line, fen);
        }
        Ok(block)
    }

    fn rows(&self, _: usize, block: &Vec<R>) -> Vec<R> {
        block.clone()
    }

    fn item_of(&self, r: &R) -> Result<usize> {
        one_based(r.index(), self.positions.len())
    }

    fn block_len(&self, _: &R) -> usize {
        self.members.len()
    }

    fn output(&self, item: usize, rows: Vec<R>) -> Result<Vec<R>> {
        check_members(item, rows.iter().map(R::member), self.members)?;
        Ok(rows)
    }
}

/// The item of a record that names its position by a 1-based `index` into the run's `items`
/// positions; an error for a position the run does not have.
pub fn one_based(index: usize, items: usize) -> Result<usize> {
    index
        .checked_sub(1)
        .filter(|&i| i < items)
        .with_context(|| format!("position {index} is not one of this run's {items}"))
}

/// Checks that a block read back holds its members in order (a variant or rule per row):
/// `found` are the rows' member names, `expected` the run's.
pub fn check_members<'a>(
    item: usize,
    found: impl IntoIterator<Item = &'a str>,
    expected: &[&str],
) -> Result<()> {
    for (got, want) in found.into_iter().zip(expected) {
        if got != *want {
            bail!("item {} has '{got}' where '{want}' was expected", item + 1);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::provenance::Provenance;
    use serde::{Deserialize, Serialize};
    use std::path::PathBuf;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Square {
        item: usize,
        part: usize,
        value: u64,
    }

    impl Row for Square {
        const COLUMNS: &'static str = "item,part,value";
    }

    /// Item i yields [i², i² + 1]; item `fail` fails.
    struct Squares {
        n: usize,
        fail: Option<usize>,
        runs: AtomicUsize,
    }

    impl Job for Squares {
        type Output = Vec<u64>;
        type Row = Square;
        type Worker = ();

        fn items(&self) -> usize {
            self.n
        }
        fn worker(&self) -> Result<()> {
            Ok(())
        }
        fn run(&self, _: &mut (), item: usize, _: Option<&Vec<u64>>) -> Result<Vec<u64>> {
            self.runs.fetch_add(1, Ordering::Relaxed);
            if self.fail == Some(item) {
                bail!("item {item} fails");
            }
            let sq = (item * item) as u64;
            Ok(vec![sq, sq + 1])
        }
        fn rows(&self, item: usize, output: &Vec<u64>) -> Vec<Square> {
            output
                .iter()
                .enumerate()
                .map(|(part, &value)| Square { item, part, value })
                .collect()
        }
        fn item_of(&self, row: &Square) -> Result<usize> {
            if row.item >= self.n {
                bail!("item {} is not of this run", row.item);
            }
            Ok(row.item)
        }
        fn block_len(&self, _: &Square) -> usize {
            2
        }
        fn output(&self, _: usize, rows: Vec<Square>) -> Result<Vec<u64>> {
            Ok(rows.into_iter().map(|r| r.value).collect())
        }
        fn cost(&self, item: usize) -> f64 {
            item as f64
        }
    }

    fn squares(n: usize, fail: Option<usize>) -> Squares {
        Squares {
            n,
            fail,
            runs: AtomicUsize::new(0),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("augur-jobs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn header() -> Header {
        Header {
            kind: "squares".into(),
            settings: vec![("n".into(), "6".into())],
            provenance: Provenance::capture(&"squares", None),
            columns: Square::COLUMNS.into(),
        }
    }

    fn options(path: &Path, workers: usize) -> Options<'_> {
        Options {
            workers,
            progress: false,
            unit: "items",
            file: Some((path, header())),
        }
    }

    fn body(path: &Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    }

    #[test]
    fn a_run_writes_every_block_in_item_order_and_a_restart_does_nothing() {
        let dir = scratch("order");
        let path = dir.join("squares.csv");
        let job = squares(6, None);
        let done = run(&job, options(&path, 3)).unwrap();
        assert_eq!(done.outputs[5], vec![25, 26]);
        assert_eq!(done.resumed, 0);
        let lines = body(&path);
        assert_eq!(lines[0], "item,part,value");
        assert_eq!(lines[1..3], ["0,0,0", "0,1,1"]);
        assert_eq!(lines.len(), 1 + 12);
        let again = squares(6, None);
        let second = run(&again, options(&path, 2)).unwrap();
        assert_eq!(second.resumed, 6);
        assert_eq!(again.runs.load(Ordering::Relaxed), 0);
        assert_eq!(second.outputs, done.outputs);
        assert_eq!(body(&path), lines);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unfinished_last_block_is_worked_out_again_and_an_edited_file_refused() {
        let dir = scratch("cut");
        let path = dir.join("squares.csv");
        run(&squares(6, None), options(&path, 1)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // A kill in the middle of item 5's block: one row whole, the next torn.
        let cut = text.len() - "5,1,26\n".len() - 3;
        std::fs::write(&path, &text[..cut]).unwrap();
        let job = squares(6, None);
        let done = run(&job, options(&path, 1)).unwrap();
        assert_eq!((done.resumed, job.runs.load(Ordering::Relaxed)), (5, 1));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        // A short block before the last one is no kill's doing.
        let edited = text.replacen("2,1,5\n", "", 1);
        std::fs::write(&path, edited).unwrap();
        let e = format!(
            "{:#}",
            run(&squares(6, None), options(&path, 1)).err().unwrap()
        );
        assert!(e.contains("item 3 has 1 records, expected 2"), "{e}");
        // A record that does not parse is named.
        std::fs::write(&path, text.replacen("3,1,10", "3,1,ten", 1)).unwrap();
        let e = format!(
            "{:#}",
            run(&squares(6, None), options(&path, 1)).err().unwrap()
        );
        assert!(
            e.contains("bad CSV line '3,1,ten'") && e.contains("column value"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_first_error_stops_the_run_and_keeps_the_finished_blocks() {
        let dir = scratch("error");
        let path = dir.join("squares.csv");
        // Largest cost first: item 5 runs before item 0, which fails.
        let e = run(&squares(6, Some(0)), options(&path, 1)).err().unwrap();
        assert_eq!(e.to_string(), "item 0 fails");
        let lines = body(&path);
        assert_eq!(lines.len(), 1 + 10, "{lines:?}");
        assert_eq!(lines[1], "5,0,25");
        let job = squares(6, None);
        let done = run(&job, options(&path, 2)).unwrap();
        assert_eq!((done.resumed, job.runs.load(Ordering::Relaxed)), (5, 1));
        assert_eq!(body(&path)[1], "0,0,0");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_run_without_a_file_returns_the_outputs() {
        let job = squares(4, None);
        let opts = Options {
            workers: 2,
            progress: false,
            unit: "items",
            file: None,
        };
        let done = run(&job, opts).unwrap();
        assert_eq!(done.outputs, [[0, 1], [1, 2], [4, 5], [9, 10]]);
        assert_eq!(job.runs.load(Ordering::Relaxed), 4);
        assert!(check_members(0, ["a", "b"], &["a", "b"]).is_ok());
        let e = check_members(2, ["a", "c"], &["a", "b"]).unwrap_err();
        assert_eq!(e.to_string(), "item 3 has 'c' where 'b' was expected");
    }

    /// [`run_in_order`] hands the outputs over in item order whatever order they finish in
    /// (later items sleep less), from the first item asked for; a sink that breaks gets
    /// nothing more; an item's error is returned, and the sink never sees the items after it.
    #[test]
    fn run_in_order_hands_outputs_over_in_order_until_the_sink_breaks() {
        let mut seen = Vec::new();
        run_in_order(
            3,
            5..usize::MAX,
            || Ok(()),
            |_, i| {
                std::thread::sleep(std::time::Duration::from_millis(20 - (i % 7) as u64 * 3));
                Ok(i * i)
            },
            |i, o| {
                seen.push((i, o));
                Ok(if i == 16 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            },
        )
        .unwrap();
        assert_eq!(seen, (5..=16).map(|i| (i, i * i)).collect::<Vec<_>>());
        let mut seen = Vec::new();
        let e = run_in_order(
            2,
            0..10,
            || Ok(()),
            |_, i| {
                if i == 4 {
                    bail!("item 4 failed")
                } else {
                    Ok(i)
                }
            },
            |i, _| {
                seen.push(i);
                Ok(ControlFlow::Continue(()))
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("item 4"), "{e}");
        assert_eq!(seen, [0, 1, 2, 3]);
        // The items before a failed one reach the sink whatever order the threads finish in:
        // items 1 and 2 are slow, and 2 fails after 6 has failed (the lowest one's error).
        for workers in [1, 2, 4] {
            let mut seen = Vec::new();
            let e = run_in_order(
                workers,
                0..10,
                || Ok(()),
                |_, i| {
                    if i == 1 || i == 2 {
                        std::thread::sleep(std::time::Duration::from_millis(40 + i as u64 * 10));
                    }
                    match i {
                        2 | 6 => bail!("item {i} failed"),
                        _ => Ok(i),
                    }
                },
                |i, _| {
                    seen.push(i);
                    Ok(ControlFlow::Continue(()))
                },
            )
            .unwrap_err();
            assert!(e.to_string().contains("item 2"), "{workers}: {e}");
            assert_eq!(seen, [0, 1], "{workers}");
        }
        // Workers that cannot start: their error, whether the others delivered or not.
        for workers in [1, 3] {
            let mut seen = Vec::new();
            let started = AtomicUsize::new(0);
            let e = run_in_order(
                workers,
                0..10,
                || match started.fetch_add(1, Ordering::SeqCst) {
                    0 if workers == 1 => bail!("no worker"),
                    1 => bail!("no worker"),
                    _ => Ok(()),
                },
                |_, i| Ok(i),
                |i, _| {
                    seen.push(i);
                    Ok(ControlFlow::Continue(()))
                },
            )
            .unwrap_err();
            assert!(e.to_string().contains("no worker"), "{workers}: {e}");
            assert!(
                seen.iter().copied().eq(0..seen.len()),
                "{workers}: {seen:?}"
            );
        }
    }
}
