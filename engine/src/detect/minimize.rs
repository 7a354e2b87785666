//! The hand-off to [`crate::explain`]: the explanation of an OD test from the outcomes observed
//! so far, its next experiment, and notes when it is cut short.

use super::replay::{OdTest, Replay};
use crate::explain::minimize::{explain, Explanation, Query, Stage, Subject};
use crate::model::kind::FlakyKind;
use crate::model::kind::OdRole;
use crate::model::suite::SuiteIndex;

impl Replay<'_> {
    /// Minimization experiments run for `od` so far.
    pub(super) fn spent_on(&self, od: &OdTest) -> u32 {
        self.spent.get(&od.test).copied().unwrap_or(0)
    }

    /// What the outcomes observed so far explain about `od`, and the experiment it needs next;
    /// `None` when `od` is not explained (minimization off, not selected, not a victim or
    /// brittle).
    pub(super) fn explain(&self, od: &OdTest) -> Option<(Explanation, Option<Query>)> {
        if !self.config.minimize {
            return None;
        }
        if let Some(only) = &self.config.minimize_only {
            if !only.iter().any(|t| *t == od.test || *t == od.unit) {
                return None;
            }
        }
        let role = self.kind_of(od).role()?;
        let order = match role {
            OdRole::Victim => &od.fail_order,
            OdRole::Brittle => &od.pass_order,
        };
        let at = order
            .iter()
            .position(|u| *u == od.unit)
            .unwrap_or(order.len());
        let subject = Subject {
            test: &od.test,
            unit: &od.unit,
            role,
            prefix: &order[..at],
        };
        let observed = |order: &[String]| self.observed.get(order).map(|r| r.passed(&od.test));
        let index = SuiteIndex::new(self.suite);
        let same_class = |a: &str, b: &str| match (index.get(a), index.get(b)) {
            (Some(x), Some(y)) => x.record == y.record,
            _ => false,
        };
        Some(explain(subject, &self.original, &observed, &same_class))
    }

    /// Notes about the explanation of `od`: cut short by the budget or the time budget, no
    /// polluter found, cleaners not all tried.
    pub(super) fn describe(
        &self,
        od: &OdTest,
        explanation: &Explanation,
        pending: bool,
        notes: &mut Vec<String>,
    ) {
        let budget = self.config.minimize_budget;
        let (culprit, culprits) = if self.kind_of(od) == FlakyKind::VICTIM {
            ("polluter", "polluters")
        } else {
            ("state-setter", "state-setters")
        };
        if pending {
            let during = match &explanation.stage {
                Stage::Search => format!("during the delta-debugging search for {culprits}"),
                Stage::Singles { tried, of } => {
                    format!("after trying {tried} of {of} tests as single {culprits}")
                }
                Stage::Cleaners {
                    polluter,
                    tried,
                    of,
                } => format!(
                    "after trying {tried} of {of} cleaner candidates of polluter `{polluter}`"
                ),
                Stage::Done => String::new(),
            };
            let partial = if explanation.culprits.is_empty() {
                ""
            } else {
                "; what was found is reported, and its flake rates count only that"
            };
            if self.spent_on(od) >= budget {
                notes.push(format!(
                    "explaining `{}` stopped at its budget of {budget} experiments {during} (raise -Dodrust.minimize.budget to go further){partial}",
                    od.test
                ));
            } else {
                notes.push(format!(
                    "explaining `{}` is not finished ({during}){partial}",
                    od.test
                ));
            }
        } else if explanation.culprits.is_empty() {
            notes.push(format!(
                "no {culprit} of `{}` was found among the tests that ran before it: it may depend on something outside the suite's tests",
                od.test
            ));
        }
    }
}
