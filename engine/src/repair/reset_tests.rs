//! The reset-method finder over the committed fixture classes (`tests/fixtures/reset/`).

use std::path::PathBuf;

use super::*;
use crate::repair::shapes::Placement;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reset")
}

fn request(class: &str, name: &str, inner: &[&str], test: &str) -> ResetRequest {
    ResetRequest {
        class_dirs: vec![fixtures().join("main"), fixtures().join("test")],
        field: FieldId {
            class: class.to_string(),
            name: name.to_string(),
        },
        inner_fields: inner.iter().map(|s| s.to_string()).collect(),
        test_class: test.to_string(),
        polluter_class: None,
        passing_capture: None,
        failing_capture: None,
        limit: None,
    }
}

fn find(class: &str, name: &str, inner: &[&str], test: &str) -> ResetResponse {
    reset_methods(&request(class, name, inner, test)).unwrap()
}

fn statements(r: &ResetResponse) -> Vec<&str> {
    r.candidates.iter().map(|c| c.statement.as_str()).collect()
}

#[test]
fn a_static_reset_method_comes_first_then_other_writers_then_mined_arguments() {
    let r = find("com.acme.Prices", "RATES", &[], "com.acme.PricesTest");
    assert!(r.field_found);
    assert!(r.unreadable.is_empty(), "{:?}", r.unreadable);
    assert_eq!(
        r.classes_read, 19,
        "module-info is skipped, every other class read"
    );
    assert_eq!(
        statements(&r),
        [
            "com.acme.Prices.reset();",
            // Package-private, and the test is in com.acme.
            "com.acme.Prices.clearQuietly();",
            // A String and a double, mined from Boot.start()'s call.
            "com.acme.Prices.put(\"EUR\", 0.9d);",
        ]
    );
    let reset = &r.candidates[0];
    assert_eq!(reset.kind, ResetKind::StaticMethod);
    assert_eq!(reset.method.as_deref(), Some("com.acme.Prices.reset()V"));
    assert_eq!(reset.why, "writes com.acme.Prices.RATES (PUTSTATIC)");
    assert_eq!(
        r.candidates[1].why,
        "calls java.util.Map.clear on com.acme.Prices.RATES (GETSTATIC)"
    );
    assert!(
        r.candidates[2]
            .why
            .ends_with("arguments from the call in com.acme.Boot.start()V at offset 26"),
        "{}",
        r.candidates[2].why
    );
}

#[test]
fn package_private_methods_of_another_package_are_left_out() {
    let r = find("com.acme.Prices", "RATES", &[], "com.acme.other.OtherTest");
    assert_eq!(
        statements(&r),
        [
            "com.acme.Prices.reset();",
            "com.acme.Prices.put(\"EUR\", 0.9d);"
        ]
    );
    let from_other = find(
        "com.acme.internal.Settings",
        "mode",
        &[],
        "com.acme.PricesTest",
    );
    assert_eq!(
        statements(&from_other),
        [
            "com.acme.internal.Settings.restoreDefaults();",
            "com.acme.internal.Settings.mode = \"fast\";",
        ]
    );
    let same = find(
        "com.acme.internal.Settings",
        "mode",
        &[],
        "com.acme.internal.SettingsTest",
    );
    assert_eq!(
        statements(&same)[..2],
        [
            "com.acme.internal.Settings.resetMode();",
            "com.acme.internal.Settings.restoreDefaults();",
        ]
    );
}

#[test]
fn a_singletons_inner_map_is_cleared_through_its_accessor() {
    let r = find(
        "com.acme.JobRegistry",
        "INSTANCE",
        &["jobs"],
        "com.acme.PricesTest",
    );
    assert!(r.field_found);
    assert_eq!(
        statements(&r),
        [
            "com.acme.JobRegistry.getInstance().clear();",
            // shutdown(String) calls jobs.remove(name.trim()): "nightly" from Boot.start().
            "com.acme.JobRegistry.getInstance().shutdown(\"nightly\");",
        ]
    );
    let clear = &r.candidates[0];
    assert_eq!(clear.kind, ResetKind::InstanceMethod);
    assert_eq!(
        clear.method.as_deref(),
        Some("com.acme.JobRegistry.clear()V")
    );
    assert_eq!(
        clear.why,
        "calls java.util.Map.clear on com.acme.JobRegistry.jobs (GETFIELD) of the object under \
         com.acme.JobRegistry.INSTANCE; receiver: com.acme.JobRegistry.getInstance()"
    );
    // register(String, Runnable) writes too, but a Runnable cannot be mined; forget() is private.
    assert!(!statements(&r).iter().any(|s| s.contains("register")));
    // Without inner fields, every instance field of the singleton counts.
    let any = find(
        "com.acme.JobRegistry",
        "INSTANCE",
        &[],
        "com.acme.PricesTest",
    );
    assert_eq!(statements(&any), statements(&r));
    // Inner fields that no method touches give nothing.
    let none = find(
        "com.acme.JobRegistry",
        "INSTANCE",
        &["other"],
        "com.acme.PricesTest",
    );
    assert!(none.candidates.is_empty(), "{:?}", none.candidates);
}

#[test]
fn a_public_static_collection_with_no_reset_method_is_cleared_directly() {
    let r = find("com.acme.Cache", "ENTRIES", &[], "com.acme.other.OtherTest");
    assert_eq!(
        r.candidates,
        [ResetCandidate {
            statement: "com.acme.Cache.ENTRIES.clear();".into(),
            statements: vec!["com.acme.Cache.ENTRIES.clear();".into()],
            method: None,
            kind: ResetKind::FieldClear,
            why: "com.acme.Cache.ENTRIES is a java.util.List the test can reach: clear() \
                  empties it"
                .into(),
            placements: vec![Placement::Setup, Placement::Test],
        }],
        "final: no assignment"
    );
}

#[test]
fn an_accessible_field_is_assigned_its_initializer() {
    let other = "com.acme.other.OtherTest";
    let hits = find("com.acme.Cache", "hits", &[], other);
    // The private nested class's reset() and the anonymous class's run() are left out.
    assert_eq!(
        statements(&hits),
        [
            "com.acme.PricesTest.zeroHits();",
            "com.acme.Cache.hits = 7;"
        ]
    );
    assert_eq!(hits.candidates[1].kind, ResetKind::FieldAssignment);
    let counter = find("com.acme.Cache", "COUNTER", &[], other);
    assert_eq!(
        statements(&counter),
        ["com.acme.Cache.COUNTER = new com.acme.Cache.Counter();"]
    );
    let label = find("com.acme.Cache", "label", &[], other);
    assert_eq!(
        statements(&label),
        [r#"com.acme.Cache.label = "cache \"main\"\n";"#]
    );
    // A field <clinit> never assigns gets its default; the mined-argument setter comes after.
    let mode = find("com.acme.Mode", "level", &[], "com.acme.ModeTest");
    assert_eq!(
        statements(&mode),
        [
            "com.acme.Mode.level = null;",
            "com.acme.Mode.set(com.acme.Mode.Level.HIGH, 3, true);",
        ]
    );
}

#[test]
fn junit_methods_are_not_candidates_but_test_helpers_are() {
    let r = find("com.acme.Cache", "hits", &[], "com.acme.PricesTest");
    // PricesTest.staticSetUp() (@Before) writes it too.
    assert_eq!(
        statements(&r),
        [
            "com.acme.PricesTest.zeroHits();",
            "com.acme.Cache.hits = 7;"
        ]
    );
}

#[test]
fn a_private_field_with_no_reset_method_has_no_candidate() {
    // Only <clinit> and a lambda write Locator.MANAGER.
    let r = find("com.acme.Locator", "MANAGER", &[], "com.acme.PricesTest");
    assert!(r.field_found);
    assert!(r.candidates.is_empty(), "{:?}", r.candidates);
    let unknown = find("com.acme.Nowhere", "X", &[], "com.acme.PricesTest");
    assert!(!unknown.field_found && unknown.candidates.is_empty());
}

#[test]
fn the_limit_cuts_the_ranked_list() {
    let mut req = request("com.acme.Prices", "RATES", &[], "com.acme.PricesTest");
    req.limit = Some(1);
    assert_eq!(
        statements(&reset_methods(&req).unwrap()),
        ["com.acme.Prices.reset();"]
    );
}

#[test]
fn a_missing_class_dir_is_the_users_error_naming_it() {
    let mut req = request("com.acme.Prices", "RATES", &[], "com.acme.PricesTest");
    req.class_dirs.push(fixtures().join("no-such-dir"));
    let e = reset_methods(&req).unwrap_err();
    assert!(e.is_user_error());
    assert_eq!(e.code(), "io");
    assert!(e.to_string().contains("no-such-dir"), "{e}");
}

#[test]
fn unreadable_class_files_are_listed_not_fatal() {
    let dir = std::env::temp_dir().join(format!("odrust-reset-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("x")).unwrap();
    std::fs::write(dir.join("x/Broken.class"), b"\xCA\xFE\xBA\xBE\x00").unwrap();
    let mut req = request("com.acme.Prices", "RATES", &[], "com.acme.PricesTest");
    req.class_dirs.push(dir.clone());
    let r = reset_methods(&req).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(r.unreadable.len(), 1);
    assert!(r.unreadable[0].path.ends_with("x/Broken.class"));
    assert!(
        r.unreadable[0].error.contains("truncated"),
        "{:?}",
        r.unreadable
    );
    assert_eq!(statements(&r)[0], "com.acme.Prices.reset();");
}

#[test]
fn mutators_are_named_calls_on_state() {
    assert!(is_mutator("java.util.Map", "putIfAbsent"));
    assert!(is_mutator("com.acme.X", "resetAll"));
    assert!(!is_mutator("com.acme.X", "address"));
    assert!(!is_mutator("com.acme.X", "merge"));
    assert!(is_mutator(
        "java.util.concurrent.ConcurrentHashMap",
        "merge"
    ));
    assert!(is_collection_type(
        "java.util.concurrent.CopyOnWriteArrayList"
    ));
    assert!(!is_collection_type("java.util.Map$Entry"));
}

/// A request over `tests/fixtures/reset/follow` (and `followtest`).
fn follow(class: &str, name: &str, test: &str) -> ResetRequest {
    let mut req = request(class, name, &[], test);
    req.class_dirs = vec![fixtures().join("follow"), fixtures().join("followtest")];
    req
}

#[test]
fn an_outer_class_accessor_leads_to_a_nested_classs_private_state() {
    // Outer.Holder.MAP is private; Outer.getMap() returns it.
    let r = reset_methods(&follow(
        "com.acme.follow.Outer$Holder",
        "MAP",
        "com.acme.other.FollowTest",
    ))
    .unwrap();
    assert!(r.field_found);
    assert_eq!(statements(&r), ["com.acme.follow.Outer.getMap().clear();"]);
    let c = &r.candidates[0];
    assert_eq!(c.kind, ResetKind::InstanceMethod);
    assert_eq!(c.method.as_deref(), Some("java.util.Map.clear()V"));
    assert_eq!(
        c.why,
        "com.acme.follow.Outer$Holder.MAP is a java.util.Map; com.acme.follow.Outer.getMap() \
         returns it: clear() empties it"
    );
    // Outer.Inner.REGISTRY: Registry.reset() through the outer class's accessor.
    let r = reset_methods(&follow(
        "com.acme.follow.Outer$Inner",
        "REGISTRY",
        "com.acme.other.FollowTest",
    ))
    .unwrap();
    assert_eq!(
        statements(&r),
        ["com.acme.follow.Outer.registry().reset();"]
    );
    assert!(
        r.candidates[0]
            .why
            .ends_with("; receiver: com.acme.follow.Outer.registry()"),
        "{}",
        r.candidates[0].why
    );
}

#[test]
fn a_private_implementations_reset_is_called_through_its_public_supertype() {
    // Store.Impl is private: its clear() (which empties Impl.DEFAULT's cache) is reached as
    // Store.clear(), on Store.getInstance() (which returns DEFAULT).
    let mut req = follow(
        "com.acme.follow.Store$Impl",
        "DEFAULT",
        "com.acme.other.FollowTest",
    );
    req.inner_fields = vec!["cache".to_string()];
    let r = reset_methods(&req).unwrap();
    assert!(r.field_found);
    assert_eq!(
        statements(&r),
        ["com.acme.follow.Store.getInstance().clear();"]
    );
    let c = &r.candidates[0];
    assert_eq!(c.kind, ResetKind::InstanceMethod);
    assert_eq!(c.method.as_deref(), Some("com.acme.follow.Store.clear()V"));
    assert!(
        c.why
            .ends_with("; receiver: com.acme.follow.Store.getInstance()"),
        "{}",
        c.why
    );
}

#[test]
fn a_superclass_accessor_leads_to_a_subclasss_state() {
    // Child.SHARED and Child.NAMES are package-private: the test in another package reaches
    // them only through Base's accessors.
    let r = reset_methods(&follow(
        "com.acme.follow.Child",
        "SHARED",
        "com.acme.other.FollowTest",
    ))
    .unwrap();
    assert_eq!(statements(&r), ["com.acme.follow.Base.shared().reset();"]);
    let r = reset_methods(&follow(
        "com.acme.follow.Child",
        "NAMES",
        "com.acme.other.FollowTest",
    ))
    .unwrap();
    assert_eq!(statements(&r), ["com.acme.follow.Base.names().clear();"]);
    // From the package itself the field is reachable too, and ranks first.
    let r = reset_methods(&follow(
        "com.acme.follow.Child",
        "NAMES",
        "com.acme.follow.ConfigPolluterTest",
    ))
    .unwrap();
    assert_eq!(
        statements(&r),
        [
            "com.acme.follow.Child.NAMES.clear();",
            "com.acme.follow.Base.names().clear();",
        ]
    );
}

/// The committed captures of `com.acme.follow.Config` (`tests/fixtures/reset/captures/`).
fn capture(name: &str) -> PathBuf {
    fixtures().join("captures").join(name)
}

/// `req` with the diagnosis's two captures of `Config`.
fn with_captures(mut req: ResetRequest) -> ResetRequest {
    req.passing_capture = Some(capture("passing.xml"));
    req.failing_capture = Some(capture("failing.xml"));
    req
}

#[test]
fn a_simple_passing_value_is_set_back_directly_in_the_polluters_teardown_first() {
    let mut req = with_captures(follow(
        "com.acme.follow.Config",
        "mode",
        "com.acme.other.FollowTest",
    ));
    req.polluter_class = Some("com.acme.follow.ConfigPolluterTest".into());
    let r = reset_methods(&req).unwrap();
    assert_eq!(r.direct_restore_refused, None);
    // <clinit> assigns mode from a call: no initializer statement, only the passing value.
    assert_eq!(
        statements(&r),
        ["com.acme.follow.Config.mode = \"default\";"]
    );
    let c = &r.candidates[0];
    assert_eq!(c.kind, ResetKind::PassingValue);
    assert_eq!(
        c.placements,
        [
            Placement::PolluterTeardown,
            Placement::Setup,
            Placement::Test
        ]
    );
    assert_eq!(
        c.why,
        "sets com.acme.follow.Config.mode back to default, its value when the test passed \
         (the diagnosis's passing capture)"
    );
    // A final list is refilled in place, before the plain clear() the finder also offers.
    let r = reset_methods(&with_captures(follow(
        "com.acme.follow.Config",
        "NAMES",
        "com.acme.other.FollowTest",
    )))
    .unwrap();
    assert_eq!(
        statements(&r),
        [
            "com.acme.follow.Config.NAMES.clear(); com.acme.follow.Config.NAMES.add(\"a\");",
            "com.acme.follow.Config.NAMES.clear();",
        ]
    );
    assert_eq!(
        r.candidates[0].statements,
        [
            "com.acme.follow.Config.NAMES.clear();",
            "com.acme.follow.Config.NAMES.add(\"a\");"
        ]
    );
    // No polluter class: no polluter-teardown placement.
    assert_eq!(
        r.candidates[0].placements,
        [Placement::Setup, Placement::Test]
    );
}

#[test]
fn a_field_only_the_polluter_can_name_is_restored_only_in_its_teardown() {
    let mut req = with_captures(follow(
        "com.acme.follow.Config",
        "packageMode",
        "com.acme.other.FollowTest",
    ));
    let alone = reset_methods(&req).unwrap();
    assert!(alone.candidates.is_empty(), "{:?}", alone.candidates);
    assert_eq!(
        alone.direct_restore_refused.as_deref(),
        Some("com.acme.follow.Config.packageMode cannot be named from com.acme.other.FollowTest")
    );
    req.polluter_class = Some("com.acme.follow.ConfigPolluterTest".into());
    let r = reset_methods(&req).unwrap();
    assert_eq!(
        statements(&r),
        ["com.acme.follow.Config.packageMode = null;"]
    );
    assert_eq!(r.candidates[0].placements, [Placement::PolluterTeardown]);
    assert_eq!(r.direct_restore_refused, None);
}

#[test]
fn private_final_and_complex_fields_get_no_direct_restore_and_say_why() {
    let refused = |name: &str| {
        reset_methods(&with_captures(follow(
            "com.acme.follow.Config",
            name,
            "com.acme.follow.ConfigPolluterTest",
        )))
        .unwrap()
        .direct_restore_refused
        .unwrap_or_default()
    };
    assert_eq!(
        refused("secret"),
        "com.acme.follow.Config.secret cannot be named from com.acme.follow.ConfigPolluterTest"
    );
    assert!(
        refused("anything").contains("walked field by field"),
        "{}",
        refused("anything")
    );
    assert!(
        refused("tier").contains("the passing capture does not hold"),
        "{}",
        refused("tier")
    );
    let lazy = reset_methods(&with_captures(follow(
        "com.acme.follow.Lazy",
        "X",
        "com.acme.other.FollowTest",
    )))
    .unwrap();
    assert_eq!(
        lazy.direct_restore_refused.as_deref(),
        Some("the class of com.acme.follow.Lazy.X is not initialized in the passing capture")
    );
    // The level's initializer is a call too: only the passing value.
    let level = reset_methods(&with_captures(follow(
        "com.acme.follow.Config",
        "level",
        "com.acme.other.FollowTest",
    )))
    .unwrap();
    assert_eq!(statements(&level), ["com.acme.follow.Config.level = 3;"]);
}

#[test]
fn an_empty_passing_collection_is_the_same_statement_as_clear_and_kept_once_as_the_passing_value() {
    let mut req = with_captures(follow(
        "com.acme.follow.Config",
        "NAMES",
        "com.acme.other.FollowTest",
    ));
    req.passing_capture = Some(capture("passing-empty.xml"));
    let r = reset_methods(&req).unwrap();
    assert_eq!(statements(&r), ["com.acme.follow.Config.NAMES.clear();"]);
    assert_eq!(r.candidates[0].kind, ResetKind::PassingValue);
    assert!(
        r.candidates[0].why.contains("back to []"),
        "{}",
        r.candidates[0].why
    );
}

#[test]
fn a_capture_that_cannot_be_read_is_an_io_error_naming_it() {
    let mut req = follow(
        "com.acme.follow.Config",
        "mode",
        "com.acme.other.FollowTest",
    );
    req.passing_capture = Some(capture("no-such-capture.xml"));
    let e = reset_methods(&req).unwrap_err();
    assert_eq!(e.code(), "io");
    assert!(e.to_string().contains("no-such-capture.xml"), "{e}");
}
