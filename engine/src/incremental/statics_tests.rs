//! The field-level analysis over `tests/fixtures/incremental/statics` (javac 17; sources beside
//! the classes).

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::*;
use crate::jvm::classfile::class_files_under;

fn classes() -> Vec<ClassFile> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/incremental/statics/classes");
    class_files_under(&dir)
        .unwrap()
        .iter()
        .map(|f| ClassFile::read(f).unwrap())
        .collect()
}

fn by_name(list: &[ClassFile]) -> BTreeMap<String, &ClassFile> {
    list.iter().map(|c| (c.name.clone(), c)).collect()
}

const P: &str = "com.acme.statics.";

/// The fields a test class touches: `(field without the package, how)`.
fn touched(statics: &Statics<'_>, test: &str) -> Vec<(String, How)> {
    statics
        .of_class(&format!("{P}{test}"))
        .fields
        .into_iter()
        .map(|(f, (how, _))| (f.trim_start_matches(P).to_string(), how))
        .collect()
}

#[test]
fn tests_touch_the_fields_their_calls_reach() {
    let list = classes();
    let map = by_name(&list);
    let statics = Statics::new(&map);
    assert_eq!(
        touched(&statics, "PutTest"),
        [("Registry.MAP".to_string(), How::Uses)]
    );
    assert_eq!(
        touched(&statics, "LookupTest"),
        [("Registry.MAP".to_string(), How::Uses)]
    );
    // Same class as MAP, another field; the static initializer's own writes are not writes.
    assert_eq!(
        touched(&statics, "CountTest"),
        [("Registry.count".to_string(), How::Reads)]
    );
    // A lambda's body counts for the code that makes it; `r.run()` may also be any Runnable of
    // the module (class hierarchy analysis does not know which object `r` is).
    assert_eq!(
        touched(&statics, "LambdaTest"),
        [
            ("Listener.LOG".to_string(), How::Uses),
            ("Registry.count".to_string(), How::Writes)
        ]
    );
    // An interface call reaches the module's implementation.
    assert_eq!(
        touched(&statics, "ShapeTest"),
        [("Square.last".to_string(), How::Writes)]
    );
    // A Runnable handed to the JDK is called back.
    assert_eq!(
        touched(&statics, "ThreadTest"),
        [("Listener.LOG".to_string(), How::Uses)]
    );
}

#[test]
fn paths_name_the_calls() {
    let list = classes();
    let map = by_name(&list);
    let statics = Statics::new(&map);
    let uses = statics.of_class(&format!("{P}LambdaTest"));
    let (_, path) = &uses.fields[&format!("{P}Registry.count")];
    assert_eq!(path, "LambdaTest.lambda$bumps$0 -> Registry.bump");
    let uses = statics.of_class(&format!("{P}PutTest"));
    assert_eq!(
        uses.fields[&format!("{P}Registry.MAP")].1,
        "PutTest.puts -> Registry.put"
    );
}

#[test]
fn immutable_values_are_decided_by_reading_the_classes() {
    let list = classes();
    let map = by_name(&list);
    let immutable = Immutability::new(&map);
    let values = map[&format!("{P}Values")];
    let tracked: Vec<&str> = values
        .fields
        .iter()
        .filter(|f| immutable.tracked(values, f))
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(
        tracked,
        [
            "HOLDER",
            "OPEN",
            "COUNTER",
            "NAMES",
            "CAPTURING",
            "ARRAY",
            "COUNTING"
        ],
        "final record, final class of final immutable fields, self-referencing record, \
         non-capturing lambda and method reference, a stateless anonymous class, a plain Object \
         (a lock), enums without mutable state and JDK value types are not tracked"
    );
    assert!(immutable.class(&format!("{P}Values$Node")));
    assert!(!immutable.class(&format!("{P}Values$Counter")));
    assert!(!immutable.class("java.util.ArrayList"));
    assert!(immutable.descriptor("J") && !immutable.descriptor("[I"));
}

#[test]
fn references_initializers_enums_and_annotations_are_followed() {
    let list = classes();
    let map = by_name(&list);
    let statics = Statics::new(&map);
    let uses = statics.of_class(&format!("{P}MethodRefTest"));
    let fields: Vec<(&str, How)> = uses
        .fields
        .iter()
        .map(|(f, (h, _))| (f.trim_start_matches(P), *h))
        .collect();
    // Shape::area (an interface method reference) reaches Square's override; Made::new runs
    // Made's static initializer.
    assert!(fields.contains(&("Square.last", How::Writes)), "{fields:?}");
    assert!(
        fields.contains(&("Registry.count", How::Writes)),
        "{fields:?}"
    );
    // A superclass's static initializer runs when the subclass is first used.
    assert_eq!(
        touched(&statics, "SubTest"),
        [("Registry.MAP".to_string(), How::Uses)]
    );
    // An enum constant of an enum with a non-final field is shared state.
    assert_eq!(
        touched(&statics, "EnumTest"),
        [("Values$Counter.ONE".to_string(), How::Uses)]
    );
    // A class the test's annotations name runs as part of the test (JUnit's extensions).
    assert_eq!(
        touched(&statics, "AnnotatedTest"),
        [("Registry.count".to_string(), How::Writes)]
    );
}

#[test]
fn types_that_refer_to_each_other_are_decided_whichever_comes_first() {
    let list = classes();
    let map = by_name(&list);
    for first in ["Tree", "Tree$Node"] {
        let immutable = Immutability::new(&map);
        assert!(!immutable.class(&format!("{P}{first}")));
        assert!(
            !immutable.class(&format!("{P}Tree$Node")),
            "a Node holds a Tree whose size can change (decided after {first})"
        );
        assert!(!immutable.class(&format!("{P}Tree")));
    }
    // A record holding itself is still immutable.
    let immutable = Immutability::new(&map);
    assert!(immutable.class(&format!("{P}Values$Node")));
}

#[test]
fn what_only_a_class_initializer_does_to_its_own_fields_is_not_a_write() {
    let list = classes();
    let map = by_name(&list);
    let statics = Statics::new(&map);
    // `InitOwn.<clinit>` calls `choose()`, which writes `adapter`: reached only through that
    // initializer, it is initialization. The hook's lambda body may run at any time later.
    assert_eq!(
        touched(&statics, "InitReadTest"),
        [
            ("InitOwn.adapter".to_string(), How::Uses),
            ("InitOwn.fired".to_string(), How::Writes)
        ]
    );
    // The same helper called from the test's own code writes.
    assert_eq!(
        touched(&statics, "InitResetTest"),
        [
            ("InitOwn.adapter".to_string(), How::Writes),
            ("InitOwn.fired".to_string(), How::Writes)
        ]
    );
    // Another class's initializer writing InitOwn's field writes it: whether it ran before a
    // test that reads the field depends on the order.
    let uses = statics.of_class(&format!("{P}InitOtherTest"));
    let (how, path) = &uses.fields[&format!("{P}InitOwn.level")];
    assert_eq!(*how, How::Writes);
    assert_eq!(
        path,
        "InitOtherTest.touches -> InitOther.<clinit> -> InitOwn.setLevel"
    );
    assert!(!uses.fields.contains_key(&format!("{P}InitOwn.adapter")));
}

#[test]
fn a_value_that_comes_from_one_of_two_branches_is_tracked() {
    let list = classes();
    let map = by_name(&list);
    let immutable = Immutability::new(&map);
    let owner = map[&format!("{P}InitOwn")];
    let either = owner.fields.iter().find(|f| f.name == "EITHER").unwrap();
    // `c ? new ArrayList() : new Object()`: the instruction before the putstatic makes an
    // Object, but the other branch jumps to it with a list.
    assert!(immutable.tracked(owner, either));
    // `new int[c ? 4 : 0]` (the branches join at the newarray) and `GRID[0]` (`iconst_0;
    // aaload`) look like `iconst_0; newarray` and are not empty arrays.
    for name in ["SIZED", "ROW", "GRID"] {
        let f = owner.fields.iter().find(|f| f.name == name).unwrap();
        assert!(immutable.tracked(owner, f), "{name}");
    }
}
