//! The engine's options as a GUI sees them, the catalogue: the few that belong to the engine
//! as a whole (hash size, threads, ...) are `ENGINE_OPTIONS` here, the search's are declared
//! once, as rows of the table in `search::config`. From the catalogue follow the two documents:
//! the README's options table (`augur options --markdown`) and OpenBench's SPSA input (`augur
//! spsa`). What an option is (UCI type, range, parsing, choices, errors) is `types`.

pub mod types;

pub use types::{
    parse_bool, parse_choice, parse_int, Choice, Kind, OptionError, OptionSpec, OptionType,
    UnknownChoice, Value, ValueError,
};

use crate::search::config::SearchConfig;
use std::fmt::Write as _;

/// The options of the engine as a whole; the search's own follow from `search::config`.
pub const ENGINE_OPTIONS: &[OptionSpec] = &[
    engine_option(
        "Hash",
        // As large as a 64-bit GUI may ask for (Stockfish's bound); what the machine can really
        // give is checked when the table is allocated, and a refused size keeps the old table.
        Kind::Spin {
            default: 16,
            min: 1,
            max: 1 << 25,
        },
        "transposition table size in MiB; a size beyond the memory available is refused and the old table kept",
    ),
    engine_option(
        "Clear Hash",
        Kind::Button,
        "empties the transposition table",
    ),
    engine_option(
        "Threads",
        Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        "search threads (Lazy SMP: helpers share the hash table; the main thread reports)",
    ),
    engine_option(
        "Ponder",
        Kind::Check(false),
        "the GUI may send `go ponder` (Augur ponders whenever asked)",
    ),
    engine_option(
        "UCI_Chess960",
        Kind::Check(false),
        "Chess960: castling is written king-takes-rook",
    ),
    engine_option(
        "UCI_ShowWDL",
        Kind::Check(false),
        "`info` lines carry `wdl W D L`, per mille, from a model fitted on Augur's own games (docs/wdl.md)",
    ),
    // [nnue] The network file; docs/nnue.md has the format.
    engine_option(
        "EvalFile",
        Kind::Text(DEFAULT_NETWORK),
        "the network of `Eval nnue`: `<default>` (compiled in) or a network file; a bad file is refused and the previous network kept",
    ),
    // [syzygy] The tablebases: engine-wide like the hash, not a technique of the search's
    // table (without tables there is nothing to switch; tablebase.rs).
    engine_option(
        "SyzygyPath",
        Kind::Text(NO_TABLES),
        "folders of Syzygy tablebase files, separated by `:` (`;` on Windows); a folder or file that cannot be used is an `info string warning` and the rest are loaded (a path without any table is refused and the tables in force kept)",
    ),
    engine_option(
        "SyzygyProbeDepth",
        Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
        "the least remaining depth at which a position with as many pieces as `SyzygyProbeLimit` is probed inside the search (fewer pieces: at any depth)",
    ),
    engine_option(
        "SyzygyProbeLimit",
        Kind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
        "the most pieces (kings included) of a position probed; 0 probes nothing",
    ),
    engine_option(
        "Syzygy50MoveRule",
        Kind::Check(true),
        "a tablebase win or loss that the fifty-move rule turns into a draw counts as a draw",
    ),
];

/// [syzygy] The value of `SyzygyPath` that loads no tables (the GUIs' convention).
pub const NO_TABLES: &str = "<empty>";

/// The value that selects the compiled-in network (`EvalFile`).
pub const DEFAULT_NETWORK: &str = "<default>";

const fn engine_option(name: &'static str, kind: Kind, why: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        kind,
        tag: None,
        step: None,
        why,
    }
}

/// OpenBench's final learning rate (`r_end`) for every tunable: its documented default.
pub const SPSA_LEARNING_RATE: f64 = 0.002;

/// Every option in the order `uci` lists them.
pub fn all() -> Vec<OptionSpec> {
    let mut specs = ENGINE_OPTIONS.to_vec();
    specs.extend(SearchConfig::option_specs());
    specs
}

pub fn engine_option_named(name: &str) -> Option<&'static OptionSpec> {
    ENGINE_OPTIONS
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The options table of the README: one row per option, in `uci` order.
pub fn markdown() -> String {
    let mut out =
        String::from("| option | default | range | meaning |\n| --- | --- | --- | --- |\n");
    for s in all() {
        let (default, range) = match s.kind {
            Kind::Check(d) => (d.to_string(), String::new()),
            Kind::Spin { default, min, max } => (default.to_string(), format!("{min}–{max}")),
            Kind::Combo { default, choices } => (
                format!("`{default}`"),
                choices
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            Kind::Button => ("button".into(), String::new()),
            Kind::Text(d) => (format!("`{d}`"), "a path".into()),
        };
        let tag = s
            .tag
            .filter(|t| technique_switch(s.name, t))
            .map(|t| format!("[{t}] "))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| `{}` | {default} | {range} | {tag}{} |",
            s.name, s.why
        );
    }
    out
}

/// Whether `name` is the on/off switch of the technique tagged `tag` (its name is the tag).
pub fn technique_switch(name: &str, tag: &str) -> bool {
    name.eq_ignore_ascii_case(&tag.replace('_', ""))
}

/// OpenBench's SPSA input: `name, int, default, min, max, step, learning rate`, one line per
/// tunable spin.
pub fn spsa() -> String {
    let mut out = String::new();
    for s in all() {
        if let (Kind::Spin { default, min, max }, Some(step)) = (s.kind, s.step) {
            let _ = writeln!(
                out,
                "{}, int, {default}, {min}, {max}, {step}, {SPSA_LEARNING_RATE}",
                s.name
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalKind;

    #[test]
    fn values_are_checked() {
        let hash = engine_option_named("hash").unwrap();
        assert_eq!(hash.parse(Some("64")), Ok(Value::Int(64)));
        for bad in [Some("0"), Some("33554433"), Some("x"), None] {
            assert!(
                matches!(
                    hash.parse(bad),
                    Err(OptionError::Value { name: "Hash", .. })
                ),
                "{bad:?}"
            );
        }
        assert_eq!(parse_bool(Some("TRUE")), Ok(true));
        assert!(matches!(
            parse_bool(Some("maybe")),
            Err(ValueError::Expected { .. })
        ));
        assert_eq!(
            <EvalKind as OptionType>::parse(Some("CLASSIC"), None),
            Ok(EvalKind::Classic)
        );
        let e = <EvalKind as OptionType>::parse(Some("neural"), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown evaluation 'neural' (expected one of: hce, default, classic, nnue)"
        );
        // An alias is taken and offered to GUIs, but the choice keeps its one name.
        let hce = <EvalKind as OptionType>::parse(Some("DEFAULT"), None).unwrap();
        assert_eq!((hce, hce.name()), (EvalKind::Hce, "hce"));
        let eval = all().into_iter().find(|s| s.name == "Eval").unwrap();
        let Kind::Combo { choices, .. } = eval.kind else {
            panic!("Eval is a combo")
        };
        assert_eq!(choices, ["hce", "default", "classic", "nnue"]);
        assert_eq!(<i32 as OptionType>::parse(Some(" 7 "), Some((1, 7))), Ok(7));
        assert!(<i32 as OptionType>::parse(Some("8"), Some((1, 7))).is_err());
    }

    #[test]
    fn every_option_is_declared_once_with_a_valid_default() {
        let specs = all();
        for (i, s) in specs.iter().enumerate() {
            assert!(
                specs[..i]
                    .iter()
                    .all(|o| !o.name.eq_ignore_ascii_case(s.name)),
                "{} declared twice",
                s.name
            );
            assert!(!s.why.is_empty(), "{} says nothing", s.name);
            if let Kind::Spin { default, min, max } = s.kind {
                assert!(min <= default && default <= max, "{}", s.name);
                assert!(s.step.is_none_or(|st| st > 0.0), "{}", s.name);
            } else {
                assert!(s.step.is_none(), "{}: only spins are tuned", s.name);
            }
            if let Kind::Combo { default, choices } = s.kind {
                assert!(choices.contains(&default), "{}", s.name);
            }
        }
    }

    /// One name family per technique: the switch is the tag (`Nmp` for `[nmp]`), and every
    /// parameter's name starts with it (`NmpReduction`).
    #[test]
    fn technique_options_are_named_after_their_tag() {
        for s in all() {
            let Some(tag) = s.tag else { continue };
            let family = tag.replace('_', "");
            assert!(
                s.name.to_ascii_lowercase().starts_with(&family),
                "{} is not in the {tag} family",
                s.name
            );
        }
    }

    #[test]
    fn spsa_lines_are_openbench_input() {
        let text = spsa();
        assert!(!text.is_empty());
        for line in text.lines() {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!(fields[1], "int");
            let n: Vec<f64> = fields[2..].iter().map(|f| f.parse().unwrap()).collect();
            assert!(n[1] <= n[0] && n[0] <= n[2] && n[3] > 0.0, "{line}");
            let spec = all().into_iter().find(|s| s.name == fields[0]).unwrap();
            assert!(matches!(spec.kind, Kind::Spin { .. }));
        }
        assert!(text.contains("NmpReduction, int, 3, 1, 10, "), "{text}");
    }

    #[test]
    fn the_readme_shows_the_options_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
        let readme = std::fs::read_to_string(path).expect("README.md at the workspace root");
        let table = markdown();
        assert!(
            readme.contains(&table),
            "README.md's options table differs from `augur options --markdown`; paste its output:\n{table}"
        );
    }
}
