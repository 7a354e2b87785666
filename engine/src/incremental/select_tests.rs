//! The selection rules over `tests/fixtures/incremental/module` (javac 17), copied to a temporary
//! directory per test so that a test can overlay an edit or delete a class. A change is either a
//! recompiled class (`edits/`) or simulated through the saved state (a checksum that no longer
//! matches, an entry that is missing or extra).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

use super::*;

const TESTS: [&str; 7] = [
    "com.acme.CalcTest",
    "com.acme.GreeterTest",
    "com.acme.LonelyTest",
    "com.acme.NamesTest",
    "com.acme.RegistryTest",
    "com.acme.ReportTest",
    "com.acme.StoreTest",
];

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/incremental")
        .join(path)
}

fn copy_classes(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_classes(&path, &target);
        } else if path.extension().is_some_and(|e| e == "class") {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// A copy of the fixture module in a fresh temporary directory; removed on drop.
struct Module {
    root: PathBuf,
}

impl Module {
    fn new() -> Module {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "odrust-incremental-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        copy_classes(&fixture("module/main"), &root.join("main"));
        copy_classes(&fixture("module/test"), &root.join("test"));
        Module { root }
    }
    fn main(&self) -> PathBuf {
        self.root.join("main")
    }
    fn test(&self) -> PathBuf {
        self.root.join("test")
    }
    /// Overlays a recompiled class of `edits/<edit>` onto `dir` (`main` or `test`).
    fn overlay(&self, edit: &str, dir: &str, class: &str) {
        std::fs::copy(
            fixture(&format!("edits/{edit}/com/acme/{class}.class")),
            self.root.join(dir).join(format!("com/acme/{class}.class")),
        )
        .unwrap();
    }
    fn request(&self, state: Option<Value>) -> SelectRequest {
        SelectRequest {
            main_dirs: vec![self.main()],
            test_dirs: vec![self.test()],
            jars: Vec::new(),
            own_jars: Vec::new(),
            test_classes: TESTS.iter().map(|t| t.to_string()).collect(),
            state,
            build_fingerprint: "fp-1".into(),
            select_all: false,
        }
    }
    /// The state of the module as it is now.
    fn state(&self) -> Value {
        serde_json::to_value(select(&self.request(None)).unwrap().state).unwrap()
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn selected(s: &Selection) -> Vec<(&str, Vec<&str>)> {
    s.selected
        .iter()
        .map(|t| {
            (
                t.class.as_str(),
                t.reasons.iter().map(String::as_str).collect(),
            )
        })
        .collect()
}

fn changed(s: &Selection) -> Vec<(&str, &str)> {
    s.changed
        .iter()
        .map(|c| (c.class.as_str(), c.why.as_str()))
        .collect()
}

fn set_checksum(state: &mut Value, class: &str, checksum: &str) {
    state["classes"][class]["checksum"] = json!(checksum);
}

#[test]
fn first_run_is_full_and_says_why() {
    let m = Module::new();
    let s = select(&m.request(None)).unwrap();
    assert!(s.full);
    assert_eq!(
        s.why_full.as_deref(),
        Some("no saved incremental state (first run)")
    );
    assert_eq!(s.selected.len(), 7);
    assert_eq!(s.test_classes_total, 7);
    assert_eq!(
        s.selected[0].reasons,
        ["every test class is selected: no saved incremental state (first run)"]
    );
    assert!(s.changed.is_empty());
    assert_eq!(s.state.version, 4);
    assert_eq!(s.state.build_fingerprint, "fp-1");
    assert_eq!(s.state.classes["com.acme.Calc"].kind, ClassKind::Main);
    assert_eq!(s.state.classes["com.acme.CalcTest"].kind, ClassKind::Test);
    assert_eq!(s.state.classes.len(), 17);
}

#[test]
fn nothing_changed_selects_nothing() {
    let m = Module::new();
    let s = select(&m.request(Some(m.state()))).unwrap();
    assert!(!s.full && s.why_full.is_none());
    assert!(s.changed.is_empty() && s.selected.is_empty());
    assert_eq!(s.test_classes_total, 7);
}

#[test]
fn a_main_class_used_by_two_tests_selects_both_with_paths() {
    let m = Module::new();
    let state = m.state();
    m.overlay("calc", "main", "Calc");
    let s = select(&m.request(Some(state))).unwrap();
    assert!(!s.full);
    assert_eq!(changed(&s), [("com.acme.Calc", "bytes changed")]);
    assert_eq!(
        selected(&s),
        [
            (
                "com.acme.CalcTest",
                vec!["reaches changed class com.acme.Calc through com.acme.CalcTest -> com.acme.Calc"]
            ),
            (
                "com.acme.ReportTest",
                vec!["reaches changed class com.acme.Calc through com.acme.ReportTest -> com.acme.Report -> com.acme.Calc"]
            ),
        ]
    );
}

#[test]
fn a_test_only_change_selects_just_that_test() {
    let m = Module::new();
    let state = m.state();
    m.overlay("lonely", "test", "LonelyTest");
    let s = select(&m.request(Some(state))).unwrap();
    assert_eq!(changed(&s), [("com.acme.LonelyTest", "bytes changed")]);
    assert_eq!(
        selected(&s),
        [(
            "com.acme.LonelyTest",
            vec!["changed itself (bytes changed)"]
        )]
    );
    assert_eq!(
        s.new_test_classes,
        [Changed {
            class: "com.acme.LonelyTest".into(),
            why: "bytes changed".into()
        }]
    );
}

#[test]
fn a_mutable_static_shared_with_an_affected_test_selects_more() {
    let m = Module::new();
    let mut state = m.state();
    set_checksum(&mut state, "com.acme.Store", "0");
    let s = select(&m.request(Some(state))).unwrap();
    assert_eq!(changed(&s), [("com.acme.Store", "bytes changed")]);
    assert!(s.new_test_classes.is_empty(), "no test class changed");
    assert_eq!(
        selected(&s),
        [
            (
                "com.acme.RegistryTest",
                vec!["uses static field com.acme.Registry.MAP (RegistryTest.empty -> Registry.lookup), which selected test com.acme.StoreTest uses (StoreTest.saves -> Store.save)"]
            ),
            (
                "com.acme.StoreTest",
                vec!["reaches changed class com.acme.Store through com.acme.StoreTest -> com.acme.Store"]
            ),
        ]
    );
}

#[test]
fn immutable_statics_do_not_expand() {
    // Greeter reaches Names, whose statics are a constant, final Integer/String/enum/Class
    // fields and an enum's own fields: NamesTest, which reaches Names too, is not selected.
    let m = Module::new();
    let mut state = m.state();
    set_checksum(&mut state, "com.acme.Greeter", "0");
    let s = select(&m.request(Some(state))).unwrap();
    assert_eq!(
        selected(&s),
        [(
            "com.acme.GreeterTest",
            vec!["reaches changed class com.acme.Greeter through com.acme.GreeterTest -> com.acme.Greeter"]
        )]
    );
}

#[test]
fn added_classes_are_changes() {
    let m = Module::new();
    let mut state = m.state();
    let classes = state["classes"].as_object_mut().unwrap();
    classes.remove("com.acme.Calc");
    classes.remove("com.acme.LonelyTest");
    let s = select(&m.request(Some(state))).unwrap();
    assert_eq!(
        changed(&s),
        [("com.acme.Calc", "added"), ("com.acme.LonelyTest", "added")]
    );
    let names: Vec<&str> = s.selected.iter().map(|t| t.class.as_str()).collect();
    assert_eq!(
        names,
        [
            "com.acme.CalcTest",
            "com.acme.LonelyTest",
            "com.acme.ReportTest"
        ]
    );
    assert_eq!(s.selected[1].reasons, ["changed itself (added)"]);
    // Calc is no test class: only LonelyTest is new.
    let new: Vec<(&str, &str)> = s
        .new_test_classes
        .iter()
        .map(|c| (c.class.as_str(), c.why.as_str()))
        .collect();
    assert_eq!(new, [("com.acme.LonelyTest", "added")]);
}

#[test]
fn removed_classes_are_changes_and_stale_references_still_reach_them() {
    let m = Module::new();
    let mut state = m.state();
    state["classes"]["com.acme.Gone"] = json!({"checksum": "1", "kind": "main"});
    std::fs::remove_file(m.main().join("com/acme/Calc.class")).unwrap();
    let s = select(&m.request(Some(state))).unwrap();
    assert_eq!(
        changed(&s),
        [("com.acme.Calc", "removed"), ("com.acme.Gone", "removed")]
    );
    assert_eq!(
        selected(&s),
        [
            (
                "com.acme.CalcTest",
                vec!["reaches changed class com.acme.Calc through com.acme.CalcTest -> com.acme.Calc"]
            ),
            (
                "com.acme.ReportTest",
                vec!["reaches changed class com.acme.Calc through com.acme.ReportTest -> com.acme.Report -> com.acme.Calc"]
            ),
        ]
    );
    assert!(!s.state.classes.contains_key("com.acme.Calc"));
}

#[test]
fn a_build_change_or_select_all_selects_everything() {
    let m = Module::new();
    let mut state = m.state();
    set_checksum(&mut state, "com.acme.Store", "0");
    let mut request = m.request(Some(state.clone()));
    request.build_fingerprint = "fp-2".into();
    let s = select(&request).unwrap();
    assert!(s.full);
    assert_eq!(
        s.why_full.as_deref(),
        Some("the build changed since the saved state (Surefire settings, test JVM, classpath or resources)")
    );
    assert_eq!(s.selected.len(), 7);
    assert_eq!(
        changed(&s),
        [("com.acme.Store", "bytes changed")],
        "still listed"
    );
    assert_eq!(s.state.build_fingerprint, "fp-2");

    let mut request = m.request(Some(state));
    request.select_all = true;
    let s = select(&request).unwrap();
    assert!(s.full);
    assert_eq!(
        s.why_full.as_deref(),
        Some("odrust.incremental.selectAll is set")
    );
    assert_eq!(s.selected.len(), 7);
}

#[test]
fn a_bad_or_other_version_state_is_a_full_run() {
    let m = Module::new();
    for (state, why) in [
        (
            json!({"version": 4, "classes": "x"}),
            "the saved incremental state cannot be read: ",
        ),
        (
            json!("garbage"),
            "the saved incremental state cannot be read: it is not a JSON object",
        ),
        (
            json!({"version": 7, "whatever": true}),
            "the saved incremental state has version 7, this odrust reads version 4",
        ),
        (Value::Null, "no saved incremental state (first run)"),
    ] {
        let s = select(&m.request(Some(state))).unwrap();
        assert!(s.full);
        assert!(
            s.why_full.as_deref().unwrap().starts_with(why),
            "{:?}",
            s.why_full
        );
        assert_eq!(s.selected.len(), 7);
        assert!(s.changed.is_empty());
    }
}

#[test]
fn the_state_round_trips_through_json_text() {
    let m = Module::new();
    let first = select(&m.request(None)).unwrap();
    let text = serde_json::to_string(&first.state).unwrap();
    let back: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back["version"], json!(4));
    let second = select(&m.request(Some(back))).unwrap();
    assert!(!second.full && second.selected.is_empty());
    assert_eq!(second.state, first.state);
}

#[test]
fn a_changed_jar_selects_every_test_class() {
    let m = Module::new();
    let jar = m.root.join("lib.jar");
    std::fs::write(&jar, b"one").unwrap();
    let mut request = m.request(None);
    request.jars = vec![jar.clone()];
    let state = serde_json::to_value(select(&request).unwrap().state).unwrap();
    request.state = Some(state.clone());
    assert!(select(&request).unwrap().selected.is_empty());
    std::fs::write(&jar, b"two").unwrap();
    let s = select(&request).unwrap();
    let path = jar.display().to_string();
    assert!(!s.full);
    assert_eq!(s.changed.len(), 1);
    assert_eq!(s.changed[0].why, format!("jar changed: {path}"));
    assert_eq!(s.selected.len(), 7);
    assert_eq!(
        s.selected[0].reasons,
        [format!("a jar of the test classpath changed ({path}): every test class is selected when a jar changes")]
    );
}

#[test]
fn a_missing_directory_is_a_user_error_naming_it() {
    let m = Module::new();
    let mut request = m.request(None);
    request.test_dirs.push(m.root.join("nowhere"));
    let err = select(&request).unwrap_err();
    assert_eq!(err.code(), "io");
    assert!(err.is_user_error());
    assert!(err.to_string().contains("nowhere"), "{err}");
}

#[test]
fn an_unparsable_class_file_is_a_full_run_naming_it() {
    let m = Module::new();
    let state = m.state();
    std::fs::write(m.main().join("com/acme/Broken.class"), b"not a class").unwrap();
    let s = select(&m.request(Some(state))).unwrap();
    assert!(s.full);
    let why = s.why_full.clone().unwrap();
    assert!(
        why.contains("Broken.class") && why.contains("magic"),
        "{why}"
    );
    assert_eq!(changed(&s), [("com.acme.Broken", "added")]);
}

#[test]
fn a_test_without_a_class_file_is_selected() {
    let m = Module::new();
    let mut request = m.request(Some(m.state()));
    request.test_classes.push("com.acme.FromAJarTest".into());
    let s = select(&request).unwrap();
    assert_eq!(s.test_classes_total, 8);
    assert_eq!(
        selected(&s),
        [(
            "com.acme.FromAJarTest",
            vec!["has no class file in the test directories, so what it depends on is unknown"]
        )]
    );
}

#[test]
fn which_statics_are_mutable() {
    let list: Vec<ClassFile> = class_files_under(&fixture("module/main"))
        .unwrap()
        .iter()
        .map(|f| ClassFile::read(f).unwrap())
        .collect();
    let classes: BTreeMap<String, &ClassFile> = list.iter().map(|c| (c.name.clone(), c)).collect();
    let immutable = super::super::immutable::Immutability::new(&classes);
    let mutable = |class: &str| -> Vec<String> {
        let c = classes[&format!("com.acme.{class}")];
        c.fields
            .iter()
            .filter(|f| immutable.tracked(c, f))
            .map(|f| f.name.clone())
            .collect()
    };
    // OBJECT is `new Object()`: a plain Object has no state to change
    assert_eq!(
        mutable("Statics"),
        ["LIST", "ARRAY", "counter", "name", "mutableKind"]
    );
    assert!(
        mutable("Statics$Kind").is_empty(),
        "enum constants and $VALUES"
    );
    assert!(mutable("Statics$1").is_empty(), "the synthetic switch map");
    assert!(mutable("Names").is_empty());
    assert_eq!(mutable("Registry"), ["MAP"]);
}

#[test]
fn many_reasons_are_capped() {
    let reasons: Vec<String> = (0..8).map(|i| i.to_string()).collect();
    assert_eq!(
        capped(reasons, "changed classes reached"),
        [
            "0",
            "1",
            "2",
            "3",
            "4",
            "and 3 more changed classes reached"
        ]
    );
}

#[test]
fn request_and_response_json() {
    let m = Module::new();
    let request: SelectRequest = serde_json::from_value(json!({
        "main_dirs": [m.main()],
        "test_dirs": [m.test()],
        "jars": [],
        "test_classes": ["com.acme.StoreTest", "com.acme.CalcTest", "com.acme.StoreTest"],
        "state": null,
        "build_fingerprint": "fp",
        "select_all": false
    }))
    .unwrap();
    let s = select(&request).unwrap();
    let v = serde_json::to_value(&s).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "changed",
            "full",
            "new_test_classes",
            "selected",
            "state",
            "test_classes_total",
            "why_full"
        ]
    );
    assert_eq!(v["test_classes_total"], json!(2));
    assert_eq!(v["selected"][0]["class"], json!("com.acme.CalcTest"));
    assert!(v["selected"][0]["reasons"].is_array());
    assert_eq!(
        v["state"]["classes"]["com.acme.Calc"]["kind"],
        json!("main")
    );
    // Deterministic: the same request gives the same text.
    assert_eq!(
        serde_json::to_string(&s).unwrap(),
        serde_json::to_string(&select(&request).unwrap()).unwrap()
    );
    // Optional fields may be left out.
    let minimal: SelectRequest = serde_json::from_value(json!({
        "main_dirs": [], "test_dirs": [], "test_classes": [], "build_fingerprint": ""
    }))
    .unwrap();
    assert!(minimal.state.is_none() && !minimal.select_all && minimal.jars.is_empty());
}

/// A jar (stored entries) of every class file under `dir`, at `jar`.
fn stored_jar(dir: &Path, jar: &Path) {
    fn files(dir: &Path, base: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                files(&path, base, out);
            } else {
                let name = path
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut entries = Vec::new();
    files(dir, dir, &mut entries);
    let stored: Vec<(&str, &[u8], bool)> = entries
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice(), false))
        .collect();
    std::fs::write(jar, crate::incremental::checksum::tests::full_zip(&stored)).unwrap();
}

#[test]
fn a_sibling_jar_is_read_class_by_class() {
    // The main classes come from a sibling module's jar, as in `mvn install -pl M -am`.
    let m = Module::new();
    let jar = m.root.join("sibling.jar");
    stored_jar(&m.main(), &jar);
    let mut request = m.request(None);
    request.main_dirs = Vec::new();
    request.jars = vec![jar.clone()];
    request.own_jars = vec![jar.clone()];
    let first = select(&request).unwrap();
    assert!(
        first.state.classes.contains_key("com.acme.Calc"),
        "an own jar's classes"
    );
    assert_eq!(first.state.jars.len(), 1, "and the rest of its entries");
    request.state = Some(serde_json::to_value(first.state).unwrap());
    // rebuilt with the same classes: nothing changed
    stored_jar(&m.main(), &jar);
    let same = select(&request).unwrap();
    assert!(
        same.changed.is_empty() && same.selected.is_empty(),
        "{:?}",
        same.changed
    );
    // rebuilt with one changed class: only the tests that reach it
    m.overlay("calc", "main", "Calc");
    stored_jar(&m.main(), &jar);
    let s = select(&request).unwrap();
    assert!(!s.full);
    assert_eq!(changed(&s), [("com.acme.Calc", "bytes changed")]);
    let names: Vec<&str> = s.selected.iter().map(|t| t.class.as_str()).collect();
    assert_eq!(names, ["com.acme.CalcTest", "com.acme.ReportTest"]);
    assert_eq!(
        s.selected[1].reasons,
        ["reaches changed class com.acme.Calc through com.acme.ReportTest -> com.acme.Report -> com.acme.Calc"]
    );
    // a resource of the own jar changed: a jar change, every test class
    request.state = Some(serde_json::to_value(s.state).unwrap());
    std::fs::write(m.main().join("com/acme/kit.properties"), "x=2").unwrap();
    stored_jar(&m.main(), &jar);
    let resource = select(&request).unwrap();
    assert_eq!(resource.changed.len(), 1, "{:?}", resource.changed);
    assert!(resource.changed[0].why.starts_with("jar changed: "));
    assert_eq!(resource.selected.len(), 7);
    // an own jar with a class that cannot be parsed is a jar like any other, not a full run
    std::fs::write(
        m.main().join("com/acme/Broken.class"),
        b"\xca\xfe\xba\xbe broken",
    )
    .unwrap();
    stored_jar(&m.main(), &jar);
    let broken = select(&request).unwrap();
    assert!(!broken.full, "{:?}", broken.why_full);
    assert!(!broken.state.classes.contains_key("com.acme.Calc"));
    // the same jar as a library: checksummed whole, a change selects everything
    let mut library = m.request(None);
    library.main_dirs = Vec::new();
    library.jars = vec![jar.clone()];
    let lib_state = select(&library).unwrap().state;
    assert_eq!(lib_state.jars.len(), 1);
    assert!(!lib_state.classes.contains_key("com.acme.Calc"));
}

/// The selection over `statics/classes` (every class read as a test directory) after the
/// checksum of `changed` was altered in the saved state: the selected test classes (without the
/// package) and their first reason.
fn statics_selection(changed: &str) -> Vec<(String, String)> {
    const P: &str = "com.acme.statics.";
    let request = |state: Option<Value>| SelectRequest {
        main_dirs: Vec::new(),
        test_dirs: vec![fixture("statics/classes")],
        jars: Vec::new(),
        own_jars: Vec::new(),
        test_classes: [
            "PutTest",
            "LookupTest",
            "CountTest",
            "OtherCountTest",
            "LambdaTest",
            "ShapeTest",
            "ThreadTest",
            "MixedTest",
        ]
        .iter()
        .map(|t| format!("{P}{t}"))
        .collect(),
        state,
        build_fingerprint: "b".into(),
        select_all: false,
    };
    let mut state = serde_json::to_value(select(&request(None)).unwrap().state).unwrap();
    set_checksum(&mut state, &format!("{P}{changed}"), "0");
    select(&request(Some(state)))
        .unwrap()
        .selected
        .into_iter()
        .map(|t| {
            (
                t.class.trim_start_matches(P).to_string(),
                t.reasons[0].replace(P, ""),
            )
        })
        .collect()
}

#[test]
fn tests_sharing_a_class_but_not_a_field_are_not_linked() {
    // PutTest changes Registry.MAP: LookupTest uses MAP, and so does MixedTest (one of its
    // methods); CountTest and OtherCountTest use only Registry.count, in the same class.
    assert_eq!(
        statics_selection("PutTest"),
        [
            (
                "LookupTest".to_string(),
                "uses static field Registry.MAP (LookupTest.looksUp -> Registry.lookup), which \
                 selected test PutTest uses (PutTest.puts -> Registry.put)"
                    .to_string()
            ),
            (
                "MixedTest".to_string(),
                "uses static field Registry.MAP (MixedTest.usesMap -> Registry.put), which \
                 selected test PutTest uses (PutTest.puts -> Registry.put)"
                    .to_string()
            ),
            (
                "PutTest".to_string(),
                "changed itself (bytes changed)".to_string()
            ),
        ]
    );
}

#[test]
fn readers_are_linked_to_a_writer_not_to_each_other() {
    // CountTest only reads Registry.count: LambdaTest, which writes it, is selected;
    // OtherCountTest, which only reads it too, is not.
    let names = |s: Vec<(String, String)>| s.into_iter().map(|(t, _)| t).collect::<Vec<_>>();
    assert_eq!(
        names(statics_selection("CountTest")),
        ["CountTest", "LambdaTest"]
    );
    // LambdaTest writes it (in a lambda): every reader is.
    let selection = statics_selection("LambdaTest");
    assert_eq!(
        names(selection.clone()),
        [
            "CountTest",
            "LambdaTest",
            "MixedTest",
            "OtherCountTest",
            "ThreadTest"
        ]
    );
    assert_eq!(
        selection[0].1,
        "reads static field Registry.count (CountTest.counts -> Registry.count), which selected \
         test LambdaTest writes (LambdaTest.lambda$bumps$0 -> Registry.bump)"
    );
}
