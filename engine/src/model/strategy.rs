//! Detection strategies: the names users choose with `-Dodrust.strategy`, and which family each
//! belongs to (whole-suite orders, or a systematic schedule).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::EngineError;

/// How the rounds of a detection choose their orders.
///
/// As the `strategy` of one experiment, the same names say how *that* order was made; there
/// `reverse-passing` means "the reverse of the previous round's passing order".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Every round reruns the original order.
    Original,
    /// Classes in reverse order, and the tests of each class reversed.
    Reverse,
    /// Classes in reverse order, the tests of each class in their original order.
    ReverseClass,
    /// Classes shuffled, the tests of each class in their original order.
    RandomClass,
    /// Classes shuffled, then the tests of each class shuffled.
    RandomClassMethod,
    /// Random class-method orders; a round whose order passed is followed by its reverse.
    ReversePassing,
    /// Class-compatible orders covering every consecutive ordered pair of tests (Tuscan squares,
    /// Algorithm 1 of Wei et al.); see [`crate::schedule`].
    Tuscan,
    /// Every ordered pair of tests `[t, t']` as an order of its own.
    PairsAll,
    /// Every ordered `k`-tuple of distinct tests as an order of its own (DTDetector).
    KBounded,
    /// Like `tuscan`, but only the ordered pairs `(t, t')` where `t'` reads a static field `t`
    /// wrote (recorded by the jvm-agent in the baseline run); see [`crate::schedule::dependence`].
    DependenceAware,
    /// The default: first orders that put each test that wrote a static field right before each
    /// test that read it (recorded by the jvm-agent in the baseline run; see
    /// [`crate::schedule::targeted`]), then `reverse-passing` rounds.
    Targeted,
}

impl Strategy {
    /// Every strategy, in the order the documentation lists them.
    pub const ALL: [Strategy; 11] = [
        Strategy::Original,
        Strategy::Reverse,
        Strategy::ReverseClass,
        Strategy::RandomClass,
        Strategy::RandomClassMethod,
        Strategy::ReversePassing,
        Strategy::Tuscan,
        Strategy::PairsAll,
        Strategy::KBounded,
        Strategy::DependenceAware,
        Strategy::Targeted,
    ];

    /// The strategies whose every order runs the whole suite.
    pub const WHOLE_SUITE: [Strategy; 7] = [
        Strategy::Original,
        Strategy::Reverse,
        Strategy::ReverseClass,
        Strategy::RandomClass,
        Strategy::RandomClassMethod,
        Strategy::ReversePassing,
        Strategy::Targeted,
    ];

    /// The systematic strategies: a fixed schedule of orders that covers consecutive pairs
    /// ([`crate::schedule::Schedule`]); a round is one order of it.
    pub const SYSTEMATIC: [Strategy; 4] = [
        Strategy::Tuscan,
        Strategy::PairsAll,
        Strategy::KBounded,
        Strategy::DependenceAware,
    ];

    /// Whether it is one of [`SYSTEMATIC`](Strategy::SYSTEMATIC).
    pub fn is_systematic(self) -> bool {
        Strategy::SYSTEMATIC.contains(&self)
    }

    /// The default strategy of `odrust:detect`.
    pub const DEFAULT: Strategy = Strategy::Targeted;

    /// The strategies whose baseline runs record which static fields each test reads and writes
    /// (the jvm-agent as a Java agent): they plan their orders from it.
    pub const RECORDING: [Strategy; 2] = [Strategy::DependenceAware, Strategy::Targeted];

    /// Whether it is one of [`RECORDING`](Strategy::RECORDING).
    pub fn records_baseline(self) -> bool {
        Strategy::RECORDING.contains(&self)
    }

    /// What a recording strategy does when its baseline recorded nothing (the agent did not
    /// start), for the warning that says so; `None` for the others.
    pub fn without_recording(self) -> Option<&'static str> {
        match self {
            Strategy::Targeted => Some("no round is targeted, every round is random"),
            Strategy::DependenceAware => {
                Some("every pair of tests counts as possibly dependent, as in tuscan")
            }
            _ => None,
        }
    }

    /// The name users write (`reverse-class`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Original => "original",
            Strategy::Reverse => "reverse",
            Strategy::ReverseClass => "reverse-class",
            Strategy::RandomClass => "random-class",
            Strategy::RandomClassMethod => "random-class-method",
            Strategy::ReversePassing => "reverse-passing",
            Strategy::Tuscan => "tuscan",
            Strategy::PairsAll => "pairs-all",
            Strategy::KBounded => "k-bounded",
            Strategy::DependenceAware => "dependence-aware",
            Strategy::Targeted => "targeted",
        }
    }

    /// The strategy named `name` (exactly as [`name`](Strategy::name) spells it, surrounding
    /// whitespace ignored).
    ///
    /// Errors: [`EngineError::BadConfig`] naming every valid strategy.
    pub fn parse(name: &str) -> Result<Strategy, EngineError> {
        let wanted = name.trim();
        Strategy::ALL
            .into_iter()
            .find(|s| s.name() == wanted)
            .ok_or_else(|| EngineError::BadConfig {
                setting: "strategy".into(),
                value: name.to_string(),
                reason: format!(
                    "valid strategies: {}",
                    Strategy::ALL.map(Strategy::name).join(", ")
                ),
            })
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
