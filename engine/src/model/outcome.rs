//! Test outcomes, as the agent and Surefire report them ([`Outcome`]) and as the plugin records
//! them for one detection experiment ([`RunOutcome`]).

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

/// The outcome of one test in one detection experiment (`docs/protocol.md`, "Detection").
///
/// On top of the agent's four outcomes, the plugin records how a test ended when its JVM did not
/// end normally (`crash`, `timeout`, `exit`) and that a test of the order never ran (`not-run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunOutcome {
    /// The test passed.
    Pass,
    /// `@Ignore`, `@Disabled`, or a failed assumption.
    Skipped,
    /// An `AssertionError`.
    Fail,
    /// Any other throwable.
    Error,
    /// The JVM died while the test ran.
    Crash,
    /// The JVM was killed because the experiment ran out of time while the test ran.
    Timeout,
    /// The JVM exited (`System.exit`) while the test ran.
    Exit,
    /// The test was in the order but never ran (e.g. the JVM died before it).
    NotRun,
}

impl RunOutcome {
    /// Every outcome, in the order of the type.
    pub const ALL: [RunOutcome; 8] = [
        RunOutcome::Pass,
        RunOutcome::Skipped,
        RunOutcome::Fail,
        RunOutcome::Error,
        RunOutcome::Crash,
        RunOutcome::Timeout,
        RunOutcome::Exit,
        RunOutcome::NotRun,
    ];

    /// The outcome's name on the wire (`not-run`).
    pub fn name(self) -> &'static str {
        match self {
            RunOutcome::Pass => "pass",
            RunOutcome::Skipped => "skipped",
            RunOutcome::Fail => "fail",
            RunOutcome::Error => "error",
            RunOutcome::Crash => "crash",
            RunOutcome::Timeout => "timeout",
            RunOutcome::Exit => "exit",
            RunOutcome::NotRun => "not-run",
        }
    }

    /// Whether the test passed: `Some(true)` for `pass`, `Some(false)` for `fail`, `error`,
    /// `crash`, `timeout` and `exit`, `None` when the run says nothing about it (`skipped` is
    /// neutral, `not-run` unknown).
    pub fn passed(self) -> Option<bool> {
        match self {
            RunOutcome::Pass => Some(true),
            RunOutcome::Skipped | RunOutcome::NotRun => None,
            RunOutcome::Fail
            | RunOutcome::Error
            | RunOutcome::Crash
            | RunOutcome::Timeout
            | RunOutcome::Exit => Some(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_run_outcome_is_named_as_on_the_wire() {
        for o in RunOutcome::ALL {
            assert_eq!(serde_json::to_value(o).unwrap(), o.name());
        }
        let names: std::collections::HashSet<_> = RunOutcome::ALL.map(RunOutcome::name).into();
        assert_eq!(names.len(), RunOutcome::ALL.len());
    }

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

    #[test]
    fn run_outcomes_are_kebab_case_and_sorted_into_pass_not_pass_unknown() {
        let parse = |s: &str| serde_json::from_str::<RunOutcome>(&format!("\"{s}\"")).unwrap();
        assert_eq!(parse("not-run"), RunOutcome::NotRun);
        assert_eq!(parse("pass").passed(), Some(true));
        for bad in ["fail", "error", "crash", "timeout", "exit"] {
            assert_eq!(parse(bad).passed(), Some(false), "{bad}");
        }
        assert_eq!(parse("skipped").passed(), None);
        assert_eq!(parse("not-run").passed(), None);
        assert!(serde_json::from_str::<RunOutcome>(r#""not_run""#).is_err());
    }
}
