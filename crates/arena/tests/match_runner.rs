//! The match runner end to end, with scripted stand-in engines
//! (`tests/engines/scripted-engine.sh`); no external engine is needed.

use std::path::{Path, PathBuf};

use augur_arena::game::pgn::read_played;
use augur_arena::matchmaking::games_csv::{self, GameRow};
use augur_arena::matchmaking::pgn_stats::{self, StatsArgs};
use augur_arena::matchmaking::sprt::SprtState;
use augur_arena::matchmaking::tournament::{self, MatchArgs, MatchSummary};
use augur_arena::matchmaking::verdicts;
use clap::Parser;

#[derive(Parser)]
struct Wrapper {
    #[command(flatten)]
    args: MatchArgs,
}

#[derive(Parser)]
struct StatsWrapper {
    #[command(flatten)]
    args: StatsArgs,
}

fn stats_report(argv: &[&str]) -> anyhow::Result<String> {
    let mut all = vec!["stats"];
    all.extend_from_slice(argv);
    pgn_stats::report(
        &StatsWrapper::try_parse_from(all)
            .expect("arguments parse")
            .args,
    )
}

fn engines_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines")
}

fn script(mode: &str, name: &str) -> String {
    format!(
        "name={name},cmd={},arg={mode}",
        engines_dir().join("scripted-engine.sh").display()
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("augur-arena-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_match(extra: &[&str]) -> anyhow::Result<MatchSummary> {
    let mut argv = vec!["match", "--quiet"];
    argv.extend_from_slice(extra);
    let w = Wrapper::try_parse_from(argv).expect("arguments parse");
    tournament::run(&w.args)
}

fn startpos_epd() -> String {
    engines_dir().join("startpos.epd").display().to_string()
}

/// Two engines from the start position at `tc`, games written to `pgn`; `extra` adds the
/// options a test is about.
fn duel(a: &str, b: &str, tc: &str, pgn: &Path, extra: &[&str]) -> anyhow::Result<MatchSummary> {
    let openings = startpos_epd();
    let pgn = pgn.to_str().unwrap();
    let mut argv = vec![
        "--engine",
        a,
        "--engine",
        b,
        "--openings",
        &openings,
        "--tc",
        tc,
        "--pgn",
        pgn,
    ];
    argv.extend_from_slice(extra);
    run_match(&argv)
}

/// `nodes=` in an engine's spec gives it its own node limit in a nodes match (the scripted
/// engine reports the limit it was sent as its depth); with a clock it is refused.
#[test]
fn an_engine_can_have_its_own_node_limit() {
    let dir = scratch("own-nodes");
    let pgn = dir.join("m.pgn");
    let half = format!("{},nodes=5", script("shuffle", "half"));
    let full = script("shuffle", "full");
    duel(&half, &full, "nodes=10", &pgn, &["--games", "2"]).unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap();
    for game in text.split("[Event ").skip(1) {
        let half_is_white = game.contains("[White \"half\"]");
        // White's first move is the first comment, Black's the second.
        let comments: Vec<&str> = game.split('{').skip(1).take(2).collect();
        let (white, black) = (comments[0], comments[1]);
        let (h, f) = if half_is_white {
            (white, black)
        } else {
            (black, white)
        };
        assert!(h.starts_with("+0.00/5 "), "{game}");
        assert!(f.starts_with("+0.00/10 "), "{game}");
    }
    let err = duel(
        &half,
        &full,
        "movetime=0.01",
        &dir.join("t.pgn"),
        &["--games", "2"],
    )
    .unwrap_err();
    assert!(
        format!("{err:#}").contains("nodes= sets its own node limit"),
        "{err:#}"
    );
}

/// `depth=` in an engine's spec gives it its own depth in a depth match (a reference defined by
/// its depth against an engine with a limit of its own); with another control it is refused.
#[test]
fn an_engine_can_have_its_own_depth() {
    let dir = scratch("own-depth");
    let pgn = dir.join("m.pgn");
    let deep = format!("{},depth=17", script("shuffle", "deep"));
    let other = script("shuffle", "other");
    duel(&deep, &other, "depth=3", &pgn, &["--games", "2"]).unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap();
    for game in text.split("[Event ").skip(1) {
        let deep_is_white = game.contains("[White \"deep\"]");
        let comments: Vec<&str> = game.split('{').skip(1).take(2).collect();
        let (white, black) = (comments[0], comments[1]);
        let (d, o) = if deep_is_white {
            (white, black)
        } else {
            (black, white)
        };
        assert!(d.starts_with("+0.00/17 "), "{game}");
        assert!(o.starts_with("+0.00/3 "), "{game}");
    }
    let err = duel(
        &deep,
        &other,
        "nodes=10",
        &dir.join("n.pgn"),
        &["--games", "2"],
    )
    .unwrap_err();
    assert!(
        format!("{err:#}").contains("depth= sets its own depth"),
        "{err:#}"
    );
}

#[test]
fn crashing_engine_loses_and_the_match_goes_on() {
    let dir = scratch("crash");
    let pgn = dir.join("m.pgn");
    let crashy = script("crash", "crashy");
    let shuffler = script("shuffle", "shuffler");
    let s = duel(
        &crashy,
        &shuffler,
        "nodes=10",
        &pgn,
        &["--games", "4", "--concurrency", "2"],
    )
    .unwrap();
    assert_eq!(s.games_played, 4);
    assert_eq!(s.faults, 4, "{}", s.report);
    assert!(s.report.contains("W/D/L: 0/0/4"), "{}", s.report);
    assert!(
        s.report.contains("Faults of crashy: crash 4"),
        "{}",
        s.report
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Termination \"abandoned\"]").count(), 4);
    assert_eq!(text.matches(": crash\"]").count(), 4);
    // The crash comes on crashy's third move: 4 plies as White, 5 as Black.
    assert_eq!(text.matches("[PlyCount \"4\"]").count(), 2, "{text}");
    assert_eq!(text.matches("[PlyCount \"5\"]").count(), 2, "{text}");
    // `stats` recovers the same figures from the PGN alone.
    let r = stats_report(&[
        pgn.to_str().unwrap(),
        "--engine",
        "crashy",
        "--sprt",
        "0,10",
    ])
    .unwrap();
    assert!(r.contains("W/D/L: 0/0/4"), "{r}");
    assert!(r.contains("over 2 pairs: [2, 0, 0, 0, 0]"), "{r}");
    assert!(r.contains("Faults of crashy: crash 4"), "{r}");
    assert!(r.contains("SPRT elo0=0 elo1=10"), "{r}");
    let r = stats_report(&[pgn.to_str().unwrap(), "--engine", "shuffler"]).unwrap();
    assert!(r.contains("W/D/L: 4/0/0"), "{r}");
    assert!(stats_report(&[pgn.to_str().unwrap(), "--engine", "nobody"]).is_err());
    let missing = dir.join("missing.pgn");
    let err = format!(
        "{:#}",
        stats_report(&[missing.to_str().unwrap()]).unwrap_err()
    );
    assert!(err.contains("missing.pgn"), "{err}");
}

#[test]
fn round_robin_crosstable_and_ratings() {
    let dir = scratch("rr");
    let pgn = dir.join("m.pgn");
    let (a, b, c) = (
        script("crash", "crashy"),
        script("shuffle", "s1"),
        script("shuffle", "s2"),
    );
    let s = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine",
        &c,
        "--format",
        "round-robin",
        "--anchor",
        "s1",
        "--openings",
        &startpos_epd(),
        "--tc",
        "nodes=10",
        "--games",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ])
    .unwrap();
    assert_eq!(s.games_total, 6);
    assert_eq!(s.games_played, 6);
    assert!(s.report.contains("s1 = 0"), "{}", s.report);
    // s1 and s2 draw each other and beat crashy: equal ratings, crashy far below.
    let line = |name: &str| {
        s.report
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("{}", s.report))
            .to_string()
    };
    let elo = |name: &str| -> f64 {
        line(name)
            .split_whitespace()
            .nth(2)
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(elo("s2").abs() < 0.1, "{}", s.report);
    assert!(elo("crashy") < -200.0, "{}", s.report);
    assert!(line("s2").contains("3.0/4"), "{}", s.report);
    assert!(line("crashy").contains("0.0/4"), "{}", s.report);
}

#[test]
fn stall_and_illegal_move_are_faults() {
    let dir = scratch("faults");
    for (mode, keyword) in [("stall", "stall"), ("illegal", "illegal")] {
        let pgn = dir.join(format!("{mode}.pgn"));
        let bad = script(mode, "bad");
        let good = script("shuffle", "good");
        let s = duel(
            &bad,
            &good,
            "nodes=10",
            &pgn,
            &[
                "--games",
                "2",
                // Long enough that a loaded machine never makes the good engine late.
                "--stall-timeout",
                "3",
                "--concurrency",
                "2",
            ],
        )
        .unwrap();
        assert_eq!(s.games_played, 2);
        assert!(s.report.contains("W/D/L: 0/0/2"), "{}", s.report);
        assert!(
            s.report.contains(&format!("Faults of bad: {keyword} 2")),
            "{}",
            s.report
        );
    }
}

#[test]
fn two_shufflers_draw_by_repetition() {
    let dir = scratch("draw");
    let pgn = dir.join("m.pgn");
    // Each reply waits 20 ms, so that a game lasts several of the kernel's CPU ticks.
    let a = format!("{},arg=0,arg=0.02", script("shuffle", "a"));
    let b = format!("{},arg=0,arg=0.02", script("shuffle", "b"));
    // A long movetime: the replies take 20 ms, and a stalled fork on a loaded machine must
    // not lose a game on time.
    let s = duel(&a, &b, "movetime=3", &pgn, &["--games", "2"]).unwrap();
    assert!(s.report.contains("W/D/L: 0/2/0"), "{}", s.report);
    assert_eq!(s.faults, 0);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("threefold repetition\"]").count(), 2, "{text}");
    assert!(text.contains("[TimeControl \"*3\"]"));
    // [arena-others] A game on the clock says what else used the cores while it was played,
    // and the report and `stats` sum it up; a nodes match (below) says nothing of it.
    assert_eq!(text.matches("[OtherLoad \"").count(), 2, "{text}");
    assert!(
        s.report.contains("Beside the games on the clock"),
        "{}",
        s.report
    );
    let stats = stats_report(&[pgn.to_str().unwrap()]).unwrap();
    assert!(stats.contains("of 2 games above a quarter core"), "{stats}");
}

#[test]
fn resign_and_draw_adjudication() {
    let dir = scratch("adjudication");
    let pgn = dir.join("resign.pgn");
    let loser = format!("{},arg=-700", script("shuffle", "loser"));
    let winner = format!("{},arg=700", script("shuffle", "winner"));
    let resign = [
        "--games",
        "2",
        "--resign-score",
        "600",
        "--resign-moves",
        "2",
    ];
    let s = duel(&loser, &winner, "nodes=10", &pgn, &resign).unwrap();
    assert!(s.report.contains("W/D/L: 0/0/2"), "{}", s.report);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[TerminationDetail \"resign adjudication\"]")
            .count(),
        2,
        "{text}"
    );
    assert_eq!(text.matches("[PlyCount \"4\"]").count(), 2, "{text}");
    assert!(!text.contains("[OtherLoad") && !s.report.contains("Beside the games"));
    // A one-sided opinion is not enough: both engines must agree.
    let pgn = dir.join("one-sided.pgn");
    let calm = script("shuffle", "calm");
    duel(&loser, &calm, "nodes=10", &pgn, &resign).unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("threefold repetition\"]").count(), 2, "{text}");
    let pgn = dir.join("draw.pgn");
    let (a, b) = (script("shuffle", "a"), script("shuffle", "b"));
    let s = duel(
        &a,
        &b,
        "nodes=10",
        &pgn,
        &[
            "--games",
            "2",
            "--draw-score",
            "10",
            "--draw-moves",
            "2",
            "--draw-after",
            "1",
        ],
    )
    .unwrap();
    assert!(s.report.contains("W/D/L: 0/2/0"), "{}", s.report);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[TerminationDetail \"draw adjudication\"]")
            .count(),
        2,
        "{text}"
    );
}

#[test]
fn sprt_stops_by_itself() {
    let dir = scratch("sprt");
    let pgn = dir.join("m.pgn");
    let (a, b) = (script("crash", "crashy"), script("shuffle", "shuffler"));
    let s = duel(
        &a,
        &b,
        "nodes=10",
        &pgn,
        &["--games", "400", "--concurrency", "1", "--sprt", "0,10"],
    )
    .unwrap();
    let (llr, state) = s.sprt.unwrap();
    assert_eq!(state, SprtState::AcceptH0, "{}", s.report);
    assert!(llr <= -2.94, "{llr}");
    // A one-sided pentanomial ([n, 0, 0, 0, 0]) gains LLR slowly under the
    // 1e-3 regularisation (about 100 pairs here), but well before 400 games.
    // (The worker may already have started the next game when the bound is
    // crossed; that game finishes and is recorded, so the count can be odd.)
    assert!(s.games_played < 400, "{}", s.games_played);
    assert!(s.report.contains("H0 accepted"), "{}", s.report);
    assert!(
        s.report.contains("(normalized Elo, pentanomial sample)"),
        "{}",
        s.report
    );
    // The ready-to-paste verdict row, in the SPRT's model.
    let row = s
        .report
        .lines()
        .find(|l| l.starts_with("| crashy vs shuffler | ? | [0, 10] | nodes=10 |"))
        .unwrap_or_else(|| panic!("{}", s.report));
    assert!(row.ends_with("| normalized | H0 accepted |"), "{row}");
    assert_eq!(row.matches(" | ").count(), 10, "{row}");
}

#[test]
fn resumes_from_its_pgn_and_refuses_a_foreign_one() {
    let dir = scratch("resume");
    let pgn = dir.join("m.pgn");
    let (a, b) = (script("crash", "crashy"), script("shuffle", "shuffler"));
    let base = [
        "--engine",
        a.as_str(),
        "--engine",
        b.as_str(),
        "--openings",
        "OPEN",
        "--tc",
        "nodes=10",
        "--games",
        "6",
        "--concurrency",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    let epd = startpos_epd();
    let args: Vec<&str> = base
        .iter()
        .map(|s| if *s == "OPEN" { epd.as_str() } else { s })
        .collect();
    run_match(&args).unwrap();
    let full = read_played(&pgn).unwrap();
    assert_eq!(full.len(), 6);
    // Keep the first two games only, as if the match had been killed.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let cut = text.match_indices("[Event ").nth(2).unwrap().0;
    std::fs::write(&pgn, &text[..cut]).unwrap();
    let s = run_match(&args).unwrap();
    assert_eq!(s.games_played, 6);
    assert!(s.report.contains("Played 4 games"), "{}", s.report);
    assert_eq!(read_played(&pgn).unwrap(), full);
    // A finished match plays nothing more.
    let s = run_match(&args).unwrap();
    assert!(s.report.contains("Played 0 games"), "{}", s.report);
    // Another schedule (engines swapped) must not resume from this PGN.
    let swapped: Vec<&str> = args
        .iter()
        .map(|s| {
            if *s == a.as_str() {
                b.as_str()
            } else if *s == b.as_str() {
                a.as_str()
            } else {
                s
            }
        })
        .collect();
    let err = format!("{:#}", run_match(&swapped).unwrap_err());
    assert!(err.contains("this schedule has"), "{err}");
}

/// The six-game match of crashy (which crashes on its third move) against a shuffler, one
/// game at a time, written to `pgn`.
fn crashy_match(pgn: &Path) -> anyhow::Result<MatchSummary> {
    let (a, b) = (script("crash", "crashy"), script("shuffle", "shuffler"));
    duel(
        &a,
        &b,
        "nodes=10",
        pgn,
        &["--games", "6", "--concurrency", "1"],
    )
}

fn game_rows(path: &Path) -> Vec<GameRow> {
    let mut rows = games_csv::read_games(path).unwrap().rows;
    rows.sort_by_key(|r| r.game);
    rows
}

/// The runner writes `X.games.csv` beside `X.pgn` as games finish, one row per game of the
/// PGN; a resume after a kill (a torn PGN record, a record file out of step) rebuilds it from
/// the PGN's whole games and appends the rest, ending as an uninterrupted run does.
#[test]
fn the_per_game_record_follows_the_pgn_through_a_resume() {
    let dir = scratch("games-csv");
    let pgn = dir.join("m.pgn");
    let csv = dir.join("m.games.csv");
    crashy_match(&pgn).unwrap();
    let full = game_rows(&csv);
    assert_eq!(full.len(), 6);
    assert_eq!(
        full.iter().map(|r| r.game).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    // Games 2k-1 and 2k share an opening with colours swapped: one pair.
    assert_eq!(
        full.iter().map(|r| r.pair).collect::<Vec<_>>(),
        [1, 1, 2, 2, 3, 3]
    );
    for r in &full {
        let crashy_white = r.white == "crashy";
        let expected = if crashy_white { "0-1" } else { "1-0" };
        assert_eq!(r.result.as_str(), expected, "{r:?}");
        let side = if crashy_white { "White" } else { "Black" };
        assert_eq!(r.termination, format!("{side}: crash"), "{r:?}");
    }
    // The PGN read as evidence gives the same games (its pairs are found by opening).
    let from_pgn = game_rows(&pgn);
    let strip = |rows: &[GameRow]| -> Vec<GameRow> {
        rows.iter()
            .map(|r| GameRow {
                pair: 0,
                ..r.clone()
            })
            .collect()
    };
    assert_eq!(strip(&from_pgn), strip(&full));

    // A kill in the middle of the third game's record, after the record file had already
    // taken a line the PGN lost and before it took the second game's.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let third = text.match_indices("[Event ").nth(2).unwrap().0;
    std::fs::write(&pgn, &text[..third + 40]).unwrap();
    let record = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = record.lines().collect();
    std::fs::write(&csv, format!("{}\n{}\n{}\n", lines[0], lines[1], lines[5])).unwrap();
    let s = crashy_match(&pgn).unwrap();
    assert!(s.report.contains("Played 4 games"), "{}", s.report);
    assert_eq!(game_rows(&csv), full);
    // The file is whole CSV: its column line once, then one line per game.
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 7, "{text}");
    assert!(text.starts_with(&format!("{}\n", games_csv::COLUMNS)));
}

fn xz(path: &Path) -> PathBuf {
    use std::io::Write;
    let out = PathBuf::from(format!("{}.xz", path.display()));
    let mut enc = liblzma::write::XzEncoder::new(std::fs::File::create(&out).unwrap(), 6);
    enc.write_all(&std::fs::read(path).unwrap()).unwrap();
    enc.finish().unwrap();
    out
}

/// `stats --row` gives the same registry row from the PGN, the per-game record and either
/// compressed; `stats --verify` passes a registry of such rows and names a row whose number
/// was changed, and one whose evidence is missing.
#[test]
fn stats_rows_agree_across_evidence_kinds_and_verify_catches_a_change() {
    let dir = scratch("evidence-kinds");
    let pgn = dir.join("m.pgn");
    // A match with both results and draws: crashy loses, two shufflers draw.
    let (a, b, c) = (
        script("crash", "crashy"),
        script("shuffle", "shuffler"),
        script("shuffle", "other"),
    );
    let epd = startpos_epd();
    run_match(&[
        "--engine",
        &b,
        "--engine",
        &a,
        "--engine",
        &c,
        "--format",
        "round-robin",
        "--openings",
        &epd,
        "--tc",
        "nodes=10",
        "--games",
        "4",
        "--concurrency",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
    ])
    .unwrap();
    let csv = dir.join("m.games.csv");
    let inputs = [pgn.clone(), xz(&pgn), csv.clone(), xz(&csv)];
    let row = |input: &Path, base: &str| {
        let out = stats_report(&[
            input.to_str().unwrap(),
            "--row",
            "t",
            "--engine",
            "shuffler",
            "--base",
            base,
            "--sprt",
            "0,10",
            "--control",
            "nodes=10",
            "--evidence",
            "m.games.csv",
        ])
        .unwrap();
        let mut lines = out.lines();
        assert_eq!(lines.next(), Some(verdicts::COLUMNS));
        lines.next().unwrap().to_string()
    };
    let first = row(&inputs[0], "crashy");
    assert!(
        first.starts_with("t,sprt,nodes=10,shuffler,crashy,\"0,10\",normalized,4,4,0,0,0/0/0/0/2,"),
        "{first}"
    );
    for input in &inputs[1..] {
        assert_eq!(row(input, "crashy"), first, "{}", input.display());
    }
    let draws = row(&inputs[3], "other");
    assert!(draws.contains(",4,0,4,0,0/0/2/0/0,"), "{draws}");

    let registry = dir.join("verdicts.csv");
    let write = |rows: &[&str]| {
        std::fs::write(
            &registry,
            format!("{}\n{}\n", verdicts::COLUMNS, rows.join("\n")),
        )
        .unwrap()
    };
    let lost = "old,sprt,nodes=10,x,y,\"0,10\",normalized,10,5,0,5,,,,,,,,,undecided,lost,figures from a doc";
    write(&[&first, &draws.replacen("t,", "u,", 1), lost]);
    let verify = |argv: &[&str]| stats_report(argv).map_err(|e| format!("{e:#}"));
    let ok = verify(&["--verify", registry.to_str().unwrap()]).unwrap();
    assert!(
        ok.contains("2 rows recomputed from their evidence, 1 with evidence lost"),
        "{ok}"
    );
    // One number changed: the draws of `u` (the row's 4 draws become 3).
    let changed = draws
        .replacen("t,", "u,", 1)
        .replace(",4,0,4,0,", ",4,0,3,0,");
    write(&[&first, &changed, lost]);
    let err = verify(&["--verify", registry.to_str().unwrap()]).unwrap_err();
    assert!(
        err.contains("FAIL u: draws: registry '3', evidence '4'"),
        "{err}"
    );
    assert!(
        err.contains("1 of 3 rows fail the check") && err.ends_with(": u"),
        "{err}"
    );
    assert!(err.contains("ok t "), "{err}");
    // Evidence that is not there fails its row by name.
    let gone = first.replace("m.games.csv", "missing.games.csv");
    write(&[&gone]);
    let err = verify(&["--verify", registry.to_str().unwrap()]).unwrap_err();
    assert!(
        err.contains("FAIL t: cannot open missing.games.csv"),
        "{err}"
    );
}

/// Interim looks (Haybittle-Peto) stop a fixed-length match whose score is far off 1/2 at the
/// first look, and leave an even one to play all its games; the plan is checked before a game.
#[test]
fn an_interim_look_stops_a_decided_match_and_spares_an_even_one() {
    let dir = scratch("interim");
    let (crashy, shuffler) = (script("crash", "crashy"), script("shuffle", "shuffler"));
    let pgn = dir.join("decided.pgn");
    let extra = ["--games", "60", "--concurrency", "1", "--interim", "40,20"];
    let s = duel(&crashy, &shuffler, "nodes=10", &pgn, &extra).unwrap();
    let stop = s.interim_stop.unwrap_or_else(|| panic!("{}", s.report));
    // The game a worker had begun when the look stopped the pool finishes and counts.
    assert_eq!(stop.games, 20, "{}", s.report);
    assert!((20..=21).contains(&s.games_played), "{}", s.report);
    assert!(stop.z < -3.29, "{stop:?}");
    assert!(
        s.report
            .contains("stopped at the look at 20 games of the 60 planned"),
        "{}",
        s.report
    );
    // Run again on its PGN: the look is taken on the games it has, and it stays stopped.
    let again = duel(&crashy, &shuffler, "nodes=10", &pgn, &extra).unwrap();
    assert_eq!(again.games_played, s.games_played, "{}", again.report);
    assert!(
        again.interim_stop.is_some_and(|l| l.stopped),
        "{}",
        again.report
    );

    let even = dir.join("even.pgn");
    let b = script("shuffle", "shuffler2");
    let s = duel(&shuffler, &b, "nodes=10", &even, &extra).unwrap();
    assert_eq!((s.games_played, s.interim_stop), (60, None), "{}", s.report);
    assert!(
        s.report.contains("20 games z +0.00, 40 games z +0.00"),
        "{}",
        s.report
    );

    let past = ["--games", "20", "--interim", "20"];
    let err = duel(&crashy, &shuffler, "nodes=10", &dir.join("bad.pgn"), &past).unwrap_err();
    assert!(
        format!("{err:#}").contains("not before the match's 20"),
        "{err:#}"
    );
    assert!(
        !dir.join("bad.pgn").exists(),
        "no game before the plan is checked"
    );
}
