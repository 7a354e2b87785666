//! Direct restores: Java source for each kind of simple passing value, and the refusals, over
//! the fixture classes of `tests/fixtures/reset/follow/` (for enum visibility and names).

use std::path::PathBuf;

use super::*;
use crate::jvm::classfile::{class_files_under, ClassFile};

fn classes() -> Vec<ClassFile> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reset");
    let mut out = Vec::new();
    for dir in ["follow", "followtest"] {
        for path in class_files_under(&root.join(dir)).unwrap() {
            out.push(ClassFile::read(&path).unwrap());
        }
    }
    out
}

/// The statements that restore a field `X.F` of type `declared` to `passing` (failing value
/// `failing`), compiled into `from`.
fn restore(
    declared: &str,
    is_final: bool,
    passing: &Node,
    failing: Option<&Node>,
    from: &str,
) -> Result<Vec<String>, String> {
    let classes = classes();
    let module = Hierarchy::new(&classes);
    let from = Viewpoint::of(&module, from);
    let target = RestoreTarget {
        expr: "X.F",
        declared,
        is_final,
    };
    restore_statements(
        &target,
        passing,
        failing,
        &Scope {
            module: &module,
            from: &from,
        },
    )
}

const TEST: &str = "com.acme.other.FollowTest";

fn one(declared: &str, passing: Node) -> String {
    let mut s = restore(declared, false, &passing, None, TEST).unwrap();
    assert_eq!(s.len(), 1, "{s:?}");
    s.remove(0)
}

fn prim(class: &str, text: &str) -> Node {
    Node::Prim {
        class: class.into(),
        text: text.into(),
    }
}

fn s(text: &str) -> Node {
    Node::Str(text.into())
}

fn refused(declared: &str, is_final: bool, passing: Node) -> String {
    match restore(declared, is_final, &passing, None, TEST) {
        Ok(s) => panic!("restored as {s:?}"),
        Err(why) => why,
    }
}

#[test]
fn primitives_are_java_literals_of_their_type() {
    assert_eq!(one("int", prim("int", "-7")), "X.F = -7;");
    assert_eq!(one("long", prim("long", "42")), "X.F = 42L;");
    assert_eq!(one("boolean", prim("boolean", "true")), "X.F = true;");
    assert_eq!(one("byte", prim("byte", "-128")), "X.F = (byte) -128;");
    assert_eq!(one("short", prim("short", "300")), "X.F = (short) 300;");
    assert_eq!(one("char", prim("char", "'")), r"X.F = '\'';");
    assert_eq!(one("char", prim("char", "\\u0001")), r"X.F = '\001';");
    assert_eq!(one("float", prim("float", "0.1")), "X.F = 0.1f;");
    assert_eq!(one("float", prim("float", "NaN")), "X.F = Float.NaN;");
    assert_eq!(
        one("double", prim("double", "1.0E10")),
        "X.F = 10000000000.0d;"
    );
    assert_eq!(one("double", prim("double", "1.0E300")), "X.F = 1e300d;");
    assert_eq!(
        one("double", prim("double", "-Infinity")),
        "X.F = Double.NEGATIVE_INFINITY;"
    );
    // Boxed values into reference fields: the literal boxes to the same class.
    assert_eq!(
        one("java.lang.Long", prim("java.lang.Long", "5")),
        "X.F = 5L;"
    );
    assert_eq!(
        one("java.lang.Object", prim("java.lang.Byte", "5")),
        "X.F = (byte) 5;"
    );
    assert_eq!(
        one("java.lang.Number", prim("java.lang.Integer", "5")),
        "X.F = 5;"
    );
    // A value that does not fit its declared type is refused, not cast.
    assert!(refused("long", false, prim("int", "5")).contains("does not fit"));
    assert!(
        refused("java.lang.String", false, prim("java.lang.Integer", "5")).contains("does not fit")
    );
    assert!(refused("int", false, prim("int", "five")).contains("cannot be read"));
}

#[test]
fn strings_enums_nulls_and_jdk_numbers() {
    assert_eq!(one("java.lang.String", s("default")), "X.F = \"default\";");
    assert_eq!(
        one("java.lang.CharSequence", s("a\"b\\c\né")),
        r#"X.F = "a\"b\\c\n\u00e9";"#
    );
    assert_eq!(one("java.lang.String", Node::Null), "X.F = null;");
    assert_eq!(
        one(
            "com.acme.follow.Config$Level",
            Node::Enum {
                class: "com.acme.follow.Config$Level".into(),
                name: "HIGH".into()
            }
        ),
        "X.F = com.acme.follow.Config.Level.HIGH;"
    );
    assert_eq!(
        one(
            "java.math.BigDecimal",
            Node::Text {
                class: "java.math.BigDecimal".into(),
                text: "1.50".into()
            }
        ),
        "X.F = new java.math.BigDecimal(\"1.50\");"
    );
    // `\u0001` in a captured string is either that text or an escaped control character.
    assert!(refused("java.lang.String", false, s("a\\u0001")).contains("not known exactly"));
    assert_eq!(
        one("java.lang.String", s("C:\\users")),
        r#"X.F = "C:\\users";"#
    );
    assert!(refused("int", false, Node::Null).contains("null does not fit"));
}

#[test]
fn atomics_are_set_in_place_when_final_or_already_there() {
    let atomic = |v: &str| Node::Text {
        class: "java.util.concurrent.atomic.AtomicInteger".into(),
        text: v.into(),
    };
    let t = "java.util.concurrent.atomic.AtomicInteger";
    assert_eq!(
        restore(t, true, &atomic("0"), Some(&atomic("3")), TEST).unwrap(),
        ["X.F.set(0);"]
    );
    assert_eq!(
        restore(t, false, &atomic("0"), Some(&Node::Null), TEST).unwrap(),
        ["X.F = new java.util.concurrent.atomic.AtomicInteger(0);"]
    );
}

fn list(class: &str, items: Vec<Node>) -> Node {
    Node::List {
        class: class.into(),
        items,
    }
}

fn map(class: &str, entries: Vec<(Node, Node)>) -> Node {
    Node::Map {
        class: class.into(),
        entries,
    }
}

#[test]
fn collections_are_refilled_in_place_or_made_anew() {
    let passing = list(
        "java.util.ArrayList",
        vec![s("a"), prim("java.lang.Integer", "1")],
    );
    let failing = list("java.util.ArrayList", vec![s("a"), s("b")]);
    // Final: in place, whatever the failing value.
    assert_eq!(
        restore("java.util.List", true, &passing, None, TEST).unwrap(),
        ["X.F.clear();", "X.F.add(\"a\");", "X.F.add(1);"]
    );
    // Not final, the same class already there: in place too (others holding it see it).
    assert_eq!(
        restore("java.util.List", false, &passing, Some(&failing), TEST).unwrap(),
        ["X.F.clear();", "X.F.add(\"a\");", "X.F.add(1);"]
    );
    // Not final, null or another class there: a new one.
    assert_eq!(
        restore("java.util.List", false, &passing, Some(&Node::Null), TEST).unwrap(),
        [
            "X.F = new java.util.ArrayList<>();",
            "X.F.add(\"a\");",
            "X.F.add(1);"
        ]
    );
    let empty_map = map("java.util.HashMap", vec![]);
    assert_eq!(
        restore("java.util.Map", false, &empty_map, None, TEST).unwrap(),
        ["X.F = new java.util.HashMap<>();"]
    );
    let passing_map = map(
        "java.util.concurrent.ConcurrentHashMap",
        vec![(s("eur"), prim("java.lang.Double", "0.9"))],
    );
    assert_eq!(
        restore("java.util.Map", true, &passing_map, None, TEST).unwrap(),
        ["X.F.clear();", "X.F.put(\"eur\", 0.9d);"]
    );
    let props = map("java.util.Properties", vec![(s("k"), s("v"))]);
    assert_eq!(
        restore(
            "java.util.Properties",
            false,
            &props,
            Some(&Node::Null),
            TEST
        )
        .unwrap(),
        [
            "X.F = new java.util.Properties();",
            "X.F.put(\"k\", \"v\");"
        ]
    );
    let set = Node::Set {
        class: "java.util.HashSet".into(),
        items: vec![Node::Enum {
            class: "com.acme.follow.Config$Level".into(),
            name: "LOW".into(),
        }],
    };
    assert_eq!(
        restore("java.util.Set", true, &set, None, TEST).unwrap(),
        ["X.F.clear();", "X.F.add(com.acme.follow.Config.Level.LOW);"]
    );
}

#[test]
fn immutable_collections_are_made_by_their_factory() {
    let made = |class: &str, items: Vec<Node>| {
        restore("java.util.List", false, &list(class, items), None, TEST).unwrap()
    };
    assert_eq!(
        made("java.util.Collections$EmptyList", vec![]),
        ["X.F = java.util.Collections.emptyList();"]
    );
    assert_eq!(
        made("java.util.ImmutableCollections$ListN", vec![s("a"), s("b")]),
        ["X.F = java.util.List.of(\"a\", \"b\");"]
    );
    assert_eq!(
        made("java.util.Arrays$ArrayList", vec![s("a"), Node::Null]),
        ["X.F = java.util.Arrays.asList(\"a\", null);"]
    );
    assert_eq!(
        restore(
            "java.util.Map",
            false,
            &map(
                "java.util.ImmutableCollections$Map1",
                vec![(s("k"), prim("java.lang.Integer", "1"))]
            ),
            None,
            TEST
        )
        .unwrap(),
        ["X.F = java.util.Map.of(\"k\", 1);"]
    );
    // Immutable and final: it cannot be refilled, nor assigned.
    let why = restore(
        "java.util.List",
        true,
        &list("java.util.ImmutableCollections$ListN", vec![s("a")]),
        None,
        TEST,
    )
    .unwrap_err();
    assert!(why.contains("cannot be refilled"), "{why}");
    // List.of refuses nulls: no factory.
    let why = restore(
        "java.util.List",
        false,
        &list("java.util.ImmutableCollections$ListN", vec![Node::Null]),
        None,
        TEST,
    )
    .unwrap_err();
    assert!(why.contains("no constructor or factory"), "{why}");
}

#[test]
fn arrays_of_scalars_are_new_arrays() {
    let array = |class: &str, items| Node::Array {
        class: class.into(),
        items,
    };
    assert_eq!(
        one(
            "long[]",
            array("long[]", vec![prim("long", "1"), prim("long", "2")])
        ),
        "X.F = new long[] {1L, 2L};"
    );
    assert_eq!(
        one("java.lang.String[]", array("java.lang.String[]", vec![])),
        "X.F = new java.lang.String[] {};"
    );
    assert!(refused("long[]", true, array("long[]", vec![])).contains("final array"));
    assert!(refused("int[][]", false, array("int[][]", vec![])).contains("holds arrays"));
}

#[test]
fn values_that_are_not_simple_are_refused_with_the_reason() {
    let object = Node::Object {
        class: "com.acme.Job".into(),
        fields: vec![],
    };
    assert!(refused("com.acme.Job", false, object).contains("walked field by field"));
    let lambda = Node::Opaque {
        class: "com.acme.Job$$Lambda/0x1234".into(),
        reason: String::new(),
    };
    assert!(refused("java.lang.Runnable", false, lambda).contains("does not walk"));
    let reference = Node::Ref {
        to: "com.acme.A.B".into(),
    };
    assert!(refused("java.lang.Object", false, reference).contains("same object"));
    assert!(refused("java.lang.Object", false, Node::Truncated).contains("truncated"));
    let huge = list(
        "java.util.ArrayList",
        (0..=MAX_LITERAL_ELEMENTS)
            .map(|i| prim("java.lang.Integer", &i.to_string()))
            .collect(),
    );
    assert!(refused("java.util.List", true, huge).contains("17 elements"));
    let nested = list(
        "java.util.ArrayList",
        vec![list("java.util.ArrayList", vec![])],
    );
    assert!(refused("java.util.List", true, nested).contains("not a scalar"));
    let uuid = Node::Text {
        class: "java.util.UUID".into(),
        text: "0-0-0-0-0".into(),
    };
    assert!(refused("java.util.UUID", false, uuid).contains("not one odrust writes"));
    // A sorted collection made anew would lose its comparator.
    let tree = map("java.util.TreeMap", vec![]);
    assert!(refused("java.util.Map", false, tree).contains("comparator"));
    // Final scalars cannot be assigned.
    assert!(refused("java.lang.String", true, s("x")).contains("final"));
}

#[test]
fn an_enum_the_placement_cannot_name_is_refused() {
    // Config.Level is public in a public class: visible from another package.
    let classes = classes();
    let module = Hierarchy::new(&classes);
    assert!(module.class_visible(
        "com.acme.follow.Config$Level",
        &Viewpoint::of(&module, TEST)
    ));
    // Outer$Inner is package-private: an enum of that kind would be refused the same way.
    let hidden = Node::Enum {
        class: "com.acme.follow.Outer$Inner".into(),
        name: "X".into(),
    };
    assert!(refused("java.lang.Object", false, hidden.clone()).contains("cannot be named"));
    assert_eq!(
        restore(
            "java.lang.Object",
            false,
            &hidden,
            None,
            "com.acme.follow.ConfigPolluterTest"
        )
        .unwrap(),
        ["X.F = com.acme.follow.Outer.Inner.X;"]
    );
}
