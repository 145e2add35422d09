//! The real `augur` binary driven line by line, for the tests that talk UCI to it.

#![allow(dead_code)] // each test file uses its own part of the harness

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// Long enough for any answer on a loaded machine; a hang fails the test instead of CI.
pub const LONG: Duration = Duration::from_secs(30);

pub struct Engine {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    /// Everything the engine writes, line by line.
    pub lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_augur"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start augur");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, cmd: &str) {
        self.send_bytes(cmd.as_bytes());
    }

    /// Lines up to and including the first one starting with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        self.until_within(prefix, LONG)
    }

    /// As `until`, failing if the line does not come within `timeout`.
    pub fn until_within(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no '{prefix}' within {timeout:?}; got {seen:#?}"),
            }
        }
    }

    /// Sends `isready` and returns everything up to `readyok`.
    pub fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok")
    }

    /// The move of the next `bestmove` line, and the lines up to it.
    pub fn bestmove(&mut self) -> (String, Vec<String>) {
        self.bestmove_within(LONG)
    }

    pub fn bestmove_within(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.until_within("bestmove", timeout);
        let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        (mv.to_string(), lines)
    }

    /// Closes stdin and waits (bounded) for the process to end.
    pub fn close_and_wait(&mut self) -> ExitStatus {
        drop(self.stdin.take());
        self.exit_within(LONG)
            .expect("engine still running after EOF")
    }

    /// The exit status, if the process ends within `timeout`.
    fn exit_within(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    /// `quit`, then a bounded wait: an engine that no longer reads its input (the failure a
    /// test may be catching) is killed, so that the test fails instead of hanging.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
        }
        if self.exit_within(LONG).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn has_error(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info string error: "))
}
