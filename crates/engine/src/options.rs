//! Engine options as a GUI sees them: each option's UCI type, default and range, parsing of
//! `setoption` values into typed settings, the closed name tables behind combo options
//! (`choice!`), and the two documents generated from the declarations: the README's options
//! table (`augur options --markdown`) and OpenBench's SPSA input (`augur spsa`).
//!
//! The search's options are declared once, as rows of the table in `search::config`; the few
//! that belong to the engine as a whole (hash size, threads, ...) are `ENGINE_OPTIONS` here.

use crate::search::config::SearchConfig;
use crate::search::probcut::{ParamsError, ProbCutParams};
use std::fmt::Write as _;
use std::sync::Arc;
use thiserror::Error;

/// The UCI type of an option, with its default (and range for spins).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Check(bool),
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
    Button,
    Text(&'static str),
}

/// One option: what `uci` declares, what the README documents and what SPSA may tune.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    /// The technique's tag (`nmp` for `Nmp`, `NmpReduction`, ...), so one grep finds it all.
    pub tag: Option<&'static str>,
    /// SPSA step (OpenBench's `c_end`): set for the spins worth tuning, none for the others.
    pub step: Option<f64>,
    /// One line on what the option does.
    pub why: &'static str,
}

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
    // [nnue] The network file; docs/nnue.md has the format.
    engine_option(
        "EvalFile",
        Kind::Text(DEFAULT_NETWORK),
        "the network of `Eval nnue`: `<default>` (compiled in) or a network file; a bad file is refused and the previous network kept",
    ),
];

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

/// The value that selects the compiled-in ProbCut parameters (`ProbCutParams`).
pub const BUILTIN_PARAMS: &str = "<builtin>";

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

/// Why a `setoption` value was refused.
#[derive(Debug, Error, PartialEq)]
pub enum ValueError {
    #[error("needs a value")]
    Missing,
    #[error("'{value}' is not {expected}")]
    Expected { value: String, expected: String },
    #[error(transparent)]
    Choice(#[from] UnknownChoice),
    #[error(transparent)]
    Params(#[from] ParamsError),
    #[error("{0}")]
    Network(String),
}

#[derive(Debug, Error, PartialEq)]
pub enum OptionError {
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("{name}: {error}; previous value kept")]
    Value {
        name: &'static str,
        #[source]
        error: ValueError,
    },
}

/// A validated value of an engine option (the search's options parse into their fields).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Text(String),
    Pressed,
}

impl OptionSpec {
    /// The `option name ...` line printed for `uci`.
    pub fn declaration(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Check(d) => format!("option name {name} type check default {d}"),
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Combo { default, choices } => {
                let vars: String = choices.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Button => format!("option name {name} type button"),
            Kind::Text(d) => format!("option name {name} type string default {d}"),
        }
    }

    /// Checks a value for one of `ENGINE_OPTIONS` (checks, spins, buttons and strings; an
    /// empty string or `<empty>` means the default).
    pub fn parse(&self, value: Option<&str>) -> Result<Value, OptionError> {
        let checked = match self.kind {
            Kind::Button => Ok(Value::Pressed),
            Kind::Check(_) => parse_bool(value).map(Value::Bool),
            Kind::Spin { min, max, .. } => parse_int(value, min, max).map(Value::Int),
            Kind::Text(default) => Ok(Value::Text(match value.map(str::trim) {
                None | Some("" | "<empty>") => default.to_string(),
                Some(v) => v.to_string(),
            })),
            Kind::Combo { .. } => unreachable!("engine options are not combos"),
        };
        checked.map_err(|error| OptionError::Value {
            name: self.name,
            error,
        })
    }
}

pub fn parse_bool(value: Option<&str>) -> Result<bool, ValueError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        None => Err(ValueError::Missing),
        Some(_) => Err(expected(value, "true or false".into())),
    }
}

pub fn parse_int(value: Option<&str>, min: i64, max: i64) -> Result<i64, ValueError> {
    let text = value.ok_or(ValueError::Missing)?;
    match text.trim().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(expected(value, format!("an integer from {min} to {max}"))),
    }
}

fn expected(value: Option<&str>, expected: String) -> ValueError {
    ValueError::Expected {
        value: value.unwrap_or("").to_string(),
        expected,
    }
}

/// A type a search option can have: how it is declared and how a `setoption` value becomes one.
pub trait OptionType: Sized {
    /// The UCI declaration with this default; `range` is the row's `[min, max]` for spins.
    fn kind(default: &Self, range: Option<(i64, i64)>) -> Kind;
    fn parse(value: Option<&str>, range: Option<(i64, i64)>) -> Result<Self, ValueError>;
}

impl OptionType for bool {
    fn kind(default: &Self, _: Option<(i64, i64)>) -> Kind {
        Kind::Check(*default)
    }
    fn parse(value: Option<&str>, _: Option<(i64, i64)>) -> Result<Self, ValueError> {
        parse_bool(value)
    }
}

impl OptionType for i32 {
    fn kind(default: &Self, range: Option<(i64, i64)>) -> Kind {
        let (min, max) = range.unwrap_or((i32::MIN.into(), i32::MAX.into()));
        Kind::Spin {
            default: (*default).into(),
            min,
            max,
        }
    }
    fn parse(value: Option<&str>, range: Option<(i64, i64)>) -> Result<Self, ValueError> {
        let (min, max) = range.unwrap_or((i32::MIN.into(), i32::MAX.into()));
        let (min, max) = (min.max(i32::MIN.into()), max.min(i32::MAX.into()));
        parse_int(value, min, max).map(|n| n as i32)
    }
}

impl<T: Choice> OptionType for T {
    fn kind(default: &Self, _: Option<(i64, i64)>) -> Kind {
        Kind::Combo {
            default: default.name(),
            choices: T::NAMES,
        }
    }
    fn parse(value: Option<&str>, _: Option<(i64, i64)>) -> Result<Self, ValueError> {
        Ok(value.ok_or(ValueError::Missing)?.trim().parse()?)
    }
}

/// The fitted ProbCut models: a file written by `augur-lab fit`, or the compiled-in one. A bad
/// file is refused with the reason, and the models in force stay.
impl OptionType for Arc<ProbCutParams> {
    fn kind(_: &Self, _: Option<(i64, i64)>) -> Kind {
        Kind::Text(BUILTIN_PARAMS)
    }
    fn parse(value: Option<&str>, _: Option<(i64, i64)>) -> Result<Self, ValueError> {
        Ok(Arc::new(match value.map(str::trim) {
            None | Some("" | "<empty>" | BUILTIN_PARAMS) => ProbCutParams::builtin(),
            Some(path) => ProbCutParams::load(path)?,
        }))
    }
}

/// A closed set of named choices (an enum declared with `choice!`).
pub trait Choice: Copy + std::str::FromStr<Err = UnknownChoice> + 'static {
    /// What the choice is, for error messages ("evaluation", "algorithm", ...).
    const WHAT: &'static str;
    const NAMES: &'static [&'static str];
    fn name(self) -> &'static str;
}

#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("unknown {what} '{given}' (expected one of: {})", .expected.join(", "))]
pub struct UnknownChoice {
    pub what: &'static str,
    pub given: String,
    pub expected: &'static [&'static str],
}

/// Finds `text` (case-insensitively) in a `choice!` name table.
pub fn parse_choice<T: Copy>(
    text: &str,
    what: &'static str,
    names: &'static [&'static str],
    all: &[T],
) -> Result<T, UnknownChoice> {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(text))
        .map(|i| all[i])
        .ok_or_else(|| UnknownChoice {
            what,
            given: text.to_string(),
            expected: names,
        })
}

/// Declares an enum of named choices with one table: variants and their names in order, with
/// `ALL`, `NAMES`, `name()`, `FromStr` (typed error, case-insensitive) and `Display`.
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $Name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $Variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $Name {
            $( $(#[$vmeta])* $Variant ),+
        }

        impl $Name {
            pub const ALL: &'static [$Name] = &[$($Name::$Variant),+];
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            pub fn name(self) -> &'static str {
                match self {
                    $($Name::$Variant => $text),+
                }
            }
        }

        impl $crate::options::Choice for $Name {
            const WHAT: &'static str = $what;
            const NAMES: &'static [&'static str] = $Name::NAMES;
            fn name(self) -> &'static str {
                $Name::name(self)
            }
        }

        impl std::str::FromStr for $Name {
            type Err = $crate::options::UnknownChoice;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $crate::options::parse_choice(s, $what, Self::NAMES, Self::ALL)
            }
        }

        impl std::fmt::Display for $Name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use choice;

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
            Kind::Text(d) => (format!("`{d}`"), "a file".into()),
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
            "unknown evaluation 'neural' (expected one of: default, classic, nnue)"
        );
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
