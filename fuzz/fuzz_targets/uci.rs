//! The UCI handler, in process, fed arbitrary command sequences: it must never panic,
//! answer every `isready`, and stay usable: `position startpos` + `go depth 1` afterwards
//! still gives a legal move.
//!
//! The engine prints to standard output, so file descriptor 1 is pointed at an unlinked
//! temporary file and read back after each input. Commands that only cost resources (a
//! 30 GB hash table, 256 threads, `go perft 9`, a million genfens positions, searches
//! deeper than 3 plies) are scaled down first: the hostile-input tests cover those through
//! the binary.
#![no_main]

use augur::position::Position;
use augur::uci::Engine;
use libfuzzer_sys::fuzz_target;
use std::fs::File;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::sync::OnceLock;

/// The file that receives standard output.
fn capture() -> &'static File {
    static OUT: OnceLock<File> = OnceLock::new();
    OUT.get_or_init(|| {
        let dir = if std::path::Path::new("/dev/shm").is_dir() {
            std::path::PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        let path = dir.join(format!("augur-fuzz-uci-{}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&path)
            .expect("capture file");
        let _ = std::fs::remove_file(&path);
        std::io::stdout().flush().unwrap();
        // SAFETY: both descriptors are open; fd 1 now refers to the capture file.
        assert!(unsafe { libc::dup2(file.as_raw_fd(), 1) } == 1);
        file
    })
}

fn output() -> String {
    std::io::stdout().flush().unwrap();
    let file = capture();
    let len = file.metadata().unwrap().len() as usize;
    let mut buf = vec![0; len];
    let n = file.read_at(&mut buf, 0).unwrap();
    buf.truncate(n);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Scales resource-hungry arguments down; the command itself is kept.
fn sanitize(line: &str) -> String {
    let lower = line.to_ascii_lowercase();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let first = tokens.first().copied().unwrap_or("");
    let cap = |limit: u64| {
        tokens
            .iter()
            .map(|t| match t.parse::<u64>() {
                Ok(n) if n > limit => limit.to_string(),
                _ => t.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    match first {
        "setoption" if lower.contains("threads") => cap(3),
        "setoption" if lower.contains("hash") => cap(32),
        "go" if tokens.contains(&"perft") => cap(3),
        // Every search is stopped right after its `go`; the limits only keep the work done
        // before the stop small (a textbook algorithm without a depth searches to 5).
        "go" => {
            let mut out: Vec<String> = Vec::new();
            for t in &tokens {
                let limit = match out.last().map(String::as_str) {
                    Some("depth") => 3,
                    Some("nodes") => 500,
                    _ => u64::MAX,
                };
                out.push(match t.parse::<u64>() {
                    Ok(n) if n > limit => limit.to_string(),
                    _ => t.to_string(),
                });
            }
            for (key, value) in [("depth", "3"), ("nodes", "500")] {
                if !tokens.contains(&key) {
                    out.extend([key.to_string(), value.to_string()]);
                }
            }
            out.join(" ")
        }
        "genfens" => tokens
            .iter()
            .enumerate()
            .map(|(i, t)| match (i, t.parse::<u64>()) {
                (1, Ok(n)) if n > 2 => "2".to_string(),
                _ if t.starts_with("nodes=") => "nodes=200".to_string(),
                _ => t.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" "),
        _ => line.to_string(),
    }
}

fuzz_target!(|data: &[u8]| {
    let file = capture();
    std::io::stdout().flush().unwrap();
    file.set_len(0).unwrap();

    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new();
    let mut asked = 0;
    for line in text.lines().take(40) {
        let line = sanitize(line);
        let isready = line.split_whitespace().next() == Some("isready");
        if !engine.handle(&line) {
            break;
        }
        asked += usize::from(isready);
        if engine.is_searching() {
            engine.handle("stop");
        }
    }
    let answered = output().lines().filter(|l| *l == "readyok").count();
    assert_eq!(answered, asked, "isready not answered");

    // Still usable: a legal move from the start position.
    engine.handle("position startpos");
    engine.handle("go depth 1");
    engine.handle("position startpos"); // waits for the search to end
    let out = output();
    let best = out
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("no bestmove after go depth 1");
    let mv = best.split_whitespace().next().unwrap_or("");
    let start = Position::startpos();
    assert!(
        start.legal_moves().iter().any(|&m| start.uci(m) == mv),
        "bestmove '{mv}' is not legal at the start"
    );
});
