//! The engine's one error type.
//!
//! Every fallible operation in the engine returns [`EngineError`]. Each variant carries the input
//! that failed (the id, the file, the line) so that its message can be shown to a user as is, and
//! maps to one of the stable error codes of `docs/protocol.md` through [`EngineError::code`]. The
//! JNI layer turns the code and message into an `EngineException`; the CLI prints them as
//! `error[<code>]: <message>`.

use std::path::PathBuf;

/// Why a text is not a test id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// The text is empty.
    #[error("the id is empty")]
    Empty,
    /// There is no method part (no `#`, and no `.` for the dotted form).
    #[error("expected `Class#method` (or `pkg.Class.method`)")]
    NoMethod,
    /// The class part is not a dot-separated list of Java identifiers.
    #[error("`{class}` is not a Java class name")]
    BadClass {
        /// The class part that failed.
        class: String,
    },
    /// The method part does not start with a Java identifier.
    #[error("`{method}` does not start with a JVM method name")]
    BadMethod {
        /// The method part that failed.
        method: String,
    },
    /// The method name is followed by something other than one `[...]` suffix.
    #[error("`{method}` has text after the method name that is not an invocation suffix `[...]`")]
    BadSuffix {
        /// The method part that failed.
        method: String,
    },
}

/// The hint every "unknown test" message ends with.
const DISCOVER_HINT: &str = "run `mvn odrust:discover` to list the module's tests";

/// An error produced by the engine. The [`Display`](std::fmt::Display) form is the message a user
/// sees; [`code`](EngineError::code) is the stable machine-readable code.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The request of `op` was not valid JSON, lacked a field, or had a value out of range.
    #[error("bad request for op `{op}`: {reason}")]
    BadRequest {
        /// The op whose request was bad.
        op: String,
        /// What was wrong, usually serde's message.
        reason: String,
    },

    /// `op` is not one of the ops this engine knows.
    #[error("unknown op `{op}`; known ops: {}", known.join(", "))]
    UnknownOp {
        /// The op that was asked for.
        op: String,
        /// Every op the engine knows.
        known: Vec<&'static str>,
    },

    /// An id of an order is not a test of the suite.
    #[error(
        "unknown test id `{id}` in {origin}{}{}; {hint}",
        suggestion_text(suggestions),
        more_text(*more_unknown),
        hint = DISCOVER_HINT
    )]
    UnknownTest {
        /// The id as the user wrote it.
        id: String,
        /// Where the order came from (a file name, or `-Dodrust.order`).
        origin: String,
        /// Up to three known ids that are closest to `id`, best first.
        suggestions: Vec<String>,
        /// How many other ids of the same order are unknown too.
        more_unknown: usize,
    },

    /// An id in the dotted `pkg.Class.method` form matches more than one test of the suite.
    #[error(
        "ambiguous test `{id}` in {origin}: it matches {}; write the id as `Class#method`",
        quoted(candidates)
    )]
    AmbiguousTest {
        /// The id as the user wrote it.
        id: String,
        /// Where the order came from.
        origin: String,
        /// Every suite id the dotted form matches.
        candidates: Vec<String>,
    },

    /// A line of an order is not a test id.
    #[error("malformed order in {origin}, line {line}: `{text}` is not a test id: {kind}")]
    MalformedOrder {
        /// Where the order came from.
        origin: String,
        /// The 1-based line number.
        line: usize,
        /// The offending text (one id of the line).
        text: String,
        /// Why the text is not a test id.
        kind: IdError,
    },

    /// An order lists no test at all.
    #[error("the order in {origin} lists no test (only blank lines and `#` comments)")]
    EmptyOrder {
        /// Where the order came from.
        origin: String,
    },

    /// A file or directory could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The path that could not be read.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },

    /// A Surefire XML report could not be parsed.
    #[error("cannot parse Surefire report {}: {reason}", file.display())]
    BadReport {
        /// The report file.
        file: PathBuf,
        /// What was wrong with it.
        reason: String,
    },

    /// A class file could not be parsed (truncated, not a class file, a version newer than the
    /// reader knows, or malformed inside).
    #[error("cannot parse class file {}: {reason}", file.display())]
    BadClassFile {
        /// The class file.
        file: PathBuf,
        /// What is malformed, and at which byte.
        reason: String,
    },

    /// A detection setting has a value the engine cannot use.
    #[error("bad odrust setting `{setting}` = `{value}`: {reason}")]
    BadConfig {
        /// The setting, as the plugin names it (`strategy`, `rounds`, ...).
        setting: String,
        /// The value it had.
        value: String,
        /// Why it is not usable, and what is.
        reason: String,
    },

    /// A detection history is not what the planner would have planned for this configuration and
    /// suite (a different seed, strategy or suite than when it was recorded, or an edited file).
    #[error(
        "experiment {id} of the detection history does not follow the plan: {reason}; the history \
         was recorded with other settings or another suite; delete target/odrust/detect to start over"
    )]
    BadHistory {
        /// The 1-based position of the first record that does not follow the plan.
        id: usize,
        /// How it differs.
        reason: String,
    },

    /// A run record of `-Dodrust.history` (docs/history.md) is not one odrust can read: edited,
    /// cut short, of another schema, or two records of one run.
    #[error("history record {file}: {reason}")]
    BadRunRecord {
        /// The record's file, as the plugin named it.
        file: String,
        /// What is wrong with it, and what to do.
        reason: String,
    },

    /// The quarantine file (docs/history.md, "Quarantine") is not one odrust can read: not JSON,
    /// an unknown key, a missing owner, a date that is not a date.
    #[error("quarantine file {file}{}: {reason}", entry.map(|e| format!(", entry {e}")).unwrap_or_default())]
    BadQuarantine {
        /// The file.
        file: String,
        /// The entry (from 1), when one is wrong.
        entry: Option<usize>,
        /// What is wrong, and what to write instead.
        reason: String,
    },

    /// A detection session (`docs/protocol.md`, "Sessions") is not kept, or not at the position
    /// the request continues from: the caller starts it again with the whole history.
    #[error(
        "detection session `{session}` is not kept at experiment {from} (this engine process \
         does not hold it, or it was forgotten): send the whole history with history_from 0"
    )]
    SessionLost {
        /// The session's name.
        session: String,
        /// Where the request continued from.
        from: usize,
    },

    /// The engine panicked. Only the JNI layer produces this variant, from a caught panic.
    #[error(
        "odrust engine panicked{}: {payload}. This is a bug in odrust; please report it.",
        location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default()
    )]
    Panic {
        /// The panic payload, if it was a string.
        payload: String,
        /// Where it panicked (`file:line:column` in the engine's sources), when known.
        location: Option<String>,
    },
}

impl EngineError {
    /// The stable error code of `docs/protocol.md` (`bad-request`, `unknown-op`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::BadRequest { .. } => "bad-request",
            EngineError::UnknownOp { .. } => "unknown-op",
            EngineError::UnknownTest { .. } | EngineError::AmbiguousTest { .. } => "unknown-test",
            EngineError::MalformedOrder { .. } => "malformed-order",
            EngineError::EmptyOrder { .. } => "empty-order",
            EngineError::Io { .. } => "io",
            EngineError::BadReport { .. } => "bad-report",
            EngineError::BadClassFile { .. } => "bad-class-file",
            EngineError::BadConfig { .. } => "bad-config",
            EngineError::BadHistory { .. } => "bad-history",
            EngineError::BadRunRecord { .. } => "bad-run-record",
            EngineError::BadQuarantine { .. } => "bad-quarantine",
            EngineError::SessionLost { .. } => "session-lost",
            EngineError::Panic { .. } => "panic",
        }
    }

    /// Every error code, in the order of `docs/protocol.md`.
    pub const CODES: [&'static str; 14] = [
        "bad-request",
        "unknown-op",
        "unknown-test",
        "malformed-order",
        "empty-order",
        "io",
        "bad-report",
        "bad-class-file",
        "bad-config",
        "bad-history",
        "bad-run-record",
        "bad-quarantine",
        "session-lost",
        "panic",
    ];

    /// Whether the user can fix it (a wrong setting, test id, order or file), as opposed to a bug
    /// in odrust (a bad request between plugin and engine, a panic). The plugin turns the first
    /// kind into a build failure with the message alone, the second into an error with its cause.
    pub fn is_user_error(&self) -> bool {
        is_user_code(self.code())
    }

    /// A [`EngineError::BadRequest`] for `op`.
    pub(crate) fn bad_request(op: &str, reason: impl std::fmt::Display) -> Self {
        EngineError::BadRequest {
            op: op.to_string(),
            reason: reason.to_string(),
        }
    }
}

/// Whether errors with `code` are the user's to fix (see [`EngineError::is_user_error`]).
pub fn is_user_code(code: &str) -> bool {
    !matches!(
        code,
        "bad-request" | "unknown-op" | "session-lost" | "panic"
    )
}

fn quoted(ids: &[String]) -> String {
    ids.iter()
        .map(|id| format!("`{id}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn suggestion_text(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!("; closest known tests: {}", quoted(suggestions))
    }
}

fn more_text(more: usize) -> String {
    match more {
        0 => String::new(),
        1 => "; 1 other id of the order is unknown too".to_string(),
        n => format!("; {n} other ids of the order are unknown too"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_protocol() {
        let io = EngineError::Io {
            path: PathBuf::from("/x"),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        };
        assert_eq!(io.code(), "io");
        assert!(io.to_string().contains("/x"));
        assert_eq!(
            EngineError::bad_request("version", "x").code(),
            "bad-request"
        );
        let empty = EngineError::EmptyOrder {
            origin: "orders/a.txt".into(),
        };
        assert_eq!(empty.code(), "empty-order");
        assert!(empty.to_string().contains("orders/a.txt"));
        let panic = EngineError::Panic {
            payload: "boom".into(),
            location: None,
        };
        assert_eq!(panic.code(), "panic");
        assert!(!panic.is_user_error());
        let config = EngineError::BadConfig {
            setting: "strategy".into(),
            value: "sideways".into(),
            reason: "valid strategies: original".into(),
        };
        assert_eq!(config.code(), "bad-config");
        assert!(config.to_string().contains("`sideways`"), "{config}");
        let history = EngineError::BadHistory {
            id: 4,
            reason: "x".into(),
        };
        assert_eq!(history.code(), "bad-history");
        assert!(history.is_user_error() && config.is_user_error() && io.is_user_error());
        assert!(!EngineError::bad_request("version", "x").is_user_error());
        assert!(
            history.to_string().starts_with("experiment 4 "),
            "{history}"
        );
        assert_eq!(
            panic.to_string(),
            "odrust engine panicked: boom. This is a bug in odrust; please report it."
        );
        let located = EngineError::Panic {
            payload: "boom".into(),
            location: Some("engine/src/x.rs:3:9".into()),
        };
        assert_eq!(
            located.to_string(),
            "odrust engine panicked at engine/src/x.rs:3:9: boom. This is a bug in odrust; please report it."
        );
    }

    #[test]
    fn every_code_is_listed_once() {
        let mut codes = EngineError::CODES.to_vec();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), EngineError::CODES.len());
        let users: Vec<&str> = EngineError::CODES
            .into_iter()
            .filter(|c| is_user_code(c))
            .collect();
        assert_eq!(
            users,
            [
                "unknown-test",
                "malformed-order",
                "empty-order",
                "io",
                "bad-report",
                "bad-class-file",
                "bad-config",
                "bad-history",
                "bad-run-record",
                "bad-quarantine"
            ]
        );
    }

    #[test]
    fn unknown_test_message_names_id_suggestions_and_hint() {
        let e = EngineError::UnknownTest {
            id: "a.B#c".into(),
            origin: "o.txt".into(),
            suggestions: vec!["a.B#d".into()],
            more_unknown: 2,
        };
        let msg = e.to_string();
        assert_eq!(e.code(), "unknown-test");
        assert!(msg.contains("`a.B#c`"), "{msg}");
        assert!(msg.contains("closest known tests: `a.B#d`"), "{msg}");
        assert!(msg.contains("2 other ids"), "{msg}");
        assert!(msg.ends_with(DISCOVER_HINT), "{msg}");
    }
}
