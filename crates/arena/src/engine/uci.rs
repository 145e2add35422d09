//! A UCI client: starts an engine process, performs the handshake, sends
//! positions and `go` commands and collects `info`/`bestmove` replies.
//!
//! A reader thread timestamps every line the moment it arrives, so the time
//! charged to an engine is "go written" to "bestmove read", independent of how
//! quickly the caller gets round to looking at the line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};

use crate::engine::spec::EngineSpec;

/// How long an engine may take to answer `uci` or `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// An engine evaluation from `info ... score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Moves to mate; negative when the engine is being mated.
    Mate(i32),
}

impl Score {
    /// Centipawns with mates mapped far outside any real evaluation.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }
}

/// What an engine said while searching one move.
#[derive(Clone, Debug, Default)]
pub struct SearchReport {
    pub bestmove: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
    /// The last `info string stats ...` line, if any (technique counters).
    pub stats: Option<String>,
    /// From writing `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// When the `bestmove` line was read from the pipe.
    pub received: Option<Instant>,
}

/// Why a search produced no usable reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchFailure {
    /// The process exited or closed its output.
    Crashed,
    /// No `bestmove` by the deadline, nor within the grace period after `stop`.
    Stalled,
    /// `bestmove` arrived, but only after the deadline (time forfeit).
    Late(Duration),
}

/// A UCI option as declared by the engine (`option name X type Y ...`).
#[derive(Clone, Debug)]
pub struct DeclaredOption {
    pub name: String,
    pub kind: String,
    /// A spin's `min` and `max`.
    pub range: Option<(i64, i64)>,
}

impl DeclaredOption {
    /// Whether `value` is one the engine takes. Engines silently ignore a spin out of range or a
    /// check that is neither `true` nor `false` (Stockfish keeps its old value), which would
    /// play a match at settings nobody asked for.
    pub fn check(&self, value: &str) -> Result<()> {
        match (self.kind.as_str(), self.range) {
            ("check", _) if !matches!(value.to_ascii_lowercase().as_str(), "true" | "false") => {
                bail!("{}={value}: a check option takes true or false", self.name)
            }
            ("spin", Some((min, max))) => match value.trim().parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(()),
                _ => bail!(
                    "{}={value}: the engine takes an integer from {min} to {max}",
                    self.name
                ),
            },
            _ => Ok(()),
        }
    }
}

pub struct UciEngine {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    /// `id name` as reported by the engine.
    pub id_name: Option<String>,
    pub declared: Vec<DeclaredOption>,
    /// When the last command was written (for overhead measurement).
    pub last_write: Option<Instant>,
}

impl UciEngine {
    /// Starts the process, runs the `uci` handshake, sends the spec's options and
    /// waits for `readyok`. Unknown option names are an error: a typo would
    /// otherwise silently run the wrong experiment.
    pub fn start(spec: &EngineSpec) -> Result<Self> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().with_context(|| {
            format!(
                "cannot start engine '{}' (command '{}')",
                spec.name,
                spec.cmd.display()
            )
        })?;
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("no stdin pipe"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow!("no stdout pipe"))?;
        let (tx, rx) = mpsc::channel();
        let thread_name = format!("uci-{}", spec.name);
        thread::Builder::new().name(thread_name).spawn(move || {
            let mut reader = BufReader::new(stdout);
            // Bytes, decoded lossily: an engine that prints a Latin-1 name is still an engine
            // (`read_line` fails on such a line, and the game would score it as a crash).
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let now = Instant::now();
                        let text = String::from_utf8_lossy(&line)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send((now, text)).is_err() {
                            break;
                        }
                    }
                }
            }
        })?;
        let mut engine = UciEngine {
            spec: spec.clone(),
            child,
            stdin,
            lines: rx,
            id_name: None,
            declared: Vec::new(),
            last_write: None,
        };
        engine.handshake().with_context(|| {
            format!(
                "engine '{}' (command '{}') failed the UCI handshake",
                spec.name,
                spec.cmd.display()
            )
        })?;
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<()> {
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = self.recv_line(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("uciok") => break,
                Some("id") if words.next() == Some("name") => {
                    self.id_name = Some(words.collect::<Vec<_>>().join(" "));
                }
                Some("option") => {
                    if let Some(opt) = parse_option_line(&line) {
                        self.declared.push(opt);
                    }
                }
                _ => {}
            }
        }
        for (name, value) in self.spec.options.clone() {
            let Some(decl) = self
                .declared
                .iter()
                .find(|d| d.name.eq_ignore_ascii_case(&name))
            else {
                let known: Vec<&str> = self.declared.iter().map(|d| d.name.as_str()).collect();
                bail!(
                    "engine '{}' has no option '{name}' (it declares: {})",
                    self.spec.name,
                    known.join(", ")
                );
            };
            decl.check(&value)
                .with_context(|| format!("engine '{}'", self.spec.name))?;
            if decl.kind == "button" {
                self.send(&format!("setoption name {}", decl.name))?;
            } else {
                self.send(&format!("setoption name {} value {value}", decl.name))?;
            }
        }
        self.wait_ready(HANDSHAKE_TIMEOUT)
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Writes one command line.
    pub fn send(&mut self, line: &str) -> Result<()> {
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        self.stdin
            .write_all(&buf)
            .and_then(|_| self.stdin.flush())
            .map_err(|e| anyhow!("engine '{}' closed its input: {e}", self.spec.name))?;
        self.last_write = Some(Instant::now());
        Ok(())
    }

    fn recv_line(&mut self, deadline: Instant) -> Result<String> {
        let timeout = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(timeout) {
            Ok((_, line)) => Ok(line),
            Err(RecvTimeoutError::Timeout) => bail!("engine '{}' timed out", self.spec.name),
            Err(RecvTimeoutError::Disconnected) => {
                bail!("engine '{}' exited", self.spec.name)
            }
        }
    }

    /// `isready` / `readyok`, discarding anything else.
    pub fn wait_ready(&mut self, timeout: Duration) -> Result<()> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.recv_line(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// `ucinewgame` followed by a readiness check.
    pub fn new_game(&mut self) -> Result<()> {
        self.send("ucinewgame")?;
        self.wait_ready(HANDSHAKE_TIMEOUT)
    }

    /// Sends `position` and `go ARGS` and waits for `bestmove`.
    ///
    /// `deadline` is measured from the moment `go` is written. If it passes,
    /// `stop` is sent and the engine gets `grace` more to answer: a reply then is
    /// [`SearchFailure::Late`], none at all is [`SearchFailure::Stalled`].
    pub fn search(
        &mut self,
        position: &str,
        go_args: &str,
        deadline: Duration,
        grace: Duration,
    ) -> std::result::Result<SearchReport, SearchFailure> {
        if self.send(position).is_err() {
            return Err(SearchFailure::Crashed);
        }
        let go = format!("go {go_args}");
        if self.send(&go).is_err() {
            return Err(SearchFailure::Crashed);
        }
        let started = self.last_write.unwrap_or_else(Instant::now);
        let mut report = SearchReport::default();
        let mut hard_deadline = started + deadline;
        let mut stopped = false;
        loop {
            let timeout = hard_deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(timeout) {
                Ok((at, line)) => {
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        report.bestmove = rest.split_whitespace().next().unwrap_or("").to_string();
                        report.elapsed = at.saturating_duration_since(started);
                        report.received = Some(at);
                        if report.elapsed > deadline {
                            return Err(SearchFailure::Late(report.elapsed));
                        }
                        return Ok(report);
                    }
                    if line.starts_with("info") {
                        parse_info(&line, &mut report);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(SearchFailure::Crashed),
                Err(RecvTimeoutError::Timeout) => {
                    if stopped {
                        return Err(SearchFailure::Stalled);
                    }
                    stopped = true;
                    if self.send("stop").is_err() {
                        return Err(SearchFailure::Crashed);
                    }
                    hard_deadline = Instant::now() + grace;
                }
            }
        }
    }

    /// Whether the process has exited.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Asks the engine to quit, and kills it if it has not within a second.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the process at once (after a crash or stall).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn parse_option_line(line: &str) -> Option<DeclaredOption> {
    // option name <words...> type <kind> ...
    let rest = line.strip_prefix("option")?.trim_start();
    let rest = rest.strip_prefix("name")?;
    let type_at = rest.find(" type ")?;
    let name = rest[..type_at].trim().to_string();
    let mut words = rest[type_at + 6..].split_whitespace();
    let kind = words.next()?.to_string();
    let (mut min, mut max) = (None, None);
    while let Some(w) = words.next() {
        match w {
            "min" => min = words.next().and_then(|v| v.parse().ok()),
            "max" => max = words.next().and_then(|v| v.parse().ok()),
            _ => {}
        }
    }
    let range = min.zip(max).filter(|_| kind == "spin");
    Some(DeclaredOption { name, kind, range })
}

/// Updates `report` from one `info` line. Unknown tokens are skipped; a
/// malformed number just leaves the field as it was.
pub fn parse_info(line: &str, report: &mut SearchReport) {
    let mut words = line.split_whitespace().skip(1);
    while let Some(w) = words.next() {
        match w {
            "depth" => report.depth = words.next().and_then(|v| v.parse().ok()).or(report.depth),
            "seldepth" => {
                report.seldepth = words
                    .next()
                    .and_then(|v| v.parse().ok())
                    .or(report.seldepth)
            }
            "nodes" => report.nodes = words.next().and_then(|v| v.parse().ok()).or(report.nodes),
            "score" => {
                let kind = words.next();
                let value = words.next().and_then(|v| v.parse::<i32>().ok());
                match (kind, value) {
                    (Some("cp"), Some(v)) => report.score = Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => report.score = Some(Score::Mate(v)),
                    _ => {}
                }
            }
            "pv" => {
                report.pv = words.map(str::to_string).collect();
                return;
            }
            "string" => {
                let text: Vec<&str> = words.collect();
                if text.first() == Some(&"stats") {
                    report.stats = Some(text.join(" "));
                }
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_info_lines() {
        let mut r = SearchReport::default();
        parse_info(
            "info depth 12 seldepth 18 score cp -31 lowerbound nodes 12345 nps 1 pv e2e4 e7e5",
            &mut r,
        );
        assert_eq!(r.depth, Some(12));
        assert_eq!(r.seldepth, Some(18));
        assert_eq!(r.score, Some(Score::Cp(-31)));
        assert_eq!(r.nodes, Some(12345));
        assert_eq!(r.pv, vec!["e2e4", "e7e5"]);
        parse_info("info score mate -3 depth x", &mut r);
        assert_eq!(r.score, Some(Score::Mate(-3)));
        assert_eq!(r.depth, Some(12));
        parse_info("info string stats nmp tried 10 cut 4", &mut r);
        assert_eq!(r.stats.as_deref(), Some("stats nmp tried 10 cut 4"));
    }

    #[test]
    fn parses_option_declarations() {
        let o =
            parse_option_line("option name Skill Level type spin default 20 min 0 max 20").unwrap();
        assert_eq!(o.name, "Skill Level");
        assert_eq!(o.kind, "spin");
        assert_eq!(o.range, Some((0, 20)));
        assert!(parse_option_line("option garbage").is_none());
    }

    /// Values an engine would silently ignore are refused before the match starts.
    #[test]
    fn option_values_are_checked_against_the_declaration() {
        let elo = parse_option_line("option name UCI_Elo type spin default 1350 min 1350 max 2850")
            .unwrap();
        assert!(elo.check("1350").is_ok() && elo.check("2850").is_ok());
        for bad in ["1320", "2851", "strong", ""] {
            let e = format!("{:#}", elo.check(bad).unwrap_err());
            assert!(e.contains("from 1350 to 2850"), "{e}");
        }
        let limit =
            parse_option_line("option name UCI_LimitStrength type check default false").unwrap();
        assert_eq!(limit.range, None);
        assert!(limit.check("TRUE").is_ok() && limit.check("yes").is_err());
        let path = parse_option_line("option name EvalFile type string default <empty>").unwrap();
        assert!(path.check("anything at all").is_ok());
    }

    #[test]
    fn bad_engine_path_is_a_clear_error() {
        let spec = EngineSpec::new("ghost", "/nonexistent/dir/ghost-engine");
        let err = format!("{:#}", UciEngine::start(&spec).err().unwrap());
        assert!(err.contains("cannot start engine 'ghost'"), "{err}");
        assert!(err.contains("/nonexistent/dir/ghost-engine"), "{err}");
    }

    /// An engine whose output is not UTF-8 (a Latin-1 author) passes the handshake.
    #[test]
    fn output_that_is_not_utf8_is_read() {
        let dir = std::env::temp_dir().join(format!("augur-uci-latin1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("latin1-engine");
        std::fs::write(
            &path,
            "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
             uci) printf 'id name Latin\\nid author M\\374ller\\nuciok\\n';;\n\
             isready) echo readyok;;\nquit) exit 0;;\nesac; done\n",
        )
        .unwrap();
        // Run by `sh`, not executed itself: a file just written may still be open for writing
        // in a process that a test beside this one forked meanwhile ("text file busy").
        let mut spec = EngineSpec::new("latin", "/bin/sh");
        spec.args.push(path.to_str().unwrap().to_string());
        let engine = UciEngine::start(&spec);
        assert!(engine.is_ok(), "{:#}", engine.err().unwrap());
        drop(engine);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
