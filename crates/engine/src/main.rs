//! The `augur` binary: UCI engine by default; `bench`, `perft`, `options` and `spsa` subcommands.

use augur::perft;
use augur::position::{Position, STARTPOS_FEN};
use augur::search::config::SearchConfig;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  augur                          UCI engine (reads commands from standard input)
  augur \"<command>\"... [quit]    runs each argument as a UCI command, then standard input
                                 unless one was quit; e.g. OpenBench's
                                 augur \"genfens N seed S book <file|None>\" quit
  augur bench [depth] [--eval E] [--eval-file F] [--set Name=Value]... fixed-depth search of the built-in positions; last line '<N> nodes <M> nps'
  augur perft <depth> [fen] [--threads N]
                                 per-move divide, then 'Nodes searched: <N>' (all cores by default)
  augur perft --suite <file.epd> [--max-depth D] [--max-nodes N]
                                 check every position of an EPD perft suite ('FEN ;D1 n ;D2 n ...')
  augur options [--markdown | --spsa]
                                 the UCI options: as 'uci' declares them, as the README's table,
                                 or as OpenBench SPSA input
  augur spsa                     the tunable options as OpenBench SPSA input
                                 ('name, int, default, min, max, step, learning rate')";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            augur::uci::Engine::new().run(std::io::BufReader::new(std::io::stdin()));
            ExitCode::SUCCESS
        }
        Some("bench") => bench(&args[1..]),
        Some("perft") => perft_cmd(&args[1..]),
        Some("options") => options_cmd(&args[1..]),
        Some("spsa") => options_cmd(&["--spsa".to_string()]),
        Some(first) if is_command(first) => {
            augur::uci::Engine::new()
                .run_with_args(&args, std::io::BufReader::new(std::io::stdin()));
            ExitCode::SUCCESS
        }
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("augur: unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// An argument that starts like one of the commands testers pass on the command line.
fn is_command(arg: &str) -> bool {
    let word = arg.split_whitespace().next().unwrap_or("");
    [
        "genfens",
        "setoption",
        "position",
        "go",
        "uci",
        "isready",
        "quit",
    ]
    .contains(&word)
}

fn bench(args: &[String]) -> ExitCode {
    let mut depth = augur::bench::DEFAULT_DEPTH;
    let mut config = SearchConfig::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--eval" {
            // [nnue] `augur bench --eval hce`: the same positions with another evaluation, to
            // compare speeds in one run (the network is the default).
            match rest.next().map(|v| v.parse::<augur::eval::EvalKind>()) {
                Some(Ok(kind)) => config.eval = kind,
                Some(Err(e)) => {
                    eprintln!("augur bench: {e}");
                    return ExitCode::from(2);
                }
                None => {
                    eprintln!("augur bench: --eval needs nnue, hce (or default) or classic");
                    return ExitCode::from(2);
                }
            }
            continue;
        }
        if arg == "--eval-file" {
            // [nnue] `augur bench --eval nnue --eval-file F`: a network not (yet) compiled
            // in, to measure its speed before it is embedded.
            let Some(path) = rest.next() else {
                eprintln!("augur bench: --eval-file needs a network file");
                return ExitCode::from(2);
            };
            match augur::eval::nnue::Network::load(std::path::Path::new(path)) {
                Ok(net) => config.network = std::sync::Arc::new(net),
                Err(e) => {
                    eprintln!("augur bench: {path}: {e}");
                    return ExitCode::from(2);
                }
            }
            continue;
        }
        if arg == "--set" {
            // `augur bench --set Sppf=true`: the same positions with other search options, for
            // node counts of a technique at fixed depth.
            let Some((name, value)) = rest.next().and_then(|s| s.split_once('=')) else {
                eprintln!("augur bench: --set needs Name=Value");
                return ExitCode::from(2);
            };
            match config.set_option(name, Some(value)) {
                Ok(true) => {}
                Ok(false) => {
                    eprintln!("augur bench: '{name}' is not a search option");
                    return ExitCode::from(2);
                }
                Err(e) => {
                    eprintln!("augur bench: {e}");
                    return ExitCode::from(2);
                }
            }
            continue;
        }
        match arg.parse::<i32>() {
            Ok(d) if (1..=64).contains(&d) => depth = d,
            _ => {
                eprintln!("augur bench: depth must be an integer from 1 to 64, got '{arg}'");
                return ExitCode::from(2);
            }
        }
    }
    let r = augur::bench::run(depth, &config, true);
    println!("{} nodes {} nps", r.nodes, r.nps);
    ExitCode::SUCCESS
}

fn options_cmd(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        None => {
            for spec in augur::options::all() {
                println!("{}", spec.declaration());
            }
        }
        Some("--markdown") => print!("{}", augur::options::markdown()),
        Some("--spsa") => print!("{}", augur::options::spsa()),
        Some(other) => {
            eprintln!("augur options: unknown flag '{other}' (expected --markdown or --spsa)");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

fn perft_cmd(args: &[String]) -> ExitCode {
    if args.first().map(String::as_str) == Some("--suite") {
        return perft_suite(&args[1..]);
    }
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("augur perft: expected a depth\n{USAGE}");
        return ExitCode::from(2);
    };
    let mut rest: Vec<&str> = args[1..].iter().map(String::as_str).collect();
    let mut threads = perft::default_threads();
    if let Some(i) = rest.iter().position(|a| *a == "--threads") {
        match rest.get(i + 1).and_then(|t| t.parse::<usize>().ok()) {
            Some(t) if t >= 1 => threads = t,
            _ => {
                eprintln!("augur perft: --threads needs a positive integer");
                return ExitCode::from(2);
            }
        }
        rest.drain(i..i + 2);
    }
    let fen = if rest.is_empty() {
        STARTPOS_FEN.to_string()
    } else {
        rest.join(" ")
    };
    let pos = match Position::from_fen(&fen, true) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("augur perft: bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let mut total = 0;
    for (mv, n) in perft::divide(&pos, depth, threads) {
        println!("{mv}: {n}");
        total += n;
    }
    let secs = start.elapsed().as_secs_f64();
    println!("\nNodes searched: {total}");
    eprintln!(
        "{:.3} s, {:.1} M leaves/s, {threads} threads",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

fn perft_suite(args: &[String]) -> ExitCode {
    let Some(path) = args.first() else {
        eprintln!("augur perft --suite: expected a file");
        return ExitCode::from(2);
    };
    let mut max_depth = u32::MAX;
    let mut max_nodes = u64::MAX;
    let mut i = 1;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match (args[i].as_str(), value) {
            ("--max-depth", Some(v)) => max_depth = v as u32,
            ("--max-nodes", Some(v)) => max_nodes = v,
            (flag, _) => {
                eprintln!("augur perft --suite: bad option '{flag}' (expected --max-depth N or --max-nodes N)");
                return ExitCode::from(2);
            }
        }
        i += 2;
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("augur perft --suite: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let cases = match perft::parse_suite(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("augur perft --suite: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let (mut checked, mut failed, mut leaves) = (0, 0, 0u64);
    for case in &cases {
        let pos = Position::from_fen(&case.fen, true).expect("validated when parsed");
        for &(depth, want) in &case.expected {
            if depth > max_depth || want > max_nodes {
                continue;
            }
            let got = perft::perft(pos.board(), depth);
            leaves += got;
            checked += 1;
            if got != want {
                failed += 1;
                println!(
                    "FAIL line {} depth {depth}: expected {want}, got {got}  {}",
                    case.line, case.fen
                );
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} positions, {checked} counts checked, {failed} failed, {leaves} leaves in {secs:.1} s",
        cases.len()
    );
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
