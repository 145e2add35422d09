//! OpenBench's `genfens` contract, through the real binary: the engine is started as
//! `augur "genfens N seed S book <file|None> [extra]" quit` and must print N lines
//! `info string genfens <FEN>` (full six-field FENs), the same ones for the same seed.

use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::SearchTeam;
use std::collections::HashSet;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs augur with `args` and `stdin`; returns (FENs printed, other output lines, success).
/// OpenBench's client reads stdout and stderr merged (`stderr=STDOUT`) and takes every line
/// starting `info string genfens ` as a FEN, so stderr counts as output here too.
fn genfens(args: &[&str], stdin: &str) -> (Vec<String>, Vec<String>, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_augur"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start augur");
    let mut input = child.stdin.take().unwrap();
    // The engine may have exited already (a `quit` argument): a closed pipe is fine.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let out = child.wait_with_output().unwrap();
    let mut text = String::from_utf8(out.stdout).unwrap();
    text.push_str(&String::from_utf8(out.stderr).unwrap());
    let (fens, other): (Vec<&str>, Vec<&str>) = text
        .lines()
        .partition(|l| l.starts_with("info string genfens "));
    let fens = fens
        .iter()
        .map(|l| l["info string genfens ".len()..].to_string())
        .collect();
    (
        fens,
        other.into_iter().map(String::from).collect(),
        out.status.success(),
    )
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("augur-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn openbench_form_gives_n_playable_distinct_positions_per_seed() {
    let (fens, other, ok) = genfens(&["genfens 24 seed 7 book None ", "quit"], "");
    assert!(ok);
    assert_eq!(fens.len(), 24, "{other:?}");
    assert!(other.is_empty(), "{other:?}");
    let distinct: HashSet<&String> = fens.iter().collect();
    assert_eq!(distinct.len(), 24, "duplicates: {fens:#?}");
    let mut sides = HashSet::new();
    for fen in &fens {
        // OpenBench turns the last two fields into `hmvc`/`fmvn`: all six must be there.
        let fields: Vec<&str> = fen.split(' ').collect();
        assert_eq!(fields.len(), 6, "{fen}");
        assert!(fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok());
        let pos = Position::from_fen(fen, false).unwrap();
        assert!(pos.has_legal_move(), "{fen}");
        assert_ne!(
            fen.split(' ').next(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
        );
        sides.insert(fields[1].to_string());
    }
    assert_eq!(sides.len(), 2, "both sides to move should occur: {fens:#?}");

    // Playable: a search five times longer than the filter's does not find most of them lost.
    let mut s = SearchTeam::new(SearchConfig::default(), 8).unwrap();
    let limits = Limits {
        nodes: Some(50_000),
        ..Default::default()
    };
    let balanced = fens[..8]
        .iter()
        .filter(|fen| {
            s.new_game();
            let r = s.search(&Position::from_fen(fen, false).unwrap(), &limits);
            r.score.abs() <= 400
        })
        .count();
    assert!(balanced >= 6, "{balanced} of 8 within 400 cp");

    // The same seed gives the same positions; another seed other ones.
    let (again, _, _) = genfens(&["genfens 24 seed 7 book None", "quit"], "");
    assert_eq!(again, fens);
    let (other_seed, _, _) = genfens(&["genfens 24 seed 8 book None", "quit"], "");
    let shared = other_seed.iter().filter(|f| distinct.contains(f)).count();
    assert!(shared <= 2, "{shared} positions shared by seeds 7 and 8");
}

#[test]
fn quit_may_come_on_stdin_and_options_before() {
    let (fens, other, ok) = genfens(&["genfens 3 seed 1 book None"], "isready\nquit\n");
    assert!(ok);
    assert_eq!(fens.len(), 3);
    assert_eq!(other, vec!["readyok"]);
    // OpenBench puts a `setoption` argument first for private networks; Chess960 start
    // positions (no plies) come from the standard numbering.
    let (fens, other, _) = genfens(
        &[
            "setoption name UCI_Chess960 value true",
            "genfens 6 seed 3 book None plies=0-0",
            "quit",
        ],
        "",
    );
    assert_eq!(fens.len(), 6, "{other:?}");
    let ranks: HashSet<&str> = fens.iter().map(|f| f.split('/').next().unwrap()).collect();
    assert!(ranks.len() >= 5, "{fens:?}");
    for fen in &fens {
        let pos = Position::from_fen(fen, true).unwrap();
        assert!(pos.has_legal_move(), "{fen}");
        assert_eq!(pos.board().occupied().len(), 32, "{fen}");
        assert!(fen.contains(" w ") && !fen.contains(" w - "), "{fen}");
    }
}

#[test]
fn book_lines_are_the_starts() {
    let book = temp_file(
        "book.epd",
        "# two openings\n\n\
         rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - hmvc 1; fmvn 2;\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n",
    );
    let book = book.to_str().unwrap();
    let (fens, other, _) = genfens(
        &[&format!("genfens 2 seed 5 book {book} plies=0-0"), "quit"],
        "",
    );
    let got: HashSet<&str> = fens.iter().map(String::as_str).collect();
    let want: HashSet<&str> = [
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    ]
    .into();
    assert_eq!(got, want, "{other:?}");
    // With the default plies (2-3) the positions are later than the book's.
    let (fens, other, _) = genfens(&[&format!("genfens 10 seed 5 book {book}"), "quit"], "");
    assert_eq!(fens.len(), 10, "{other:?}");
    for fen in &fens {
        let full: u32 = fen.rsplit(' ').next().unwrap().parse().unwrap();
        assert!((3..=5).contains(&full), "{fen}");
    }
}

#[test]
fn bad_requests_are_errors_not_hangs() {
    let missing = "genfens 2 seed 1 book /nonexistent/book.epd";
    let bad = temp_file("bad.epd", "# fine\nnot a fen at all\n");
    let bad = format!("genfens 2 seed 1 book {}", bad.display());
    let one = temp_file(
        "one.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    );
    let one = format!("genfens 2 seed 1 book {} plies=0-0", one.display());
    for (args, want, fens_wanted) in [
        (missing.to_string(), "cannot read book", 0),
        (bad.clone(), "bad.epd:2:", 0),
        (one.clone(), "only 1 of 2", 1),
        (
            "genfens ten seed 1 book None".into(),
            "not a valid count",
            0,
        ),
        (
            "genfens 2 seed 1 book None depth=9".into(),
            "unknown extra",
            0,
        ),
    ] {
        let (fens, other, ok) = genfens(&[&args, "quit"], "");
        assert!(ok);
        assert_eq!(fens.len(), fens_wanted, "{args}");
        assert!(
            other
                .iter()
                .any(|l| l.starts_with("info string error: genfens: ") && l.contains(want)),
            "{args}: {other:?}"
        );
    }
}
