//! What a careless GUI, a script or a user at a terminal may send, through the real binary:
//! every case must be answered (an error line, then `readyok` or a `bestmove`) or end in a
//! clean exit, never a silent death or a hang.

mod common;

use common::{has_error, Engine};
use std::io::Write;
use std::time::Duration;

/// The moves legal in `fen`, as the engine itself lists them (`go perft 1`).
fn legal_moves(e: &mut Engine, position: &str) -> Vec<String> {
    e.send(position);
    e.send("go perft 1");
    e.until("Nodes searched")
        .iter()
        .filter_map(|l| l.split_once(": ").map(|(m, _)| m.to_string()))
        .filter(|m| m != "Nodes searched")
        .collect()
}

/// After whatever came before, the engine still plays a legal move from the start position.
fn still_plays(e: &mut Engine) {
    let legal = legal_moves(e, "position startpos");
    assert_eq!(legal.len(), 20);
    e.send("go depth 1");
    let (mv, lines) = e.bestmove();
    assert!(legal.contains(&mv), "{mv} {lines:?}");
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_engine_goes_on() {
    let mut e = Engine::start();
    // A Latin-1 file name, as a Windows GUI may send it.
    e.send_bytes(b"setoption name ProbCutParams value C:\\\xe9t\xe9\\params.toml");
    let lines = e.ready();
    assert!(
        lines.iter().any(|l| l.contains("not valid UTF-8")),
        "{lines:?}"
    );
    e.send_bytes(b"\xff\xfe\x00garbage");
    e.send_bytes(b"isready\xc3");
    let lines = e.ready();
    assert_eq!(lines.iter().filter(|l| l.contains("UTF-8")).count(), 2);
    still_plays(&mut e);
    e.send("quit");
    assert!(e.close_and_wait().success());
}

#[test]
fn megabyte_lines_are_answered_briefly_and_overlong_ones_dropped() {
    let mut e = Engine::start();
    let garbage = "x".repeat(1 << 20);
    e.send(&garbage);
    let lines = e.ready();
    assert!(has_error(&lines), "no error");
    // The error quotes the command, but not a megabyte of it.
    assert!(lines.iter().all(|l| l.len() < 1000), "echoed the line");
    // A megabyte of legal moves: knights out and back, 50,000 times each side.
    let moves = "g1f3 g8f6 f3g1 f6g8 ".repeat((1 << 20) / 20);
    e.send(&format!("position startpos moves {moves}"));
    assert!(!has_error(&e.ready()));
    e.send("go depth 4");
    let (mv, _) = e.bestmove();
    assert_ne!(mv, "0000");
    // A line longer than the reader keeps (16 MiB) is skipped whole with one error.
    let mut huge = b"position startpos moves ".to_vec();
    huge.extend(std::iter::repeat_n(b"e2e4 ".as_slice(), (17 << 20) / 5).flatten());
    e.send_bytes(&huge);
    let lines = e.ready();
    assert!(
        lines.iter().any(|l| l.contains("longer than 16 MiB")),
        "{lines:?}"
    );
    still_plays(&mut e);
}

#[test]
fn fens_with_unusual_move_counters_are_accepted() {
    let mut e = Engine::start();
    // 120 plies without a capture (no claim yet; FIDE's automatic draw is at 150) and a
    // move counter from 0: a GUI sends both, and refusing them would leave the engine
    // searching the previous position.
    for (fen, shown) in [
        (
            "4k3/8/8/8/8/8/1R6/4K3 w - - 120 90",
            "4k3/8/8/8/8/8/1R6/4K3 w - - 100 90",
        ),
        (
            "4k3/8/8/8/8/8/1R6/4K3 b - - 3 0",
            "4k3/8/8/8/8/8/1R6/4K3 b - - 3 1",
        ),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("d");
        let lines = e.until("fen");
        assert!(!has_error(&lines), "{fen}: {lines:?}");
        assert_eq!(lines.last().unwrap(), &format!("fen {shown}"));
    }
}

#[test]
fn a_game_of_ten_thousand_moves_is_searched() {
    let mut e = Engine::start();
    let moves = "b1c3 b8c6 c3b1 c6b8 ".repeat(2500);
    e.send(&format!("position startpos moves {moves}"));
    e.send("d");
    let lines = e.until("fen");
    assert!(!has_error(&lines), "{lines:?}");
    assert!(
        lines.last().unwrap().ends_with(" w KQkq - 100 5001"),
        "{lines:?}"
    );
    for go in ["go depth 6", "go wtime 1000 btime 1000", "go nodes 3000"] {
        e.send(go);
        let (mv, lines) = e.bestmove();
        assert_ne!(mv, "0000", "{go}: {lines:?}");
    }
}

#[test]
fn extreme_go_limits_end_with_a_legal_move() {
    let mut e = Engine::start();
    let legal = legal_moves(&mut e, "position startpos moves e2e4");
    // Each of these must end by itself (no `stop` is sent).
    for go in [
        "go nodes 0",
        "go movetime 0",
        "go depth 0",
        "go depth -7",
        "go wtime 0 btime 0",
        "go wtime -100 btime -100",
        "go wtime -100 btime -100 winc -10 binc -10",
        "go wtime 100 btime 100 movestogo 0",
        "go wtime 100 btime 100 movestogo -1",
        // The side to move (Black) has no clock, or no clock is given at all.
        "go wtime 100",
        "go winc 100 binc 100",
        "go movestogo 10",
        "go wtime",
        "go mate 0",
        "go mate -2",
        "go wtime 99999999999999999999",
        "go depth 2 searchmoves a1a1",
    ] {
        e.send(go);
        let (mv, lines) = e.bestmove();
        assert!(legal.contains(&mv), "{go}: {mv} {lines:?}");
    }
    // `searchmoves` restricts the root even when other listed moves are junk.
    e.send("go depth 3 searchmoves a1a1 h7h5");
    assert_eq!(e.bestmove().0, "h7h5");
}

#[test]
fn huge_depth_runs_until_stopped_and_answers_meanwhile() {
    let mut e = Engine::start();
    for algorithm in ["engine", "alphabeta"] {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        e.send("position startpos");
        e.send("go depth 100000");
        std::thread::sleep(Duration::from_millis(200));
        let lines = e.ready();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
        e.send("stop");
        let (mv, _) = e.bestmove();
        assert_ne!(mv, "0000", "{algorithm}");
    }
}

/// Parses the `uci` option declarations: (name, type).
/// Every option `uci` declares: its name, its type and the rest of its line.
fn declared(e: &mut Engine) -> Vec<(String, String, String)> {
    e.send("uci");
    e.until("uciok")
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|rest| {
            let (name, ty) = rest.split_once(" type ").unwrap();
            let (ty, rest) = ty.split_once(' ').unwrap_or((ty, ""));
            (name.to_string(), ty.to_string(), rest.to_string())
        })
        .collect()
}

fn declared_options(e: &mut Engine) -> Vec<(String, String)> {
    declared(e).into_iter().map(|(n, t, _)| (n, t)).collect()
}

fn stats_after(e: &mut Engine, go: &str) -> String {
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send(go);
    let (_, lines) = e.bestmove();
    lines
        .into_iter()
        .find(|l| l.starts_with("info string stats"))
        .unwrap()
}

#[test]
fn junk_for_every_option_is_refused_and_changes_nothing() {
    let mut fresh = Engine::start();
    let options = declared_options(&mut fresh);
    assert!(options.len() > 40, "{options:?}");
    let want = stats_after(&mut fresh, "go nodes 20000");

    let mut e = Engine::start();
    for (name, ty) in &options {
        let junk: &[&str] = match ty.as_str() {
            "spin" => &[
                "junk",
                "",
                "1.5",
                "0x10",
                "-99999999999999999999",
                "99999999999999999999",
                "-2147483649",
                "33554433",
            ],
            "check" => &["junk", "", "1", "yes", "truefalse"],
            "combo" => &["junk", "", "defaultx"],
            // A path that does not exist (ProbCutParams), and one that is a directory.
            "string" => &["/nonexistent/augur/params.toml", "/"],
            "button" => &[],
            other => panic!("unexpected option type {other}"),
        };
        for value in junk {
            e.send(&format!("setoption name {name} value {value}"));
            let lines = e.ready();
            assert!(has_error(&lines), "{name} = '{value}': {lines:?}");
        }
        if ty != "button" && ty != "string" {
            e.send(&format!("setoption name {name}"));
            assert!(has_error(&e.ready()), "{name} without a value");
        }
    }
    // Every refusal kept the old value: the same search as a fresh engine's.
    assert_eq!(stats_after(&mut e, "go nodes 20000"), want);
}

#[test]
fn hash_and_threads_beyond_the_machine_keep_the_old_value() {
    let mut e = Engine::start();
    let options = declared_options(&mut e);
    for name in ["Hash", "Threads"] {
        assert!(
            options.iter().any(|(n, _)| n == name),
            "{name} not declared"
        );
    }
    e.send("setoption name Hash value 64");
    assert!(!has_error(&e.ready()));
    // 32 TiB is within the declared range but beyond any machine this runs on.
    e.send("setoption name Hash value 33554432");
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: Hash:") && l.ends_with("keeping 64 MiB")),
        "{lines:?}"
    );
    e.send("setoption name Threads value 257");
    assert!(has_error(&e.ready()));
    e.send("setoption name Threads value 2");
    assert!(!has_error(&e.ready()));
    e.send("go depth 6");
    let (mv, lines) = e.bestmove();
    assert_ne!(mv, "0000", "{lines:?}");
}

#[test]
fn closed_stdin_ends_the_engine_cleanly() {
    // Nothing at all.
    let mut e = Engine::start();
    assert!(e.close_and_wait().success());
    // A search with a limit still answers before the exit.
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 5");
    let status = e.close_and_wait();
    assert!(status.success(), "{status:?}");
    assert!(e.lines.iter().any(|l| l.starts_with("bestmove")));
    // An infinite search is stopped; its move is still printed.
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let status = e.close_and_wait();
    assert!(status.success(), "{status:?}");
    assert!(e.lines.iter().any(|l| l.starts_with("bestmove")));
    // A line without its newline before the end is still a command.
    let mut e = Engine::start();
    e.stdin.as_mut().unwrap().write_all(b"go depth 2").unwrap();
    let status = e.close_and_wait();
    assert!(status.success(), "{status:?}");
    assert!(e.lines.iter().any(|l| l.starts_with("bestmove")));
}

/// A file option pointed at a device or a directory: refused at once, not read forever.
#[cfg(unix)]
#[test]
fn device_files_are_refused_not_read() {
    let mut e = Engine::start();
    for path in ["/dev/zero", "/dev/stdin", "/"] {
        e.send(&format!("setoption name ProbCutParams value {path}"));
        let lines = e.ready();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: ProbCutParams")),
            "{path}: {lines:?}"
        );
        e.send(&format!("genfens 1 seed 1 book {path}"));
        let lines = e.ready();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: genfens: cannot read book")),
            "{path}: {lines:?}"
        );
    }
    still_plays(&mut e);
}

/// Every spin option the engine declares, with its default, minimum and maximum as `uci`
/// states them.
fn declared_spins(e: &mut Engine) -> Vec<(String, i64, i64, i64)> {
    declared(e)
        .into_iter()
        .filter(|(_, ty, _)| ty == "spin")
        .map(|(name, _, rest)| {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let value = |key: &str| -> i64 {
                let i = words.iter().position(|w| *w == key).unwrap();
                words[i + 1].parse().unwrap()
            };
            (name, value("default"), value("min"), value("max"))
        })
        .collect()
}

/// Any value inside a declared range is what a GUI, OpenBench's SPSA or `augur-lab spsa` may
/// send: with every technique switched on, each spin at its minimum and at its maximum (one at
/// a time, then all at their minimums and all at their maximums), the engine answers `go
/// depth` from a middle game, an endgame and a position in check with a legal move and stays
/// alive. `LmrMinDepth 1` aborted the process at `go depth 1` before (issue 29).
#[test]
fn every_spin_at_its_declared_extremes_still_plays() {
    const POSITIONS: [&str; 3] = [
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "position fen 8/8/4k3/8/3K4/3P4/8/8 w - - 0 1",
        "position fen rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 3",
    ];
    let mut e = Engine::start();
    let legal: Vec<Vec<String>> = POSITIONS.iter().map(|p| legal_moves(&mut e, p)).collect();
    // The machine's resources and the report are not the search's: a huge hash or many
    // threads are refused or slow (hash_and_threads_beyond_the_machine_keep_the_old_value),
    // MultiPV 256 only lists more lines.
    let spins: Vec<_> = declared_spins(&mut e)
        .into_iter()
        .filter(|(name, ..)| !matches!(name.as_str(), "Hash" | "Threads" | "MultiPV"))
        .collect();
    assert!(spins.len() > 60, "{spins:?}");
    for (name, ty) in declared_options(&mut e) {
        if ty == "check" && name != "Ponder" && !name.starts_with("UCI_") {
            e.send(&format!("setoption name {name} value true"));
        }
    }
    let play = |e: &mut Engine, what: &str| {
        for (position, legal) in POSITIONS.iter().zip(&legal) {
            for depth in [1, 5] {
                e.send(position);
                e.send(&format!("go depth {depth}"));
                let (mv, lines) = e.bestmove();
                assert!(legal.contains(&mv), "{what}, {position}: {mv} {lines:?}");
                assert!(!has_error(&lines), "{what}: {lines:?}");
            }
        }
    };
    let set = |e: &mut Engine, name: &str, value: i64| {
        e.send(&format!("setoption name {name} value {value}"));
        let lines = e.ready();
        assert!(!has_error(&lines), "{name} = {value}: {lines:?}");
    };
    for (name, default, min, max) in &spins {
        for v in [*min, *max] {
            set(&mut e, name, v);
            play(&mut e, &format!("{name} = {v}"));
        }
        set(&mut e, name, *default);
    }
    for (which, pick) in [("minimum", 0), ("maximum", 1)] {
        for (name, _, min, max) in &spins {
            set(&mut e, name, [*min, *max][pick]);
        }
        play(&mut e, &format!("every spin at its {which}"));
    }
    still_plays(&mut e);
    e.send("quit");
    assert!(e.close_and_wait().success());
}

/// `go perft` at a depth that would count for hours answers `isready` while it runs, ends on
/// `stop` with a line saying the count is incomplete, and `quit` during one exits at once.
#[test]
fn a_long_perft_is_stopped_by_stop_and_by_quit() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 12");
    e.ready();
    e.send("stop");
    let lines = e.until("info string perft stopped");
    assert!(
        !lines.iter().any(|l| l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    still_plays(&mut e);
    e.send("go perft 12");
    e.send("quit");
    assert!(e.close_and_wait().success());
}

/// A search with a limit that would take hours, then `position` without a `stop`: the engine
/// still answers `isready`, a `stop` then ends the search (its `bestmove` goes out) and the
/// `position` is handled after it; `quit` while a command waits exits at once.
#[test]
fn a_command_that_waits_for_a_long_search_leaves_stop_isready_and_quit_served() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 120");
    e.send("position startpos moves e2e4");
    e.send("isready");
    let lines = e.until_within("readyok", Duration::from_secs(10));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    e.bestmove_within(Duration::from_secs(10));
    e.send("d");
    let lines = e.until("fen");
    assert!(lines.last().unwrap().contains(" b KQkq"), "{lines:?}");
    // A stop read while a `go` waits is that new search's, not the old one's; `quit` still
    // ends everything at once.
    e.send("go depth 120");
    e.send("go infinite");
    e.send("stop");
    e.send("quit");
    assert!(e.close_and_wait().success());
}

/// During a long search, a `setoption` or `position` that would be refused anyway is answered
/// at once, before a later `readyok`, without waiting for the search (which runs on); a valid
/// one waits for it as before.
#[test]
fn a_refused_command_during_a_search_is_answered_at_once() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 120");
    for bad in [
        "setoption name Hash value many",
        "setoption name UCI_Elo value 1",
        "setoption name NoSuchOption value 1",
        "setoption Hash",
        "position fen 8/8/8 w - - 0 1",
        "position startpos moves e2e5",
    ] {
        e.send(bad);
        let lines = e.ready();
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "{bad}: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{bad} waited for the search: {lines:?}"
        );
    }
    e.send("stop");
    e.bestmove();
    e.send("d");
    let lines = e.until("fen");
    assert!(lines.last().unwrap().contains(" w KQkq - 0 1"), "{lines:?}");
    still_plays(&mut e);
}

/// A refused `setoption` sent the moment `bestmove` arrives, then `isready`: the error comes
/// before `readyok` every time, though the search thread may still be ending (a `readyok`
/// served during that wait once overtook the error). Many rounds, to meet the window.
#[test]
fn a_refusal_right_after_bestmove_comes_before_readyok() {
    let mut e = Engine::start();
    for round in 0..1000 {
        e.send("position startpos");
        e.send("go depth 1");
        e.bestmove();
        e.send("setoption name Hash value many");
        let lines = e.ready();
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "round {round}: {lines:?}"
        );
    }
    still_plays(&mut e);
}

/// `genfens` typed at the engine answers `isready` while it works and ends on `stop`; a check
/// search beyond the node cap is refused up front.
#[test]
fn genfens_on_the_input_is_stopped_by_stop() {
    let mut e = Engine::start();
    e.send("genfens 100000000 seed 1 book None");
    e.until("info string genfens ");
    e.ready();
    e.send("stop");
    let lines = e.until("info string error: genfens: stopped after");
    assert!(lines.len() < 1000, "{}", lines.len());
    e.send("genfens 1 seed 1 book None nodes=100000000000");
    let lines = e.until("info string error");
    assert!(lines.last().unwrap().contains("is more than"), "{lines:?}");
    still_plays(&mut e);
}
