//! A part of a split cause: candidates the cause before its split ran with their whole body, where
//! none of the part's tests passed, are not run again (`RepairTarget::ruled_out`).

use super::*;

fn ruled_out(placement: Placement, polluter: &str, experiment: usize) -> RuledOut {
    RuledOut {
        source: C.to_string(),
        placement,
        polluter: Some(polluter.to_string()),
        experiment,
        order: vec![P.to_string(), V.to_string(), W.to_string()],
    }
}

const PLACEMENTS: [Placement; 3] = [
    Placement::Setup,
    Placement::PolluterTeardown,
    Placement::Test,
];

#[test]
fn a_split_part_does_not_run_again_what_the_cause_before_it_ran_whole_where_its_tests_failed() {
    let mut target = cause_target(&[], &PLACEMENTS);
    target.ruled_out = vec![
        ruled_out(Placement::Setup, P, 7),
        // another polluter's run says nothing about this candidate, which cleans after P
        ruled_out(Placement::PolluterTeardown, P2, 8),
    ];
    let mut r = request(target);
    let (outcome, history) = drive(&mut r, &Cause { v2_victim: false });
    // The setup would have worked in this world: that it did not run shows it was skipped.
    assert!(
        history
            .iter()
            .all(|r| r.experiment.placement != Some(Placement::Setup)),
        "{history:?}"
    );
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.placement, Some(Placement::PolluterTeardown));
    assert_eq!(outcome.tried.len(), 1, "{:?}", outcome.tried);
    let skipped = &outcome.tried[0];
    assert_eq!(skipped.placement, Some(Placement::Setup));
    assert_eq!(skipped.statements, vec![0, 1, 2]);
    assert!(
        skipped.why.contains("(experiment 7)") && skipped.why.contains("not run again"),
        "{}",
        skipped.why
    );
}

#[test]
fn a_split_part_whose_every_candidate_was_ruled_out_runs_nothing_and_says_why() {
    let mut target = cause_target(&[], &PLACEMENTS);
    target.ruled_out = PLACEMENTS
        .iter()
        .enumerate()
        .map(|(i, &p)| ruled_out(p, P, i + 2))
        .collect();
    let mut r = request(target);
    let (outcome, history) = drive(&mut r, &Cause { v2_victim: false });
    assert!(history.is_empty(), "{history:?}");
    assert_eq!(outcome.status, RepairStatus::Rejected, "{outcome:?}");
    assert_eq!(outcome.experiments, 0);
    let placements: Vec<_> = outcome.tried.iter().map(|t| t.placement).collect();
    assert_eq!(placements, PLACEMENTS.map(Some).to_vec());
    let reason = outcome.reason.unwrap();
    assert!(reason.contains("none run again"), "{reason}");
}

#[test]
fn a_ruled_out_candidate_travels_with_the_target_only_when_there_is_one() {
    let target = cause_target(&[], &PLACEMENTS);
    let json = serde_json::to_value(&target).unwrap();
    assert!(json.get("ruled_out").is_none(), "{json}");
    let mut with = target;
    with.ruled_out = vec![ruled_out(Placement::Setup, P, 3)];
    let json = serde_json::to_value(&with).unwrap();
    assert_eq!(json["ruled_out"][0]["placement"], "setup");
    let back: RepairTarget = serde_json::from_value(json).unwrap();
    assert_eq!(back.ruled_out, with.ruled_out);
}
