//! The option vocabulary: an option's UCI type with its default and range (`Kind`,
//! `OptionSpec`), the types a search option can have (`OptionType`) and how a `setoption`
//! value parses into one, the closed name tables behind combo options (`Choice`, `choice!`),
//! and the errors of a refused value. The options themselves are the catalogue in `options`.

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

/// Why a `setoption` value was refused.
#[derive(Debug, Error, PartialEq)]
pub enum ValueError {
    #[error("needs a value")]
    Missing,
    #[error("'{value}' is not {expected}")]
    Expected { value: String, expected: String },
    #[error(transparent)]
    Choice(#[from] UnknownChoice),
    /// The ProbCut parameter file named was refused (the reader's message).
    #[error("{0}")]
    Params(String),
    #[error("{0}")]
    Network(String),
    /// [syzygy] `SyzygyPath` named no usable table at all.
    #[error("{0}")]
    Tables(String),
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
            choices: T::WORDS,
        }
    }
    fn parse(value: Option<&str>, _: Option<(i64, i64)>) -> Result<Self, ValueError> {
        Ok(value.ok_or(ValueError::Missing)?.trim().parse()?)
    }
}

/// A closed set of named choices (an enum declared with `choice!`).
pub trait Choice: Copy + std::str::FromStr<Err = UnknownChoice> + 'static {
    /// What the choice is, for error messages ("evaluation", "algorithm", ...).
    const WHAT: &'static str;
    /// Each choice's own name, in declaration order.
    const NAMES: &'static [&'static str];
    /// Every word the option takes (names and aliases): the UCI combo's `var` list, since a GUI
    /// sends only what the list offers.
    const WORDS: &'static [&'static str] = Self::NAMES;
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
/// `ALL`, `NAMES`, `name()`, `FromStr` (typed error, case-insensitive) and `Display`. A name may
/// carry aliases (`Hce = "hce" | "default"`): accepted and offered, never printed back.
macro_rules! choice {
    (@same $_alias:literal, $value:expr) => {
        $value
    };
    (
        $(#[$meta:meta])*
        $vis:vis enum $Name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $Variant:ident = $text:literal $(| $alias:literal)* ),+ $(,)?
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
            /// Names and aliases, each beside its choice in `WORD_VALUES`.
            pub const WORDS: &'static [&'static str] = &[$($text $(, $alias)*),+];
            const WORD_VALUES: &'static [$Name] = &[
                $($Name::$Variant $(, $crate::options::types::choice!(@same $alias, $Name::$Variant))*),+
            ];

            pub fn name(self) -> &'static str {
                match self {
                    $($Name::$Variant => $text),+
                }
            }
        }

        impl $crate::options::types::Choice for $Name {
            const WHAT: &'static str = $what;
            const NAMES: &'static [&'static str] = $Name::NAMES;
            const WORDS: &'static [&'static str] = $Name::WORDS;
            fn name(self) -> &'static str {
                $Name::name(self)
            }
        }

        impl std::str::FromStr for $Name {
            type Err = $crate::options::types::UnknownChoice;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $crate::options::types::parse_choice(s, $what, Self::WORDS, Self::WORD_VALUES)
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
