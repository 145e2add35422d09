//! The UCI protocol: reads commands (on a thread of their own), keeps the engine state, runs
//! searches, `go perft` and `genfens` on a worker thread so that `isready`, `stop`,
//! `ponderhit` and `quit` are answered while it works.
//! Anything malformed is answered with `info string error: ...` and changes nothing.

mod info;
pub mod input;

use crate::options::{self, OptionError, Value};
use crate::perft;
use crate::position::Position;
use crate::search::config::SearchConfig;
use crate::search::limits::Limits;
use crate::search::tt::ResizeError;
use crate::search::{Control, SearchTeam};
use crate::tablebase::Tablebases;
use info::UciReporter;
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;
use thiserror::Error;

pub const ENGINE_NAME: &str = concat!("Augur ", env!("CARGO_PKG_VERSION"));

#[derive(Debug, Error, PartialEq)]
pub enum CommandError {
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error("{0}")]
    Position(String),
    #[error("go: {0}")]
    Go(String),
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error("setoption: expected 'setoption name <id> [value <x>]'")]
    SetOptionSyntax,
    #[error("Hash: {0}")]
    Hash(#[from] ResizeError),
    #[error(transparent)]
    Genfens(#[from] crate::genfens::GenfensError),
    #[error("cannot start a thread for it: {0}")]
    Thread(String),
}

pub struct Engine {
    pos: Position,
    chess960: bool,
    /// The search: its settings, table and threads. The worker thread holds the lock for
    /// the length of a search; between searches the commands here take it.
    team: Arc<Mutex<SearchTeam>>,
    /// The team's `stop` and `ponderhit` flags, reachable while the worker holds the team.
    control: Arc<Control>,
    worker: Option<JoinHandle<()>>,
    /// The running search's own limits bound nothing ([`Limits::until_stopped`], ponder
    /// aside): only `stop` ends it. A ponder search is open ended until `ponderhit` too
    /// ([`Self::open_ended`]).
    open_ended: bool,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L`.
    show_wdl: bool,
    /// The input, read on a thread of its own by [`Self::run`], so that `stop`, `quit` and
    /// `isready` are served while a command waits for a search with a limit.
    incoming: Option<mpsc::Receiver<InputLine>>,
    /// Lines read during such a wait, to be handled in order after it.
    pending: VecDeque<InputLine>,
    /// `quit` came during a wait: the command that waited ends, then the engine.
    quitting: bool,
    /// The command that waits starts a search: a `stop` read meanwhile is that search's.
    starting: bool,
}

type InputLine = Result<String, input::InputError>;

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

/// Error messages quote the offending input; a 1 MiB line is not echoed back whole.
fn clip(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}... ({} bytes)", &text[..at], text.len()),
        None => text.to_string(),
    }
}

/// Splits `setoption name <id with spaces> value <x>` into its parts.
fn parse_setoption(rest: &str) -> Result<(String, Option<String>), CommandError> {
    let rest = rest.trim();
    let rest = rest
        .strip_prefix("name")
        .ok_or(CommandError::SetOptionSyntax)?
        .trim();
    // The first word `value` ends the name; the value is the rest as sent, trimmed, so that
    // a path with two spaces or a tab in it (EvalFile, SyzygyPath) is kept as it is.
    let value_at = rest.match_indices("value").map(|(i, _)| i).find(|&i| {
        let before = rest[..i].chars().next_back();
        let after = rest[i + "value".len()..].chars().next();
        before.is_none_or(char::is_whitespace) && after.is_none_or(char::is_whitespace)
    });
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let (name, value) = match value_at {
        Some(i) => (
            words(&rest[..i]),
            Some(rest[i + "value".len()..].trim().to_string()),
        ),
        None => (words(rest), None),
    };
    if name.is_empty() {
        return Err(CommandError::SetOptionSyntax);
    }
    Ok((name, value))
}

/// Parses the tokens after `go`.
pub fn parse_go(tokens: &[&str]) -> Result<Limits, CommandError> {
    let mut l = Limits::default();
    let mut i = 0;
    fn num<T: std::str::FromStr>(tokens: &[&str], i: usize, what: &str) -> Result<T, CommandError> {
        let t = tokens
            .get(i + 1)
            .ok_or_else(|| CommandError::Go(format!("'{what}' needs a number")))?;
        t.parse()
            .map_err(|_| CommandError::Go(format!("'{t}' is not a valid value for '{what}'")))
    }
    while i < tokens.len() {
        let t = tokens[i];
        let mut step = 2;
        match t {
            "depth" => l.depth = Some(num::<i32>(tokens, i, t)?.max(1)),
            "nodes" => l.nodes = Some(num(tokens, i, t)?),
            "movetime" => l.movetime = Some(num(tokens, i, t)?),
            "mate" => {
                let n: i32 = num(tokens, i, t)?;
                if n < 1 {
                    // Otherwise the search would wait for a mate that cannot be reached.
                    return Err(CommandError::Go(format!("'mate {n}': expected 1 or more")));
                }
                l.mate = Some(n)
            }
            "wtime" => l.wtime = Some(num(tokens, i, t)?),
            "btime" => l.btime = Some(num(tokens, i, t)?),
            "winc" => l.winc = Some(num(tokens, i, t)?),
            "binc" => l.binc = Some(num(tokens, i, t)?),
            "movestogo" => l.movestogo = Some(num(tokens, i, t)?),
            "infinite" => {
                l.infinite = true;
                step = 1;
            }
            "ponder" => {
                l.ponder = true;
                step = 1;
            }
            "searchmoves" => {
                let keywords = [
                    "depth",
                    "nodes",
                    "movetime",
                    "mate",
                    "wtime",
                    "btime",
                    "winc",
                    "binc",
                    "movestogo",
                    "infinite",
                    "ponder",
                ];
                let mut j = i + 1;
                while j < tokens.len() && !keywords.contains(&tokens[j]) {
                    l.searchmoves.push(tokens[j].to_string());
                    j += 1;
                }
                step = j - i;
            }
            other => return Err(CommandError::Go(format!("unknown parameter '{other}'"))),
        }
        i += step;
    }
    Ok(l)
}

/// Builds the position of a `position` command; nothing is changed on error.
/// What `setoption` would refuse whatever the engine's state: its syntax, an unknown name, a
/// value of the wrong type or out of range. (A file an option names is read when it is set.)
fn check_setoption(rest: &str) -> Result<(), CommandError> {
    let (name, value) = parse_setoption(rest)?;
    match options::engine_option_named(&name) {
        Some(spec) => spec.parse(value.as_deref()).map(|_| ())?,
        None => {
            if !SearchConfig::default().set_option(&name, value.as_deref())? {
                return Err(OptionError::Unknown(name).into());
            }
        }
    }
    Ok(())
}

pub fn parse_position(rest: &str, chess960: bool) -> Result<Position, CommandError> {
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    let moves_at = tokens.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (&tokens[..], &[][..]),
    };
    let mut pos =
        match setup.first() {
            Some(&"startpos") if setup.len() == 1 => {
                let mut p = Position::startpos();
                p.set_chess960(chess960);
                p
            }
            Some(&"fen") => Position::from_fen(&setup[1..].join(" "), chess960)
                .map_err(|e| CommandError::Position(format!("position: bad FEN: {e}")))?,
            _ => return Err(CommandError::Position(
                "position: expected 'startpos' or 'fen <FEN>', optionally followed by 'moves ...'"
                    .into(),
            )),
        };
    for (n, m) in moves.iter().enumerate() {
        pos.play_uci(m)
            .map_err(|e| CommandError::Position(format!("position: move {} {e}", n + 1)))?;
        if n % 1024 == 1023 {
            pos.forget_irreversible_past();
        }
    }
    pos.forget_irreversible_past();
    Ok(pos)
}

/// The team, also after a search that panicked (its per-search state is rebuilt by the next
/// search; histories and table are cleared by the caller).
fn lock(team: &Mutex<SearchTeam>) -> MutexGuard<'_, SearchTeam> {
    team.lock().unwrap_or_else(|poisoned| {
        team.clear_poison();
        poisoned.into_inner()
    })
}

/// One `go` on the search thread: searches and prints `bestmove`.
fn think(
    team: &Mutex<SearchTeam>,
    pos: &Position,
    limits: &Limits,
    control: &Control,
    mut reporter: UciReporter,
) {
    let mut team = lock(team);
    let result = team.search_with(pos, limits, &mut reporter, || {
        // In infinite and ponder mode the GUI must see bestmove only after stop/ponderhit.
        while (limits.infinite || control.pondering.load(Ordering::SeqCst))
            && !control.stop.load(Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
    // [syzygy] A table found corrupt during the search, before the answer.
    if let Some(tables) = &team.syzygy().tables {
        for w in tables.take_warnings() {
            println!("info string warning: {w}");
        }
    }
    drop(team);
    control.answered.store(true, Ordering::SeqCst);
    match result.best {
        Some(b) => {
            let mut text = format!("bestmove {}", pos.uci(b));
            if let Some(p) = result.ponder {
                let mut after = pos.clone();
                after.make(b);
                if after.board().is_legal(p) {
                    text.push_str(&format!(" ponder {}", after.uci(p)));
                }
            }
            println!("{text}");
        }
        None => println!("bestmove 0000"),
    }
}

impl Engine {
    pub fn new() -> Self {
        // The declared default size; a machine without 16 MiB to spare starts with 1.
        let team = SearchTeam::new(SearchConfig::default(), 16)
            .or_else(|_| SearchTeam::new(SearchConfig::default(), 1))
            .expect("1 MiB for the hash table");
        Engine {
            pos: Position::startpos(),
            chess960: false,
            control: team.control().clone(),
            team: Arc::new(Mutex::new(team)),
            worker: None,
            open_ended: false,
            show_wdl: false,
            incoming: None,
            pending: VecDeque::new(),
            quitting: false,
            starting: false,
        }
    }

    /// Reads commands until `quit` or end of input. At end of input a search with a limit
    /// is allowed to finish (so piped scripts get their answer); an open-ended one is stopped.
    /// A line that cannot be read as text is answered with an error and skipped.
    pub fn run(&mut self, input: impl BufRead + Send + 'static) {
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::Builder::new().spawn(move || {
            for line in input::Lines::new(input) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        if let Err(e) = reader {
            println!("info string error: cannot start the input thread: {e}");
            return;
        }
        self.incoming = Some(rx);
        let mut quit = false;
        while let Some(line) = self.next_line() {
            match line {
                Ok(line) => {
                    if !self.handle(&line) || self.quitting {
                        quit = true;
                        break;
                    }
                }
                Err(e) => println!("info string error: {e}"),
            }
        }
        self.incoming = None;
        if !quit {
            self.finish_search();
        }
        self.stop_and_join();
    }

    /// The next line: one kept during a wait, else the next from the input thread (`None` at
    /// end of input).
    fn next_line(&mut self) -> Option<InputLine> {
        if let Some(line) = self.pending.pop_front() {
            return Some(line);
        }
        self.incoming.as_ref()?.recv().ok()
    }

    /// Runs each command-line argument as a command (OpenBench starts engines as
    /// `augur "genfens ..." quit`), then reads standard input unless one was `quit`.
    pub fn run_with_args(&mut self, args: &[String], input: impl BufRead + Send + 'static) {
        for arg in args {
            if !self.handle(arg) {
                self.stop_and_join();
                return;
            }
            // Arguments are a script, not a conversation: each one's work (a `genfens`, a
            // `go depth`) ends before the next is read, so a `quit` after it does not cut it.
            self.finish_search();
        }
        self.run(input);
    }

    /// Whether a later command stops the running search instead of waiting for it.
    fn open_ended(&self) -> bool {
        self.open_ended || self.control.pondering.load(Ordering::SeqCst)
    }

    fn searching(&self) -> bool {
        self.worker.is_some()
    }

    /// Waits for a running search (after telling it to stop).
    fn stop_and_join(&mut self) {
        if self.worker.is_some() {
            self.control.stop.store(true, Ordering::SeqCst);
            self.control.pondering.store(false, Ordering::SeqCst);
            self.join();
        }
    }

    /// Before a command that changes state: a search with a limit is allowed to finish (its
    /// answer still goes out), an open-ended one is stopped.
    fn finish_search(&mut self) {
        if self.open_ended() {
            self.stop_and_join();
        } else {
            self.serve_while_busy();
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(w) = self.worker.take() {
            if w.join().is_err() {
                println!("info string error: search thread failed; state was reset");
                lock(&self.team).new_game();
            }
        }
    }

    /// While the worker runs and a command waits for it: `isready` is answered (unless lines
    /// wait before it) and `quit` stops the search at once; `stop` and `ponderhit` act at once
    /// unless a line is queued before them or the waiting command is a `go` (then they belong
    /// to a later search, and wait their turn with the rest). Once the search is told to stop
    /// it returns, so that the search's `bestmove` comes before any later `readyok`. Only with
    /// the input on its own thread ([`Self::run`]); otherwise the wait blocks.
    ///
    /// A `readyok` given during the wait says that the engine is alive, as UCI asks of
    /// `isready` during a search: it comes before the search's `bestmove` and before whatever
    /// the waiting command prints (an `EvalFile` loaded; a refusal never waits, see
    /// [`check_setoption`]). Once the answer is going out ([`Control::answered`]) the wait is
    /// only the thread's end, and nothing is served ahead of the waiting command.
    fn serve_while_busy(&mut self) {
        loop {
            let Some(worker) = &self.worker else { return };
            // Once the answer goes out the job ends at once: a `readyok` now would come
            // before the output of the command that waits (a refused `setoption`).
            if worker.is_finished() || self.control.answered.load(Ordering::SeqCst) {
                return;
            }
            let Some(rx) = &self.incoming else { return };
            let line = match rx.recv_timeout(Duration::from_millis(5)) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.incoming = None;
                    return;
                }
            };
            let command = match &line {
                Ok(text) => text.split_whitespace().next().unwrap_or(""),
                Err(_) => "",
            };
            match command {
                // Answered in turn after lines queued before it (a `stop` of a later search):
                // `readyok` says that everything sent before it is done.
                "isready" if self.pending.is_empty() => println!("readyok"),
                "quit" => {
                    self.quitting = true;
                    self.pending.clear();
                    self.control.stop.store(true, Ordering::SeqCst);
                    self.control.pondering.store(false, Ordering::SeqCst);
                    return;
                }
                "stop" if self.pending.is_empty() && !self.starting => {
                    self.control.stop.store(true, Ordering::SeqCst);
                    self.control.pondering.store(false, Ordering::SeqCst);
                    return;
                }
                "ponderhit" if self.pending.is_empty() && !self.starting => {
                    self.control.pondering.store(false, Ordering::SeqCst);
                }
                _ if self.quitting => {}
                _ => self.pending.push_back(line),
            }
        }
    }

    /// Joins a search that has already finished by itself, so its state is reusable.
    fn reap_finished(&mut self) {
        if self.worker.as_ref().is_some_and(|w| w.is_finished()) {
            self.stop_and_join();
        }
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        if line.is_empty() {
            return true;
        }
        self.reap_finished();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let result = match cmd {
            "quit" => return false,
            "uci" => {
                println!("id name {ENGINE_NAME}");
                println!("id author the Augur developers");
                for spec in options::all() {
                    println!("{}", spec.declaration());
                }
                println!("uciok");
                Ok(())
            }
            "isready" => {
                println!("readyok");
                Ok(())
            }
            "stop" => {
                self.stop_and_join();
                Ok(())
            }
            "ponderhit" => {
                self.control.pondering.store(false, Ordering::SeqCst);
                Ok(())
            }
            "debug" => Ok(()),
            "ucinewgame" => {
                self.finish_search();
                self.pos = Position::startpos();
                self.pos.set_chess960(self.chess960);
                lock(&self.team).new_game();
                Ok(())
            }
            // Checked before the wait for a running search: a refusal is answered at once, in
            // order before a later `readyok`, and changes nothing, so it need not wait.
            "setoption" => check_setoption(rest).and_then(|()| {
                self.finish_search();
                self.setoption(rest)
            }),
            "position" => parse_position(rest, self.chess960).map(|p| {
                self.finish_search();
                self.pos = p;
            }),
            "go" => {
                self.starting = true;
                self.finish_search();
                self.starting = false;
                self.go(rest)
            }
            "genfens" => {
                self.starting = true;
                self.finish_search();
                self.starting = false;
                crate::genfens::Request::parse(rest)
                    .map_err(CommandError::from)
                    .and_then(|req| self.genfens(req))
            }
            "d" => {
                println!("{}", self.pos);
                Ok(())
            }
            "eval" => {
                self.finish_search();
                let team = lock(&self.team);
                let cfg = team.config();
                let kind = cfg.eval;
                let v = crate::eval::evaluate(&self.pos, kind, &cfg.network, cfg.king_safety);
                println!("info string eval {kind} {v} (side to move)");
                Ok(())
            }
            _ => Err(CommandError::Unknown(cmd.to_string())),
        };
        if let Err(e) = result {
            println!("info string error: {}", clip(&e.to_string()));
        }
        true
    }

    fn setoption(&mut self, rest: &str) -> Result<(), CommandError> {
        let (name, value) = parse_setoption(rest)?;
        let mut team = lock(&self.team);
        let Some(spec) = options::engine_option_named(&name) else {
            if !team.set_option(&name, value.as_deref())? {
                return Err(OptionError::Unknown(name).into());
            }
            if name.eq_ignore_ascii_case("ProbCutParams") {
                println!(
                    "info string ProbCutParams: {} depth pairs from {}",
                    team.config().probcut.params.pairs.len(),
                    value
                        .as_deref()
                        .unwrap_or(crate::search::probcut::BUILTIN_PARAMS)
                );
            }
            // [probcut] [mpc] A switch on without fitted pairs never cuts; say so, since the
            // search would not (the option is still set: a GUI may set the pair next).
            let lower = name.to_ascii_lowercase();
            if lower.starts_with("probcut") || lower.starts_with("mpc") {
                for u in crate::search::probcut::unfitted(team.config()) {
                    println!("info string warning: {}", u.message());
                }
            }
            return Ok(());
        };
        match (spec.name, spec.parse(value.as_deref())?) {
            ("Hash", Value::Int(n)) => team.resize_hash(n as usize)?,
            ("Clear Hash", _) => team.clear_hash(),
            ("UCI_Chess960", Value::Bool(b)) => {
                self.chess960 = b;
                self.pos.set_chess960(b);
            }
            ("UCI_ShowWDL", Value::Bool(b)) => self.show_wdl = b,
            // [nnue] Loaded whole before it replaces this engine's network, so a bad file
            // changes nothing; searches started from now on use the new one.
            ("EvalFile", Value::Text(path)) => {
                let net = if path == options::DEFAULT_NETWORK {
                    crate::eval::nnue::default_network()
                } else {
                    let net = crate::eval::nnue::Network::load(std::path::Path::new(&path))
                        .map_err(|e| OptionError::Value {
                            name: "EvalFile",
                            error: options::ValueError::Network(e.to_string()),
                        })?;
                    Arc::new(net)
                };
                println!("info string EvalFile: {} from {path}", net.describe());
                team.set_network(net);
            }
            ("Threads", Value::Int(n)) => team.set_threads(n as usize),
            // [syzygy] Every folder or file that cannot be used is a warning; the rest load.
            ("SyzygyPath", Value::Text(path)) => {
                let tables = if path == options::NO_TABLES {
                    None
                } else {
                    let (tables, warnings) = Tablebases::open(&path);
                    for w in warnings {
                        println!("info string warning: {w}");
                    }
                    // Not one table: refused, as a bad EvalFile is, and the tables in force
                    // (if any) are kept.
                    let tables = tables.ok_or_else(|| OptionError::Value {
                        name: "SyzygyPath",
                        error: options::ValueError::Tables(format!("no tables found in {path}")),
                    })?;
                    println!(
                        "info string SyzygyPath: {} table files, up to {} pieces, from {path}",
                        tables.files(),
                        tables.max_pieces()
                    );
                    Some(Arc::new(tables))
                };
                team.syzygy_mut().tables = tables;
            }
            ("SyzygyProbeDepth", Value::Int(n)) => team.syzygy_mut().probe_depth = n as i32,
            ("SyzygyProbeLimit", Value::Int(n)) => team.syzygy_mut().probe_limit = n as usize,
            ("Syzygy50MoveRule", Value::Bool(b)) => team.syzygy_mut().fifty_move_rule = b,
            // Ponder only tells that the GUI may send `go ponder`, which is always served.
            _ => {}
        }
        Ok(())
    }

    /// `genfens` on the worker thread, as `go perft`: `stop` and `quit` end it between
    /// positions. Given as command-line arguments (OpenBench), it runs to its end, since
    /// [`Self::run_with_args`] waits for each argument's work.
    fn genfens(&mut self, req: crate::genfens::Request) -> Result<(), CommandError> {
        if self.quitting {
            return Ok(()); // `quit` came while this command waited
        }
        let config = lock(&self.team).config().clone();
        let generator = crate::genfens::Generator::new(req, &config, self.chess960)?;
        let control = self.control.clone();
        self.start_job(move || {
            let emit = |fen: &str| println!("info string genfens {fen}");
            let outcome = generator.run(&control.stop, emit);
            control.answered.store(true, Ordering::SeqCst);
            if let Err(e) = outcome {
                println!("info string error: {}", clip(&e.to_string()));
            }
        })
    }

    /// Runs a bounded job other than a search (`go perft`, `genfens`) on the worker thread,
    /// its `stop` flag cleared: `stop` and `quit` end it, a later command waits for it.
    fn start_job(&mut self, job: impl FnOnce() + Send + 'static) -> Result<(), CommandError> {
        self.control.stop.store(false, Ordering::SeqCst);
        self.control.answered.store(false, Ordering::SeqCst);
        self.open_ended = false;
        let worker = std::thread::Builder::new()
            .spawn(job)
            .map_err(|e| CommandError::Thread(e.to_string()))?;
        self.worker = Some(worker);
        Ok(())
    }

    fn go(&mut self, rest: &str) -> Result<(), CommandError> {
        if self.quitting {
            return Ok(()); // `quit` came while this command waited
        }
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        if tokens.first() == Some(&"perft") {
            let depth: u32 = tokens
                .get(1)
                .and_then(|d| d.parse().ok())
                .ok_or_else(|| CommandError::Go("perft needs a depth".into()))?;
            // On the worker thread like a search, so that `stop` and `quit` end a perft that
            // would run for hours; a later command that changes state waits for it, as a
            // script that sends `go perft` then `position` expects.
            let (pos, control) = (self.pos.clone(), self.control.clone());
            return self.start_job(move || {
                let threads = perft::default_threads();
                let counts = perft::divide_until(&pos, depth.max(1), threads, &control.stop);
                control.answered.store(true, Ordering::SeqCst);
                match counts {
                    Some(counts) => {
                        let mut total = 0;
                        for (mv, n) in counts {
                            println!("{mv}: {n}");
                            total += n;
                        }
                        println!("\nNodes searched: {total}\n");
                    }
                    None => println!("info string perft stopped before its count was complete"),
                }
            });
        }
        let limits = match parse_go(&tokens) {
            Ok(l) => l,
            Err(e) => {
                // Still answer with a move: a GUI waits for `bestmove` after every `go`.
                println!("info string error: {e}; searching to depth 1 instead");
                Limits {
                    depth: Some(1),
                    ..Default::default()
                }
            }
        };
        // A move of `searchmoves` that is not legal here is said, not silently dropped (the
        // search keeps the legal ones, or all moves when none is).
        for m in &limits.searchmoves {
            if self.pos.parse_uci(m).is_err() {
                println!(
                    "info string error: searchmoves: '{}' is not a legal move here; ignored",
                    clip(m)
                );
            }
        }
        let pos = self.pos.clone();
        let (team, control) = (self.team.clone(), self.control.clone());
        control.stop.store(false, Ordering::SeqCst);
        control.answered.store(false, Ordering::SeqCst);
        control.pondering.store(limits.ponder, Ordering::SeqCst);
        // A later command stops such a search instead of waiting for it forever.
        self.open_ended = Limits {
            ponder: false,
            ..limits.clone()
        }
        .until_stopped();
        let reporter = UciReporter {
            show_wdl: self.show_wdl,
        };
        let job = move || think(&team, &pos, &limits, &control, reporter);
        match std::thread::Builder::new().spawn(job) {
            Ok(worker) => self.worker = Some(worker),
            Err(e) => {
                // The OS refused a thread: answer from this thread with a quick search,
                // since the GUI waits for a `bestmove`.
                println!("info string error: cannot start the search thread: {e}; searching to depth 1 here");
                self.open_ended = false;
                self.control.pondering.store(false, Ordering::SeqCst);
                let limits = Limits {
                    depth: Some(1),
                    ..Default::default()
                };
                think(&self.team, &self.pos, &limits, &self.control, reporter);
            }
        }
        Ok(())
    }

    /// True while a search runs (for tests and the binary's shutdown).
    pub fn is_searching(&self) -> bool {
        self.searching()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parsing() {
        let l = parse_go(&[
            "wtime",
            "1000",
            "btime",
            "900",
            "winc",
            "10",
            "movestogo",
            "5",
        ])
        .unwrap();
        assert_eq!(
            (l.wtime, l.btime, l.winc, l.movestogo),
            (Some(1000), Some(900), Some(10), Some(5))
        );
        let l = parse_go(&["searchmoves", "e2e4", "d2d4", "depth", "3"]).unwrap();
        assert_eq!(l.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(l.depth, Some(3));
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["depth", "x"]).is_err());
        assert!(parse_go(&["sideways"]).is_err());
    }

    /// Only a `go` that nothing bounds runs until stopped: any clock field bounds it, as the
    /// time plan reads them (a later command then waits for its `bestmove`).
    #[test]
    fn which_go_runs_until_stopped() {
        let open = |words: &str| {
            let tokens: Vec<&str> = words.split_whitespace().collect();
            parse_go(&tokens).unwrap().until_stopped()
        };
        for words in ["", "infinite", "ponder wtime 1000 btime 1000", "mate 3"] {
            assert!(open(words), "'go {words}'");
        }
        for words in [
            "depth 5",
            "nodes 100",
            "movetime 10",
            "wtime 10",
            "btime 10",
            "winc 10",
            "binc 10",
            "movestogo 5",
        ] {
            assert!(!open(words), "'go {words}'");
        }
    }

    #[test]
    fn position_parsing_rejects_illegal_moves_and_bad_fens() {
        let p = parse_position("startpos moves e2e4 e7e5", false).unwrap();
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
        );
        let e = parse_position("startpos moves e2e4 e2e4", false).unwrap_err();
        assert!(e.to_string().contains("move 2"), "{e}");
        assert!(parse_position("fen 8/8 w - - 0 1", false).is_err());
        assert!(parse_position("startfoo", false).is_err());
        assert_eq!(
            parse_setoption("name Clear Hash").unwrap(),
            ("Clear Hash".to_string(), None)
        );
        assert_eq!(
            parse_setoption("name Move Overhead value 10").unwrap(),
            ("Move Overhead".to_string(), Some("10".to_string()))
        );
        // A value keeps its inner whitespace (a path); a word merely containing "value" is
        // part of the name; `name value` has no name.
        assert_eq!(
            parse_setoption("name  EvalFile value /tmp/a  b\tc.nnue ").unwrap(),
            (
                "EvalFile".to_string(),
                Some("/tmp/a  b\tc.nnue".to_string())
            )
        );
        assert_eq!(
            parse_setoption("name devalue Thing value x").unwrap(),
            ("devalue Thing".to_string(), Some("x".to_string()))
        );
        assert_eq!(
            parse_setoption("name Thing value").unwrap(),
            ("Thing".to_string(), Some(String::new()))
        );
        assert!(parse_setoption("name value 3").is_err());
    }
}
