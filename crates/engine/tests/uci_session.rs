//! Scripted UCI sessions through the real `augur` binary.

mod common;

use common::Engine as Session;
use std::time::{Duration, Instant};

#[test]
fn handshake_lists_options() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until("uciok");
    assert!(lines[0].starts_with("id name Augur"));
    for opt in [
        "Hash",
        "Clear Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "UCI_Chess960",
        "Nmp",
        "Eval",
        "Algorithm",
        "SppMpd",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} type"))),
            "{opt} missing"
        );
    }
    s.send("isready");
    s.until("readyok");
}

#[test]
fn malformed_input_is_reported_and_state_is_kept() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    for bad in [
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "position startpos moves e2e4 e2e4",
        "position sideways",
        "setoption name Hash value -5",
        "setoption name Hash value 33554432",
        "setoption name NoSuchOption value 1",
        "setoption name Nmp value perhaps",
        "setoption",
        "fly to the moon",
    ] {
        s.send(bad);
        s.send("isready");
        let lines = s.until("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "no error for '{bad}': {lines:?}"
        );
    }
    // The position is still the one after 1.e4: Black to move, so e7e5 is legal.
    s.send("position startpos moves e2e4 e7e5");
    s.send("d");
    let lines = s.until("fen");
    assert!(lines.last().unwrap().contains(" w KQkq "), "{lines:?}");
    s.send("go depth x");
    let (mv, lines) = s.bestmove();
    assert!(lines.iter().any(|l| l.contains("error")));
    assert_ne!(mv, "0000");
}

/// A moment after `go`, the search still runs: `isready` is answered and no `bestmove` came.
fn assert_still_searching(s: &mut Session, go: &str) {
    std::thread::sleep(Duration::from_millis(300));
    s.send("isready");
    let lines = s.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "'{go}' stopped by itself: {lines:?}"
    );
}

#[test]
fn stop_ends_infinite_and_isready_answers_while_searching() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    assert_still_searching(&mut s, "go infinite");
    s.send("stop");
    let (mv, _) = s.bestmove_within(Duration::from_secs(5));
    assert!(mv.len() >= 4);
}

/// A `go` that bounds nothing (a bare `go`, `go searchmoves`, `go mate` where there is no mate)
/// runs until stopped; a command that needs the search finished stops it and gets its answer,
/// rather than waiting on it forever (the engine would then read no more input, not even
/// `quit`).
#[test]
fn a_command_after_an_unbounded_go_stops_it() {
    let mut s = Session::start();
    for (go, next) in [
        ("go", "position startpos moves d2d4"),
        ("go searchmoves a1a1", "go infinite"),
        ("go mate 1", "setoption name Hash value 8"),
        ("go searchmoves e2e4", "ucinewgame"),
    ] {
        s.send("position startpos");
        s.send(go);
        assert_still_searching(&mut s, go);
        s.send(next);
        let (mv, _) = s.bestmove_within(Duration::from_secs(5));
        assert!(mv.len() >= 4, "'{go}' then '{next}': {mv}");
        s.send("stop");
        s.send("isready");
        s.until_within("readyok", Duration::from_secs(5));
    }
    // A bounded search is still allowed to finish: its answer is the full depth's.
    s.send("position startpos");
    s.send("go depth 7");
    s.send("position startpos moves e2e4");
    let (_, lines) = s.bestmove_within(Duration::from_secs(30));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 7 ")),
        "{lines:?}"
    );
}

#[test]
fn ponder_then_ponderhit() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    s.send("go ponder wtime 2000 btime 2000");
    assert_still_searching(&mut s, "go ponder");
    s.send("ponderhit");
    let (mv, _) = s.bestmove_within(Duration::from_secs(5));
    assert!(mv.len() >= 4);
}

#[test]
fn tiny_clocks_are_answered_in_time() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4 e7e5 g1f3");
    s.send("isready");
    s.until("readyok");
    // The engine has 40 ms on its clock: the time its own `info` lines report stays inside
    // it in most of five moves (the median: a loaded machine may stall the search thread once
    // or twice, which no time plan can help). The wall clock also counts the pipes and threads
    // between this test and the engine, so it only catches a hang.
    let mut reported = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        s.send("go wtime 40 btime 40 winc 0 binc 0");
        let (mv, lines) = s.bestmove();
        assert_ne!(mv, "0000");
        let ms = lines
            .iter()
            .filter_map(|l| {
                let mut words = l.split_whitespace();
                words.find(|w| *w == "time")?;
                words.next()?.parse::<u64>().ok()
            })
            .max();
        reported.push(ms.unwrap_or_else(|| panic!("no time reported: {lines:?}")));
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "took {:?}",
            t.elapsed()
        );
    }
    reported.sort_unstable();
    assert!(reported[2] < 40, "reported times {reported:?} ms");
}

#[test]
fn mate_stalemate_and_single_move_positions() {
    let mut s = Session::start();
    // Checkmated: no legal move.
    s.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    s.send("go depth 3");
    assert_eq!(s.bestmove().0, "0000");
    // Stalemate.
    s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    s.send("go movetime 100");
    assert_eq!(s.bestmove().0, "0000");
    // One legal move.
    s.send("position fen k7/2K5/8/8/8/8/8/1R6 b - - 0 1");
    s.send("go wtime 1000 btime 1000");
    assert_eq!(s.bestmove().0, "a8a7");
    // Mate in 2: score mate 2 reported.
    s.send("position fen 6k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1");
    s.send("go depth 8");
    let (_, lines) = s.bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("score mate 1") || l.contains("score mate 2")),
        "{lines:?}"
    );
}

#[test]
fn repeated_node_limited_searches_after_ucinewgame_are_identical() {
    let mut s = Session::start();
    let mut runs = Vec::new();
    for _ in 0..2 {
        s.send("ucinewgame");
        s.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        s.send("go nodes 50000");
        let (mv, lines) = s.bestmove();
        let stats = lines
            .iter()
            .find(|l| l.starts_with("info string stats"))
            .cloned()
            .unwrap();
        runs.push((mv, stats));
    }
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].1.contains("nodes=50000 "), "{}", runs[0].1);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut s = Session::start();
    s.send("setoption name UCI_Chess960 value true");
    s.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    s.send("go perft 1");
    let lines = s.until("Nodes searched");
    assert!(lines.last().unwrap().ends_with(" 21"), "{lines:?}");
    s.send("setoption name UCI_Chess960 value false");
    s.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1");
    s.send("d");
    let lines = s.until("fen");
    assert!(lines.last().unwrap().contains("R4RK1 b kq"), "{lines:?}");
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut s = Session::start();
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    s.send("go depth 6");
    let (_, lines) = s.bestmove();
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 6 "))
        .collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let firsts: std::collections::HashSet<&str> = last
        .iter()
        .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn a_bad_probcut_parameter_file_keeps_the_previous_parameters() {
    let dir = std::env::temp_dir().join(format!("augur-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.toml");
    std::fs::write(
        &good,
        "[[pair]]\nstage = \"middlegame\"\nshallow = 2\ndeep = 4\na = 1.0\nb = 0\nsigma = 50\n",
    )
    .unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[[pair]]\nstage = \"middlegame\"\nshallow = two\n").unwrap();
    let mut s = Session::start();
    s.send(&format!(
        "setoption name ProbCutParams value {}",
        good.display()
    ));
    s.send("isready");
    let lines = s.until("readyok");
    assert!(
        lines.iter().any(|l| l.contains("1 depth pairs")),
        "{lines:?}"
    );
    s.send(&format!(
        "setoption name ProbCutParams value {}",
        bad.display()
    ));
    s.send("isready");
    let lines = s.until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: ProbCutParams")
                && l.contains("previous value kept")),
        "{lines:?}"
    );
    // The good file's (2,4) pair is still the one in force: MPC uses it at height 4.
    s.send("setoption name Mpc value true");
    s.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    s.send("go depth 8");
    let (_, lines) = s.bestmove();
    let stats = lines
        .iter()
        .find(|l| l.starts_with("info string stats"))
        .unwrap();
    assert!(stats.contains("pc_mid_2_4="), "{stats}");
}

#[test]
fn go_mate_stops_at_the_mate_and_movetime_is_kept() {
    let mut s = Session::start();
    s.send("position fen 6k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1");
    s.send("go mate 2");
    let (mv, lines) = s.bestmove();
    assert_eq!(mv, "b2b8", "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("score mate ")), "{lines:?}");
    s.send("position startpos");
    let t = Instant::now();
    s.send("go movetime 300");
    s.bestmove();
    let took = t.elapsed();
    // The whole movetime (less the 30 ms move overhead) is used, and not much more.
    assert!(
        took >= Duration::from_millis(260) && took < Duration::from_secs(10),
        "{took:?}"
    );
}

#[test]
fn several_threads_search_and_stop_together() {
    let mut s = Session::start();
    s.send("setoption name Threads value 3");
    s.send("position startpos moves d2d4");
    s.send("go depth 9");
    let (mv, lines) = s.bestmove();
    assert_ne!(mv, "0000");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 9 ")),
        "{lines:?}"
    );
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    s.send("stop");
    s.bestmove_within(Duration::from_secs(5));
    s.send("setoption name Threads value 1");
    s.send("go depth 4");
    s.bestmove();
}

/// Random sequences of UCI words (a seeded generator, so failures reproduce): the engine must
/// answer `isready` after each and exit cleanly on `quit`, whatever it was sent.
#[test]
fn random_garbage_never_kills_the_engine() {
    const WORDS: &[&str] = &[
        "uci",
        "isready",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "winc",
        "movestogo",
        "infinite",
        "ponder",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "MultiPV",
        "Eval",
        "classic",
        "Algorithm",
        "spp",
        "mtdf",
        "searchmoves",
        "e2e4",
        "e7e5",
        "e1g1",
        "a7a8q",
        "0",
        "-1",
        "99999999999999999999",
        "2",
        "x",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "w",
        "b",
        "KQkq",
        "-",
        "8/8/8/8/8/8/8/8",
        "ucinewgame",
        "UCI_Chess960",
        "true",
        "ProbCutParams",
        "/",
        "Mpc",
        "mate",
        "ponderhit",
        "stop",
        "\u{1F600}",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut s = Session::start();
    for _ in 0..300 {
        let len = next(7);
        let mut line: Vec<&str> = (0..len).map(|_| WORDS[next(WORDS.len())]).collect();
        if line.first() == Some(&"go") && next(2) == 0 {
            // Half the searches short; the others as drawn, often bounding nothing: such a
            // search runs until `stop` or the next command that needs it finished.
            line.truncate(1);
            line.extend(["depth", "2"]);
        }
        if line.first() == Some(&"quit") {
            continue;
        }
        s.send(&line.join(" "));
        if next(2) == 0 {
            s.send("stop");
        }
        s.send("isready");
        s.until("readyok");
    }
    s.send("quit");
    let status = s.close_and_wait();
    assert!(status.success(), "{status:?}");
}

/// [nnue] `EvalFile` loads another network; a truncated or foreign file is refused with the
/// reason and the network in force stays; `<default>` returns to the compiled-in one.
#[test]
fn eval_file_loads_a_network_and_a_bad_file_keeps_the_previous_one() {
    use augur::eval::nnue::{Activation, Network, Quantisation, INPUTS};
    let dir = std::env::temp_dir().join(format!("augur-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Zero weights and an output bias of 4080 / (255 · 64) · 400 = 100 cp everywhere.
    let flat = Network::from_parts(
        Activation::SCReLU,
        Quantisation::STANDARD,
        vec![0; INPUTS * 16],
        vec![0; 16],
        vec![0; 32],
        vec![4080],
    )
    .unwrap();
    let good = dir.join("flat.nnue");
    std::fs::write(&good, flat.to_bytes()).unwrap();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &flat.to_bytes()[..1000]).unwrap();
    let foreign = dir.join("foreign.nnue");
    std::fs::write(&foreign, b"not a network at all, just some text").unwrap();

    let mut s = Session::start();
    s.send("setoption name Eval value nnue");
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    s.send("position startpos moves e2e4");
    s.send("eval");
    let lines = s.until("info string eval");
    assert!(
        lines.iter().any(|l| l.contains("EvalFile: 768x16x2->1")),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().unwrap(),
        "info string eval nnue 100 (side to move)"
    );
    for (bad, why) in [(&truncated, "truncated"), (&foreign, "bad magic")] {
        s.send(&format!("setoption name EvalFile value {}", bad.display()));
        s.send("eval");
        let lines = s.until("info string eval");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: EvalFile")
                    && l.contains(why)
                    && l.contains("previous value kept")),
            "{lines:?}"
        );
        assert_eq!(
            lines.last().unwrap(),
            "info string eval nnue 100 (side to move)"
        );
    }
    // The search uses the loaded network too: every position is worth 100.
    s.send("go depth 3");
    let (_, lines) = s.bestmove();
    assert!(
        lines.iter().any(|l| l.contains("score cp 100")),
        "{lines:?}"
    );
    s.send("setoption name EvalFile value <default>");
    s.send("eval");
    let lines = s.until("info string eval");
    assert_ne!(
        lines.last().unwrap(),
        "info string eval nnue 100 (side to move)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `UCI_ShowWDL`: every `info` line with a score carries `wdl W D L` summing to 1000, the
/// side to move's chances; a won position leans to W; off, no line has it.
#[test]
fn show_wdl_prints_per_mille_that_sum_to_a_thousand() {
    let wdl_of = |line: &str| -> Option<(u32, u32, u32)> {
        let t: Vec<&str> = line.split_whitespace().collect();
        let i = t.iter().position(|&w| w == "wdl")?;
        let n = |k: usize| t[i + k].parse::<u32>().unwrap();
        Some((n(1), n(2), n(3)))
    };
    let mut s = Session::start();
    s.send("setoption name UCI_ShowWDL value true");
    s.send("position fen 8/8/8/4k3/8/8/3QK3/8 w - - 0 1");
    s.send("go depth 5");
    let lines = s.until("bestmove");
    let scored: Vec<_> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty());
    for l in &scored {
        let (w, d, lo) = wdl_of(l).unwrap_or_else(|| panic!("no wdl in {l}"));
        assert_eq!(w + d + lo, 1000, "{l}");
        assert!(w > 900, "a queen up should be a win: {l}");
    }
    s.send("setoption name UCI_ShowWDL value false");
    s.send("go depth 3");
    let lines = s.until("bestmove");
    assert!(lines.iter().all(|l| wdl_of(l).is_none()));
}

/// [kingsafety] `KingSafety` scales the hand-written evaluation's king-safety terms: in a king
/// attack 125 evaluates further from 0 than 100, and 100 is the tuned evaluation (the default);
/// a value outside 0..200 or not a number is refused and the one in force stays.
#[test]
fn king_safety_scales_the_hce_and_bad_values_are_refused() {
    let mut s = Session::start();
    s.send("setoption name Eval value hce");
    s.send("position fen r4rk1/ppp2p2/2n4Q/3pN3/3P4/5R2/PPP2PPP/6K1 w - - 0 1");
    let eval = |s: &mut Session| -> i32 {
        s.send("eval");
        let lines = s.until("info string eval");
        let last = lines.last().unwrap();
        last.strip_prefix("info string eval hce ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{lines:?}"))
    };
    let tuned = eval(&mut s);
    s.send("setoption name KingSafety value 125");
    let more = eval(&mut s);
    s.send("setoption name KingSafety value 0");
    let none = eval(&mut s);
    s.send("setoption name KingSafety value 100");
    assert_eq!(eval(&mut s), tuned);
    assert!(none < tuned && tuned < more, "{none} {tuned} {more}");
    for bad in ["-1", "201", "lots"] {
        s.send(&format!("setoption name KingSafety value {bad}"));
        s.send("isready");
        let lines = s.until("readyok");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: KingSafety")),
            "no error for {bad}: {lines:?}"
        );
        assert_eq!(eval(&mut s), tuned, "{bad} changed the value in force");
    }
}

/// [strength] A GUI's weak mode (its range 1435..=2229 is the calibrated table's): a move at the lowest Elo whatever the seed, the same move again
/// after `ucinewgame` with a fixed seed, and bad values refused with the previous value kept.
#[test]
fn limit_strength_plays_reproducibly_with_a_seed_and_refuses_bad_values() {
    let mut s = Session::start();
    for cmd in [
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1435",
        "setoption name StrengthSeed value 17",
    ] {
        s.send(cmd);
    }
    let mut moves = Vec::new();
    for _ in 0..2 {
        s.send("ucinewgame");
        s.send("position startpos moves e2e4 e7e5 g1f3");
        s.send("go wtime 600000 btime 600000");
        let (mv, lines) = s.bestmove();
        assert!(lines.iter().any(|l| l.contains(" multipv 4 ")), "{lines:?}");
        moves.push(mv);
    }
    assert_eq!(moves[0], moves[1]);
    for bad in [
        "setoption name UCI_Elo value 1434",
        "setoption name UCI_Elo value 2230",
        "setoption name UCI_Elo value strong",
        "setoption name UCI_LimitStrength value sometimes",
    ] {
        s.send(bad);
        s.send("isready");
        let lines = s.until("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "no error for '{bad}': {lines:?}"
        );
    }
    // Still the weak mode at 1435 with seed 17.
    s.send("ucinewgame");
    s.send("position startpos moves e2e4 e7e5 g1f3");
    s.send("go wtime 600000 btime 600000");
    assert_eq!(s.bestmove().0, moves[0]);
}
