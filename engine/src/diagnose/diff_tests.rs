use super::*;
use crate::diagnose::capture::parse;

/// A capture whose body is `body`.
fn capture(body: &str) -> Capture {
    let xml = format!(
        "<capture version=\"1\" test=\"com.acme.VTest#v\" occurrence=\"1\">{body}</capture>"
    );
    parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"))
}

/// A capture with one initialized class `com.acme.S` holding `statics` (`(field, final, node)`).
fn statics(fields: &[(&str, bool, &str)]) -> Capture {
    let mut body = String::from(r#"<class name="com.acme.S" initialized="true">"#);
    for (field, is_final, node) in fields {
        body.push_str(&format!(
            r#"<static field="{field}" type="java.lang.Object" final="{is_final}">{node}</static>"#
        ));
    }
    body.push_str("</class>");
    capture(&body)
}

/// The diff of one static field `com.acme.S.F` between two values.
fn field_diff(failing: &str, passing: &str) -> Vec<FieldDiff> {
    diff(
        &statics(&[("F", false, failing)]),
        &statics(&[("F", false, passing)]),
    )
}

/// The only diff of `diffs`.
fn only(diffs: &[FieldDiff]) -> &FieldDiff {
    assert_eq!(diffs.len(), 1, "{diffs:#?}");
    &diffs[0]
}

/// The differences of a diff as `(path, failing, passing)`.
fn paths(diff: &FieldDiff) -> Vec<(&str, &str, &str)> {
    diff.differences
        .iter()
        .map(|d| (d.path.as_str(), d.failing.as_str(), d.passing.as_str()))
        .collect()
}

fn map(entries: &[(&str, &str)]) -> String {
    let mut xml = String::from(r#"<map class="java.util.HashMap">"#);
    for (key, value) in entries {
        xml.push_str(&format!("<entry>{key}{value}</entry>"));
    }
    xml.push_str("</map>");
    xml
}

fn s(text: &str) -> String {
    format!("<string>{text}</string>")
}

fn int(value: i64) -> String {
    format!(r#"<prim class="int">{value}</prim>"#)
}

fn list(items: &[String]) -> String {
    format!(
        r#"<list class="java.util.ArrayList">{}</list>"#,
        items.concat()
    )
}

fn set(items: &[String]) -> String {
    format!(r#"<set class="java.util.HashSet">{}</set>"#, items.concat())
}

fn job(name: &str, state: &str) -> String {
    format!(
        r#"<object class="com.acme.Job"><field name="name">{}</field><field name="state"><enum class="com.acme.State">{state}</enum></field></object>"#,
        s(name)
    )
}

#[test]
fn identical_captures_have_no_difference() {
    let both = statics(&[
        ("A", true, &map(&[(&s("k"), &job("j", "RUNNING"))])),
        ("B", false, &list(&[int(1), s("x")])),
    ]);
    assert_eq!(diff(&both, &both.clone()), []);
}

#[test]
fn a_nested_map_and_object_difference_has_its_path() {
    let registry = |state: &str| {
        format!(
            r#"<object class="com.acme.Registry"><field name="jobs">{}</field><field name="size">{}</field></object>"#,
            map(&[
                (&s("job-1"), &job("a", state)),
                (&s("job-2"), &job("b", "DONE")),
            ]),
            int(2)
        )
    };
    let diffs = diff(
        &statics(&[("INSTANCE", true, &registry("FAILED"))]),
        &statics(&[("INSTANCE", true, &registry("RUNNING"))]),
    );
    let d = only(&diffs);
    assert_eq!(d.field, "com.acme.S.INSTANCE");
    assert_eq!(d.kind, DiffKind::Changed);
    assert!(!d.pseudo);
    assert!(d.is_final);
    assert_eq!(
        paths(d),
        [("com.acme.S.INSTANCE.jobs[job-1].state", "FAILED", "RUNNING")]
    );
    assert_eq!(
        d.failing,
        "Registry{jobs={job-1=Job{name=a, state=FAILED}, job-2=Job{name=b, state=DONE}}, size=2}"
    );
    assert!(d.passing.contains("state=RUNNING"), "{}", d.passing);
    assert_eq!(d.more, 0);
    // A final field's contents can be set back.
    assert!(d.restorable, "{d:?}");
    assert_eq!(d.why_not, None);
}

#[test]
fn map_entries_in_another_order_are_the_same_map() {
    let one = map(&[(&s("a"), &int(1)), (&s("b"), &int(2)), (&int(1), &int(3))]);
    let other = map(&[(&int(1), &int(3)), (&s("b"), &int(2)), (&s("a"), &int(1))]);
    assert_eq!(field_diff(&one, &other), []);
    // Nested inside a set element, too.
    assert_eq!(field_diff(&set(&[one]), &set(&[other])), []);
    // The string "1" and the int 1 are different keys, both rendered `1`.
    let d = field_diff(&map(&[(&s("1"), &int(1))]), &map(&[(&int(1), &int(1))]));
    assert_eq!(
        paths(only(&d)),
        [
            ("com.acme.S.F[1]", "(absent)", "1"),
            ("com.acme.S.F[1]", "1", "(absent)")
        ]
    );
}

#[test]
fn missing_and_changed_map_keys() {
    let d = field_diff(
        &map(&[(&s("a"), &int(1)), (&s("b"), &int(2)), (&s("c"), &int(3))]),
        &map(&[(&s("b"), &int(2)), (&s("c"), &int(4)), (&s("d"), &int(5))]),
    );
    assert_eq!(
        paths(only(&d)),
        [
            ("com.acme.S.F[a]", "1", "(absent)"),
            ("com.acme.S.F[c]", "3", "4"),
            ("com.acme.S.F[d]", "(absent)", "5"),
        ]
    );
}

#[test]
fn keys_equal_by_value_more_than_once_are_matched_by_value() {
    // An identity map (or keys without equals) may hold two equal-looking keys.
    let key = job("k", "NEW");
    let failing = map(&[(&key, &int(1)), (&key, &int(2))]);
    let passing = map(&[(&key, &int(2)), (&key, &int(1))]);
    assert_eq!(field_diff(&failing, &passing), []);
    let d = field_diff(&failing, &map(&[(&key, &int(2)), (&key, &int(3))]));
    assert_eq!(
        paths(only(&d)),
        [("com.acme.S.F[Job{name=k, state=NEW}]", "1", "3")]
    );
}

#[test]
fn lists_of_different_lengths() {
    let d = field_diff(
        &list(&[int(1), int(2), int(3), int(4)]),
        &list(&[int(1), int(9)]),
    );
    assert_eq!(
        paths(only(&d)),
        [
            ("com.acme.S.F[1]", "2", "9"),
            ("com.acme.S.F[2]", "3", "(absent)"),
            ("com.acme.S.F[3]", "4", "(absent)"),
        ]
    );
    assert_eq!(only(&d).failing, "[1, 2, 3, 4]");
    assert_eq!(only(&d).passing, "[1, 9]");
    assert!(only(&d).restorable);
    let d = field_diff(
        r#"<array class="int[]" length="0"/>"#,
        &format!(r#"<array class="int[]" length="1">{}</array>"#, int(7)),
    );
    assert_eq!(paths(only(&d)), [("com.acme.S.F[0]", "(absent)", "7")]);
}

#[test]
fn set_differences_name_the_elements() {
    let d = field_diff(
        &set(&[s("a"), s("b"), s("c")]),
        &set(&[s("c"), s("b"), s("z")]),
    );
    assert_eq!(
        paths(only(&d)),
        [
            ("com.acme.S.F{a}", "a", "(absent)"),
            ("com.acme.S.F{z}", "(absent)", "z"),
        ]
    );
    // A changed element is one removed and one added.
    let d = field_diff(&set(&[job("x", "NEW")]), &set(&[job("x", "OLD")]));
    assert_eq!(
        paths(only(&d)),
        [
            (
                "com.acme.S.F{Job{name=x, state=NEW}}",
                "Job{name=x, state=NEW}",
                "(absent)"
            ),
            (
                "com.acme.S.F{Job{name=x, state=OLD}}",
                "(absent)",
                "Job{name=x, state=OLD}"
            ),
        ]
    );
}

#[test]
fn another_kind_or_class_at_a_path_is_one_difference() {
    let d = field_diff(&list(&[int(1), int(2)]), &map(&[(&int(1), &int(2))]));
    assert_eq!(paths(only(&d)), [("com.acme.S.F", "[1, 2]", "{1=2}")]);
    // Same rendering: each side says its class.
    let d = field_diff(
        &list(&[int(1)]),
        &format!(r#"<list class="java.util.LinkedList">{}</list>"#, int(1)),
    );
    assert_eq!(
        paths(only(&d)),
        [(
            "com.acme.S.F",
            "[1] (java.util.ArrayList)",
            "[1] (java.util.LinkedList)"
        )]
    );
    let d = field_diff(&list(&[int(1)]), &list(&[s("1")]));
    assert_eq!(
        paths(only(&d)),
        [("com.acme.S.F[0]", "1 (int)", "1 (java.lang.String)")]
    );
    let other_job = r#"<object class="com.acme.OtherJob"><field name="name"><string>a</string></field></object>"#;
    let d = field_diff(&job("a", "NEW"), other_job);
    assert_eq!(paths(only(&d)).len(), 1);
    assert_eq!(paths(only(&d))[0].0, "com.acme.S.F");
}

#[test]
fn cyclic_values_compare_their_refs() {
    // A node whose `next` points back at the field's own object.
    let cycle = |name: &str, to: &str| {
        format!(
            r#"<object class="com.acme.Node"><field name="name">{}</field><field name="next"><object class="com.acme.Node"><field name="name"><string>b</string></field><field name="next"><ref to="{to}"/></field></object></field></object>"#,
            s(name)
        )
    };
    assert_eq!(
        field_diff(&cycle("a", "com.acme.S.F"), &cycle("a", "com.acme.S.F")),
        []
    );
    let d = field_diff(
        &cycle("a", "com.acme.S.F"),
        &cycle("a", "com.acme.S.F.next"),
    );
    assert_eq!(
        paths(only(&d)),
        [(
            "com.acme.S.F.next.next",
            "@com.acme.S.F",
            "@com.acme.S.F.next"
        )]
    );
    assert!(only(&d).restorable);
}

#[test]
fn uninitialized_or_unloaded_classes_cannot_be_restored() {
    let failing = capture(
        r#"<class name="com.acme.A" initialized="true"><static field="x" type="int" final="false"><prim class="int">1</prim></static></class>
           <class name="com.acme.B" initialized="false"/>
           <class name="com.acme.C" initialized="true"><static field="c" type="java.util.List" final="true"><list class="L"/></static></class>"#,
    );
    let passing = capture(
        r#"<class name="com.acme.A" initialized="false"/>
           <class name="com.acme.B" initialized="true"><static field="y" type="int" final="false"><prim class="int">2</prim></static></class>"#,
    );
    let diffs = diff(&failing, &passing);
    let fields: Vec<(&str, DiffKind, &str, &str)> = diffs
        .iter()
        .map(|d| {
            (
                d.field.as_str(),
                d.kind,
                d.failing.as_str(),
                d.passing.as_str(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            (
                "com.acme.A.x",
                DiffKind::OnlyFailing,
                "1",
                "(not initialized)"
            ),
            (
                "com.acme.B.y",
                DiffKind::OnlyPassing,
                "(not initialized)",
                "2"
            ),
            ("com.acme.C.c", DiffKind::OnlyFailing, "[]", "(not loaded)"),
        ]
    );
    for d in &diffs {
        assert!(!d.restorable, "{d:?}");
        assert_eq!(d.differences.len(), 1);
        assert_eq!(d.differences[0].path, d.field);
    }
    assert!(diffs[0]
        .why_not
        .as_deref()
        .unwrap()
        .contains("a class cannot be un-initialized"));
    assert!(diffs[2].is_final);
    // Both uninitialized, or uninitialized on one side and not loaded on the other: nothing.
    let a = capture(r#"<class name="com.acme.D" initialized="false"/>"#);
    let b = capture(r#"<class name="com.acme.E" initialized="false"/>"#);
    assert_eq!(diff(&a, &b), []);
    assert_eq!(diff(&a, &a), []);
}

#[test]
fn system_properties_differ_first_and_can_be_restored() {
    let props = |zone: &str| {
        format!(
            r#"<pseudo name="java.lang.System.properties"><map class="java.util.Properties" size="2"><entry><string>java.version</string><string>17</string></entry><entry><string>user.timezone</string><string>{zone}</string></entry></map></pseudo>
               <pseudo name="java.util.Locale.default"><text class="java.util.Locale">en-US</text></pseudo>
               <class name="a.A" initialized="true"><static field="z" type="int" final="false"><prim class="int">{}</prim></static></class>"#,
            zone.len()
        )
    };
    let diffs = diff(&capture(&props("Europe/Paris")), &capture(&props("UTC")));
    assert_eq!(diffs.len(), 2, "{diffs:#?}");
    let d = &diffs[0];
    assert_eq!(d.field, "java.lang.System.properties");
    assert!(d.pseudo);
    assert!(!d.is_final);
    assert!(d.restorable);
    assert_eq!(
        paths(d),
        [(
            "java.lang.System.properties[user.timezone]",
            "Europe/Paris",
            "UTC"
        )]
    );
    assert_eq!(diffs[1].field, "a.A.z");
    assert!(!diffs[1].pseudo);
}

#[test]
fn truncated_values_cannot_be_restored() {
    let d = field_diff(
        &list(&[int(1), "<truncated/>".to_string()]),
        &list(&[int(1), int(2), int(3)]),
    );
    let d = only(&d);
    assert_eq!(
        paths(d),
        [
            ("com.acme.S.F[1]", "…", "2"),
            ("com.acme.S.F[2]", "(absent)", "3")
        ]
    );
    // only the failing side was cut: the passing value (what a restore sets) is fully known
    assert!(d.restorable, "{d:?}");
    let d = field_diff(
        &list(&[int(1), int(2), int(3)]),
        &list(&[int(1), "<truncated/>".to_string()]),
    );
    let d = only(&d);
    assert!(!d.restorable);
    assert_eq!(d.why_not.as_deref(), Some("the capture was truncated here"));
    // Cut at the same place on both sides, different before the cut: still not fully known.
    let d = field_diff(
        &list(&[int(1), "<truncated/>".to_string()]),
        &list(&[int(2), "<truncated/>".to_string()]),
    );
    let d = only(&d);
    assert_eq!(paths(d), [("com.acme.S.F[0]", "1", "2")]);
    assert!(!d.restorable);
    assert!(d.why_not.as_deref().unwrap().contains("truncated"), "{d:?}");
}

#[test]
fn opaque_and_unreadable_values_cannot_be_restored() {
    let thread =
        r#"<opaque class="java.lang.Thread" reason="odrust does not walk objects of this kind"/>"#;
    let d = field_diff(thread, "<null/>");
    let d = only(&d);
    assert_eq!(
        paths(d),
        [("com.acme.S.F", "<opaque java.lang.Thread>", "null")]
    );
    // an opaque failing value does not matter: the restore sets the passing one (null)
    assert!(d.restorable, "{d:?}");
    let d = field_diff("<null/>", thread);
    let d = only(&d);
    assert!(!d.restorable);
    assert_eq!(
        d.why_not.as_deref(),
        Some("the differing value is opaque (java.lang.Thread)")
    );
    // Inside the passing value.
    let d = field_diff(&list(&[]), &list(&[thread.to_string()]));
    assert_eq!(
        only(&d).why_not.as_deref(),
        Some("the differing value is opaque (java.lang.Thread)")
    );
    let d = field_diff(
        "<null/>",
        r#"<unreadable class="a.X" reason="java.lang.IllegalAccessException: x"/>"#,
    );
    assert_eq!(
        only(&d).why_not.as_deref(),
        Some("the differing value could not be read (a.X: java.lang.IllegalAccessException: x)")
    );
    // The same opaque value on both sides, a restorable difference elsewhere.
    let d = field_diff(
        &list(&[thread.to_string(), int(1)]),
        &list(&[thread.to_string(), int(2)]),
    );
    assert!(only(&d).restorable, "{d:?}");
}

#[test]
fn a_final_field_whose_value_itself_differs_is_left_to_the_agent() {
    // the agent sets static finals through jdk.internal.misc.Unsafe, and says when it cannot
    let diffs = diff(
        &statics(&[("F", true, &int(1)), ("G", false, &int(1))]),
        &statics(&[("F", true, &int(2)), ("G", false, &int(2))]),
    );
    assert_eq!(diffs.len(), 2);
    assert!(diffs[0].is_final && diffs[0].restorable);
    assert!(diffs[0].why_not.is_none());
    assert!(diffs[1].restorable);
}

#[test]
fn at_most_ten_differences_are_listed() {
    let failing: Vec<String> = (0..25).map(int).collect();
    let passing: Vec<String> = (100..125).map(int).collect();
    let d = field_diff(&list(&failing), &list(&passing));
    let d = only(&d);
    assert_eq!(d.differences.len(), MAX_DIFFERENCES);
    assert_eq!(d.more, 15);
    assert_eq!(d.differences[0].path, "com.acme.S.F[0]");
    assert_eq!(d.differences[9].path, "com.acme.S.F[9]");
}

#[test]
fn fields_are_sorted_by_display_name() {
    let one = capture(
        r#"<class name="a.B" initialized="true"><static field="y" type="int" final="false"><prim class="int">1</prim></static></class>
           <class name="a.B$C" initialized="true"><static field="x" type="int" final="false"><prim class="int">1</prim></static></class>"#,
    );
    let two = capture(
        r#"<class name="a.B" initialized="true"><static field="y" type="int" final="false"><prim class="int">2</prim></static></class>
           <class name="a.B$C" initialized="true"><static field="x" type="int" final="false"><prim class="int">2</prim></static></class>"#,
    );
    let diffs = diff(&one, &two);
    let names: Vec<&str> = diffs.iter().map(|d| d.field.as_str()).collect();
    assert_eq!(names, ["a.B$C.x", "a.B.y"]);
    assert_eq!(
        diffs,
        diff(&one, &two),
        "the same captures give the same diff"
    );
}

#[test]
fn the_json_shape() {
    let d = field_diff(&map(&[(&s("EUR"), &int(1))]), &map(&[(&s("EUR"), &int(2))]));
    let json = serde_json::to_value(only(&d)).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "field": "com.acme.S.F",
            "pseudo": false,
            "final": false,
            "kind": "changed",
            "failing": "{EUR=1}",
            "passing": "{EUR=2}",
            "differences": [{"path": "com.acme.S.F[EUR]", "failing": "1", "passing": "2"}],
            "more": 0,
            "restorable": true
        })
    );
    let back: FieldDiff = serde_json::from_value(json).unwrap();
    assert_eq!(&back, only(&d));
    let one_sided = diff(
        &capture(
            r#"<class name="a.B" initialized="true"><static field="x" type="int" final="true"><null/></static></class>"#,
        ),
        &capture(r#"<class name="a.B" initialized="false"/>"#),
    );
    let json = serde_json::to_value(only(&one_sided)).unwrap();
    assert_eq!(json["kind"], "only-failing");
    assert_eq!(json["final"], true);
    assert_eq!(json["restorable"], false);
    assert!(json["why_not"].as_str().unwrap().contains("un-initialized"));
}

#[test]
fn deep_values_diff_on_a_small_stack() {
    let depth = crate::diagnose::capture::MAX_DEPTH - 1;
    let nested = |leaf: &str| {
        let mut xml = String::new();
        for _ in 0..depth {
            xml.push_str(r#"<list class="L">"#);
        }
        xml.push_str(leaf);
        for _ in 0..depth {
            xml.push_str("</list>");
        }
        xml
    };
    let (failing, passing) = (nested(&s("a")), nested(&s("b")));
    let diffs = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || field_diff(&failing, &passing))
        .unwrap()
        .join()
        .unwrap();
    let d = only(&diffs);
    assert_eq!(
        paths(d),
        [(
            format!("com.acme.S.F{}", "[0]".repeat(depth)).as_str(),
            "a",
            "b"
        )]
    );
}
