//! The repair planner's candidates: which cleaners or state-setters (or reset methods) of a
//! target are worth trying, best first, and which cannot be used and why (step 2 of
//! [`super::plan`]).

use super::shapes::{FixSource, RepairTarget, SourceOrigin, SourceRef, Tried};
use crate::model::kind::OdRole;
use crate::model::testid::class_of;

/// A candidate source, paired with the order that minimizes it.
pub(super) struct Candidate<'a> {
    /// The cleaner or state-setter.
    pub(super) source: &'a FixSource,
    /// The polluter it cleans after (victims).
    pub(super) polluter: Option<String>,
    /// The order that minimizes it: `[p, v]` or `[b]` (`[p, v1, .., vn]`, `[b1, .., bn]` for a
    /// cause of several tests).
    pub(super) oracle: Vec<String>,
}

/// The usable candidates, best first; the unusable ones as tried; and how many of those are
/// cleaners that detect showed do not clean after another polluter of the target ([`uncleaned`]).
pub(super) fn candidates(t: &RepairTarget) -> (Vec<Candidate<'_>>, Vec<Tried>, usize) {
    let own_class = class_of(&t.test);
    let mut ranked: Vec<(usize, bool, usize, Candidate<'_>)> = Vec::new();
    let mut unusable = Vec::new();
    let mut uncleaned_count = 0;
    let singles: Vec<&String> = t
        .polluters
        .iter()
        .filter(|g| g.len() == 1)
        .map(|g| &g[0])
        .collect();
    for (i, s) in t.sources.iter().enumerate() {
        let (cleans, polluter) = match t.kind {
            OdRole::Victim if s.origin == SourceOrigin::ResetMethod => match singles.first() {
                // after every cleaner: ranked as cleaning no polluter
                Some(p) => (0, Some((*p).clone())),
                None => continue,
            },
            OdRole::Brittle if s.origin == SourceOrigin::ResetMethod => continue,
            OdRole::Victim => {
                let cleans: Vec<&String> = singles
                    .iter()
                    .copied()
                    .filter(|p| t.cleaners.get(*p).is_some_and(|c| c.contains(&s.test)))
                    .collect();
                match cleans.first() {
                    Some(p) => (cleans.len(), Some((*p).clone())),
                    None => continue,
                }
            }
            OdRole::Brittle => {
                if !t
                    .state_setters
                    .iter()
                    .any(|g| g.len() == 1 && g[0] == s.test)
                {
                    continue;
                }
                (1, None)
            }
        };
        if let Some(why) = &s.unusable {
            unusable.push(Tried {
                source: source_ref(t, &s.test, polluter.as_ref()),
                placement: None,
                statements: Vec::new(),
                why: why.clone(),
            });
            continue;
        }
        if s.statements == 0 || s.placements.is_empty() {
            unusable.push(Tried {
                source: source_ref(t, &s.test, polluter.as_ref()),
                placement: None,
                statements: Vec::new(),
                why: if s.statements == 0 {
                    "its body has no statements to copy".to_string()
                } else {
                    "there is no place to put its statements".to_string()
                },
            });
            continue;
        }
        if let (OdRole::Victim, SourceOrigin::Test, Some(p)) = (t.kind, s.origin, &polluter) {
            if let Some(q) = uncleaned(t, &s.test, &singles) {
                uncleaned_count += 1;
                unusable.push(Tried {
                    source: source_ref(t, &s.test, polluter.as_ref()),
                    placement: None,
                    statements: Vec::new(),
                    why: format!(
                        "not run: it cleans after {p} but not after {q}, another polluter of {}: \
                         detect's search for cleaners after {q} ran to the end without finding \
                         it, and a patch must also pass with {q} first (the \
                         recorded-failing-order check [{q}, {}])",
                        t.test,
                        t.members().join(", ")
                    ),
                });
                continue;
            }
        }
        // Every test of the cause after the polluter (a victim) or by themselves (brittles).
        let mut oracle: Vec<String> = polluter.iter().cloned().collect();
        oracle.extend(t.members());
        ranked.push((
            usize::MAX - cleans,
            class_of(&s.test) != own_class,
            i,
            Candidate {
                source: s,
                polluter,
                oracle,
            },
        ));
    }
    ranked.sort_by_key(|r| (r.0, r.1, r.2));
    (
        ranked.into_iter().map(|r| r.3).collect(),
        unusable,
        uncleaned_count,
    )
}

/// A single polluter of victim `t`, other than those `cleaner` cleans after, whose cleaner search
/// in detect ran to the end and did not find `cleaner`, though it was one of that search's
/// candidates: `[q, cleaner, t]` fails `t`. A patch of `cleaner`'s statements must pass the check
/// `[q, t, ..]` ([`super::checks::checks`]) and would be rejected there after its minimization
/// (light-4j: a cause's whole budget). The patch runs the statements in `t`'s setup or test, or
/// the polluter's teardown, not the cleaner test itself, so this rests on detect's evidence; the
/// `tried` entry says so.
fn uncleaned<'t>(t: &'t RepairTarget, cleaner: &str, singles: &[&'t String]) -> Option<&'t String> {
    // A polluter group among a search's candidates can pollute again after a cleaner and hide it
    // (docs/minimize-algorithm.md, "Guarantee"): with one, a cleaner not found may still be one.
    if !t.explanation_complete
        || singles.iter().any(|p| *p == cleaner)
        || t.polluters.iter().any(|g| g.len() > 1)
    {
        return None;
    }
    let own_class = class_of(&t.test);
    singles.iter().copied().find(|q| {
        // When `q` is in the victim's class, its search tried only tests of that class (nothing
        // else can run between them in a JUnit run), so a cleaner of another class was not asked.
        let asked = class_of(q) != own_class || class_of(cleaner) == own_class;
        asked
            && t.cleaners
                .get(*q)
                .is_some_and(|found| !found.iter().any(|c| c == cleaner))
    })
}

/// What the target's fix sources are called: `cleaner` or `state-setter`.
pub(super) fn source_kind(target: &RepairTarget) -> &'static str {
    match target.kind {
        OdRole::Victim => "cleaner",
        OdRole::Brittle => "state-setter",
    }
}

/// The [`SourceRef`] of a fix source of `target`.
pub(super) fn source_ref(
    target: &RepairTarget,
    test: &str,
    polluter: Option<&String>,
) -> SourceRef {
    let reset = target
        .sources
        .iter()
        .any(|s| s.test == test && s.origin == SourceOrigin::ResetMethod);
    SourceRef {
        kind: if reset {
            "reset-method".to_string()
        } else {
            source_kind(target).to_string()
        },
        test: test.to_string(),
        polluter: polluter.cloned(),
    }
}

/// Why there is no candidate at all.
pub(super) fn no_source_reason(target: &RepairTarget) -> String {
    let unfinished = if target.explanation_complete {
        String::new()
    } else {
        format!(
            "; its explanation did not finish, so one may exist: run `mvn odrust:minimize \
             -Dodrust.test={}` with a larger -Dodrust.minimize.budget, then repair again",
            target.test
        )
    };
    match target.kind {
        OdRole::Victim
            if target.polluters.iter().all(|g| g.len() != 1) && !target.polluters.is_empty() =>
        {
            format!(
            "no cleaner known: no single test pollutes it (its polluters act only together), and \
             cleaners are searched for single polluters{unfinished}"
        )
        }
        OdRole::Victim => format!(
            "no cleaner known: detect found no test that, run between a polluter and this \
             victim, makes it pass{unfinished}"
        ),
        OdRole::Brittle => format!(
            "no state-setter known: detect found no single test that makes it pass when run \
             before it{unfinished}"
        ),
    }
}
