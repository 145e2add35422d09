//! [margins] The nodes where the margin rules decide, recorded for the lab's fit of their
//! margins (`augur-lab margins`, issue 66): reverse futility (`[rfp]`), futility (`[futility]`)
//! and Stockfish-style ProbCut (`[sfpc]`) each compare an estimate (a static eval, a reduced
//! search) with a bound plus a margin. Buro's method fits the margin from data: the estimate
//! against the result of a full search of the node at its real depth. The search records the
//! first half of each pair here; the lab searches the second.
//!
//! Off unless a caller asks (`SearchTeam::log_margins`): the search then pays one test of an
//! empty `Option` where a rule is tried, and `augur bench` counts the same nodes.

use cozy_chess::{Board, Move};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Which rule a sample is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarginRule {
    /// [rfp] A non-PV node's static eval against beta.
    Rfp,
    /// [futility] A frontier node's static eval against alpha, for one quiet move.
    Futility,
    /// [sfpc] A good capture's verification search against beta.
    Sfpc,
}

impl MarginRule {
    pub const ALL: [MarginRule; 3] = [MarginRule::Rfp, MarginRule::Futility, MarginRule::Sfpc];

    /// The technique's tag, as in the settings table.
    pub fn tag(self) -> &'static str {
        match self {
            MarginRule::Rfp => "rfp",
            MarginRule::Futility => "futility",
            MarginRule::Sfpc => "sfpc",
        }
    }
}

/// The rule's tag, as the lab's data writes it.
impl fmt::Display for MarginRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// A rule read from text that is none of the tags.
#[derive(Debug, Error)]
#[error("rule must be rfp, futility or sfpc, found '{0}'")]
pub struct UnknownRule(pub String);

impl FromStr for MarginRule {
    type Err = UnknownRule;

    fn from_str(text: &str) -> Result<MarginRule, UnknownRule> {
        MarginRule::ALL
            .into_iter()
            .find(|r| r.tag() == text)
            .ok_or_else(|| UnknownRule(text.to_string()))
    }
}

/// One node where a rule was tried, as the search saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct MarginSample {
    pub rule: MarginRule,
    /// The node's position.
    pub board: Board,
    /// The node's depth (plies left).
    pub depth: i32,
    /// What the rule compares with: beta ([rfp], [sfpc]) or alpha ([futility]).
    pub bound: i32,
    /// What the rule estimates the node by: the static eval it compares ([rfp], [futility]),
    /// or the capture's verification result ([sfpc], a null-window bound at the raised beta).
    pub estimate: i32,
    pub improving: bool,
    /// The quiet move ([futility]) or the capture ([sfpc]) the sample is of.
    pub mv: Option<Move>,
    /// [sfpc] The verification search's depth (0: the quiescence search alone).
    pub reduced_depth: i32,
}

/// The samples of one thread's searches, and which of them are worth keeping.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MarginLog {
    /// [rfp] [futility] Only nodes whose estimate lies this close to the bound are kept: far
    /// from it the rule's answer does not depend on the margin, and the samples would fill
    /// memory.
    pub window: i32,
    pub samples: Vec<MarginSample>,
}

impl MarginLog {
    pub fn new(window: i32) -> Self {
        MarginLog {
            window,
            samples: Vec::new(),
        }
    }

    /// Keeps the sample if its estimate lies within the window of its bound ([sfpc]'s are
    /// all kept: its estimate is a bound, not a score).
    pub fn record(&mut self, sample: MarginSample) {
        if sample.rule == MarginRule::Sfpc || (sample.estimate - sample.bound).abs() <= self.window
        {
            self.samples.push(sample);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_read_back_by_tag_and_nothing_else() {
        for rule in MarginRule::ALL {
            assert_eq!(rule.to_string().parse::<MarginRule>().unwrap(), rule);
        }
        let e = "nmp".parse::<MarginRule>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "rule must be rfp, futility or sfpc, found 'nmp'"
        );
    }
}
