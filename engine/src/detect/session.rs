//! Sessions: the replay state of one detection run kept between calls, so that a call sends only
//! the experiments recorded since the last one (`docs/protocol.md`, "Sessions").
//!
//! Without a session, [`super::next`] and [`super::summary`] replay the whole history on every
//! call: parsing it alone is O(history x results), which made a long run quadratic (issue 16:
//! ~1.4 s per experiment on a 926-test module after 865 experiments). A session keeps the state
//! [`Replay::run`] would reach and feeds it the new records with the same code
//! ([`Replay::feed`]), so its answers are the answers of a full replay of the same history.
//!
//! The state lives in this process (the engine library loaded by Maven, or one CLI call) and is
//! lost with it; a caller that finds its session gone ([`EngineError::SessionLost`]) starts it
//! again with the whole history. At most [`MAX_SESSIONS`] are kept; the least recently used goes
//! first.

use std::sync::{Arc, Mutex};

use super::config::DetectConfig;
use super::findings::{NextStep, Summary};
use super::replay::{step, Replay};
use crate::error::EngineError;
use crate::model::experiment::ExperimentRecord;
use crate::model::suite::Suite;

/// Sessions kept at once (a reactor's modules detect one after the other: one is in use).
pub const MAX_SESSIONS: usize = 8;

/// The sessions, least recently used first.
static SESSIONS: Mutex<Vec<(String, Replay)>> = Mutex::new(Vec::new());

/// Where a call stands in its session.
#[derive(Debug)]
pub struct SessionCall<'r> {
    /// The session's name, chosen by the caller (unique per run).
    pub id: &'r str,
    /// How many records of the history came before `records` (0 starts the session anew).
    pub from: usize,
    /// The suite: needed when `from` is 0, ignored otherwise.
    pub suite: Option<Suite>,
    /// The records from `from` on.
    pub records: &'r [ExperimentRecord],
}

/// [`super::next`] in a session.
///
/// Errors: as [`super::next`]; [`EngineError::SessionLost`] when the session is not at `from`;
/// [`EngineError::BadRequest`] without a suite at `from` 0, or when the configuration changed
/// other than `stop_rounds`.
pub fn next(config: &DetectConfig, call: SessionCall<'_>) -> Result<NextStep, EngineError> {
    with_state(config, call, "detect_next", |state| {
        step(state, config.stop_rounds)
    })
}

/// [`super::summary`] in a session. Errors: as [`next`].
pub fn summary(config: &DetectConfig, call: SessionCall<'_>) -> Result<Summary, EngineError> {
    with_state(config, call, "detect_summary", |state| {
        state.summarize(state.experiments)
    })
}

/// Forgets session `id`; whether it was kept.
pub fn end(id: &str) -> bool {
    let mut sessions = lock();
    let before = sessions.len();
    sessions.retain(|(name, _)| name != id);
    sessions.len() != before
}

fn lock() -> std::sync::MutexGuard<'static, Vec<(String, Replay)>> {
    // A panic while a session was taken out leaves the list itself consistent.
    SESSIONS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn with_state<R>(
    config: &DetectConfig,
    call: SessionCall<'_>,
    op: &str,
    answer: impl FnOnce(&Replay) -> R,
) -> Result<R, EngineError> {
    // The state is taken out while it is fed: a record that does not follow the plan leaves no
    // half-fed session behind.
    let kept = {
        let mut sessions = lock();
        sessions
            .iter()
            .position(|(name, _)| name == call.id)
            .map(|at| sessions.remove(at).1)
    };
    let mut state = if call.from == 0 {
        let Some(suite) = call.suite else {
            return Err(EngineError::bad_request(
                op,
                "a session starts (history_from 0) with the suite",
            ));
        };
        Replay::new(Arc::new(config.clone()), Arc::new(suite), op)?
    } else {
        let Some(mut state) = kept.filter(|s| s.experiments == call.from) else {
            return Err(EngineError::SessionLost {
                session: call.id.to_string(),
                from: call.from,
            });
        };
        if *state.config != *config {
            let mut same = (*state.config).clone();
            same.stop_rounds = config.stop_rounds;
            if same != *config {
                return Err(EngineError::bad_request(
                    op,
                    format!(
                        "the configuration of session `{}` changed (only stop_rounds may): \
                         start it again with history_from 0",
                        call.id
                    ),
                ));
            }
            state.config = Arc::new(config.clone());
        }
        state
    };
    for record in call.records {
        state.feed(record)?;
    }
    let answer = answer(&state);
    let mut sessions = lock();
    sessions.retain(|(name, _)| name != call.id);
    if sessions.len() >= MAX_SESSIONS {
        sessions.remove(0);
    }
    sessions.push((call.id.to_string(), state));
    Ok(answer)
}
