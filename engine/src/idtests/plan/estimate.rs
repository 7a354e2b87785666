//! What the searches are predicted to take ([`super`], step 3; docs/id-tests.md, "Estimates"):
//! each candidate's from the counted calls it made in its failing run of phase 1, scaled by what
//! the searches that ended took against their own prediction.

use crate::model::experiment::TestResult;
use crate::model::testid::is_invocation_of;

use super::Planner;

/// Experiments predicted for a search whose test's calls are not known (an agent that does not
/// count them per test): about what commons-jxpath's took (122 for 15 tests).
pub const SEARCH_PRIOR: usize = 8;

impl Planner<'_> {
    /// The counted calls `test` made in `results` (its invocations' together), when the agent
    /// counted them.
    pub(super) fn test_calls(test: &str, results: &[TestResult]) -> Option<u64> {
        results
            .iter()
            .filter(|r| r.test == test || is_invocation_of(&r.test, test))
            .filter_map(|r| r.calls)
            .reduce(|a, b| a + b)
    }

    /// The experiments a search is predicted to take when its test made `calls` counted calls in
    /// its failing run: alone without shuffling and alone under a seed; with one call, that run
    /// pins and classifies it; with more, a bisection of about log2 of them, its last call's
    /// run and the run with every call permuted alike. At most the budget.
    ///
    /// With shared JVMs the runs alone go there and a pin runs once more in a fresh JVM
    /// (`confirm-pin`), which also classifies a one-call test: one experiment more. Returns the
    /// experiments and, of them, those in fresh JVMs.
    pub(super) fn search_model(&self, calls: Option<u64>) -> (usize, usize) {
        // ⌈log2 m⌉ for m ≥ 2
        let halvings = |m: u64| (u64::BITS - (m - 1).leading_zeros()) as usize;
        let (model, fresh) = match (calls, self.request.shared) {
            (None, _) => (SEARCH_PRIOR, SEARCH_PRIOR),
            (Some(0 | 1), false) => (2, 2),
            (Some(0 | 1), true) => (3, 1),
            (Some(m), false) => (4 + halvings(m), 4 + halvings(m)),
            (Some(m), true) => (5 + halvings(m), 2),
        };
        let model = model.min(self.budget.max(2));
        (model, fresh.min(model))
    }

    /// Experiments left from the current search on: `models` are the predictions of it and of the
    /// searches after it, `spent` what it ran so far; the searches that ended took `actual`
    /// against `predicted`, a ratio that scales the rest (drawn towards 1 by one search's worth
    /// of [`SEARCH_PRIOR`] while few ended).
    pub(super) fn experiments_left(
        actual: usize,
        predicted: usize,
        models: &[usize],
        spent: usize,
    ) -> usize {
        let ratio = (actual + SEARCH_PRIOR) as f64 / (predicted + SEARCH_PRIOR) as f64;
        let Some((current, rest)) = models.split_first() else {
            return 0;
        };
        let current = ((*current as f64 * ratio).round() as usize)
            .saturating_sub(spent)
            .max(1);
        let rest: usize = rest.iter().sum();
        current + (rest as f64 * ratio).round() as usize
    }

    /// Of `left` experiments, those predicted in fresh JVMs: `left` in the share the searches'
    /// `fresh` predictions have of their `models`.
    pub(super) fn fresh_left(left: usize, models: &[usize], fresh: &[usize]) -> usize {
        let all: usize = models.iter().sum();
        if all == 0 {
            return left;
        }
        let share = fresh.iter().sum::<usize>() as f64 / all as f64;
        ((left as f64 * share).round() as usize).min(left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::outcome::RunOutcome;

    fn with_calls(test: &str, calls: Option<u64>) -> TestResult {
        let mut r = TestResult::new(test, RunOutcome::Fail);
        r.calls = calls;
        r
    }

    #[test]
    fn a_tests_calls_sum_its_invocations_and_are_unknown_when_not_counted() {
        let results = vec![
            with_calls("a.B#m[1]", Some(3)),
            with_calls("a.B#m[2]", Some(4)),
            with_calls("a.B#n", None),
            with_calls("a.C#m", Some(9)),
        ];
        assert_eq!(Planner::test_calls("a.B#m", &results), Some(7));
        assert_eq!(Planner::test_calls("a.B#n", &results), None);
        assert_eq!(Planner::test_calls("a.B#x", &results), None);
    }

    #[test]
    fn the_rest_is_scaled_by_what_ended_searches_took() {
        // nothing ended: the models as they are, the current one less what it ran (at least 1)
        assert_eq!(Planner::experiments_left(0, 0, &[7, 2, 2], 0), 11);
        assert_eq!(Planner::experiments_left(0, 0, &[7, 2, 2], 9), 5);
        // the ended searches took twice their prediction: (16 + 8) / (8 + 8) = 1.5
        assert_eq!(Planner::experiments_left(16, 8, &[2, 4], 0), 3 + 6);
        assert_eq!(Planner::experiments_left(16, 8, &[], 0), 0);
    }

    #[test]
    fn the_fresh_share_follows_the_predictions() {
        // fresh searches: all of them; shared ones: 1 of 3 and 2 of 8
        assert_eq!(Planner::fresh_left(11, &[7, 2, 2], &[7, 2, 2]), 11);
        assert_eq!(Planner::fresh_left(22, &[3, 8], &[1, 2]), 6);
        assert_eq!(Planner::fresh_left(5, &[], &[]), 5);
    }
}
