//! Test outcomes, as the agent and Surefire report them.

use serde::{Deserialize, Serialize};

/// The outcome of one test run (`docs/protocol.md`, "Events").
///
/// Outcomes are ordered by *severity*, the order used to fold the invocations of a dynamic
/// container into one outcome: `Skipped < Pass < Fail < Error`. A container whose invocations all
/// passed, or passed and were skipped, passed; one with a failing invocation failed; an error
/// anywhere wins; a container all of whose invocations were skipped was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// `@Ignore`, `@Disabled`, or a failed assumption.
    Skipped,
    /// The test passed.
    Pass,
    /// An `AssertionError` (a Surefire "failure").
    Fail,
    /// Any other throwable (a Surefire "error").
    Error,
}

impl Outcome {
    /// The worse of two outcomes (see the type's documentation for the order).
    pub fn worst(self, other: Outcome) -> Outcome {
        self.max(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_order_is_skipped_pass_fail_error() {
        assert_eq!(Outcome::Pass.worst(Outcome::Skipped), Outcome::Pass);
        assert_eq!(Outcome::Pass.worst(Outcome::Fail), Outcome::Fail);
        assert_eq!(Outcome::Error.worst(Outcome::Fail), Outcome::Error);
        assert_eq!(Outcome::Skipped.worst(Outcome::Skipped), Outcome::Skipped);
    }

    #[test]
    fn outcomes_are_lowercase_in_json() {
        assert_eq!(
            serde_json::to_string(&Outcome::Skipped).unwrap(),
            r#""skipped""#
        );
        assert_eq!(
            serde_json::from_str::<Outcome>(r#""error""#).unwrap(),
            Outcome::Error
        );
        assert!(serde_json::from_str::<Outcome>(r#""passed""#).is_err());
    }
}
