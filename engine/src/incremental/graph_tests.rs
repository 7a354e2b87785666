//! Every kind of reference the graph follows, over `tests/fixtures/incremental/refs` (javac 17):
//! `Refs` names each target class in one way only.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::*;
use crate::jvm::classfile::{class_files_under, ClassFile, Constant, PoolEntry};

fn classes() -> BTreeMap<String, ClassFile> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/incremental/refs/classes");
    class_files_under(&dir)
        .unwrap()
        .iter()
        .map(|f| {
            let c = ClassFile::read(f).unwrap();
            (c.name.clone(), c)
        })
        .collect()
}

fn refs_of(name: &str) -> BTreeSet<String> {
    classes()[name].referenced_types()
}

const P: &str = "com.acme.refs.";

#[test]
fn every_reference_kind_is_followed() {
    let refs = refs_of("com.acme.refs.Refs");
    for (target, kind) in [
        ("PoolTarget", "constant-pool Class entry (new)"),
        ("LiteralTarget", "class literal (ldc)"),
        ("FieldType", "field descriptor"),
        ("ReturnType", "method descriptor (return)"),
        ("ParamType", "method descriptor (parameter)"),
        ("ThrownType", "Exceptions attribute"),
        ("Holder", "superinterface"),
        ("ClassSigBound", "class signature (type parameter bound)"),
        (
            "ClassSigArg",
            "class signature (superinterface type argument)",
        ),
        ("FieldSigArg", "field signature"),
        ("TypeArgTarget", "field signature (annotated type argument)"),
        ("MethodSigBound", "method signature (type parameter bound)"),
        ("MethodSigArg", "method signature (parameter type argument)"),
        ("Marker", "class annotation"),
        ("Uses", "class annotation with elements"),
        ("ClassValue", "class-valued annotation element"),
        ("Level", "enum-valued annotation element"),
        ("Inner", "annotation-valued annotation element"),
        ("FieldMarker", "field annotation"),
        ("ParamMarker", "parameter annotation"),
        ("TypeUse", "type annotation"),
        (
            "HandleTarget",
            "invokedynamic bootstrap argument (method handle)",
        ),
        ("Refs$Nested", "nest member / inner class"),
    ] {
        assert!(
            refs.contains(&format!("{P}{target}")),
            "{kind}: {target} not in {refs:?}"
        );
    }
    assert!(!refs.contains("com.acme.refs.Refs"));
    assert!(!refs.contains("com.acme.refs.DefaultTarget"));
}

#[test]
fn the_references_only_text_names_are_not_class_entries() {
    // The kinds the extension of the reader covers: these names are not in the pool as Class
    // entries, so only signatures and annotation values find them.
    let class = &classes()["com.acme.refs.Refs"];
    let pool_classes: BTreeSet<String> = class
        .pool
        .iter()
        .filter_map(|e| match e {
            PoolEntry::Class(i) => match &class.pool[*i as usize] {
                PoolEntry::Utf8(s) => Some(s.replace('/', ".")),
                _ => None,
            },
            _ => None,
        })
        .collect();
    for target in [
        "ClassSigBound",
        "FieldSigArg",
        "MethodSigArg",
        "ClassValue",
        "Level",
        "Inner",
        "ParamMarker",
        "TypeUse",
    ] {
        assert!(!pool_classes.contains(&format!("{P}{target}")), "{target}");
    }
    for target in ["ClassValue", "Level", "Inner", "ParamMarker", "TypeUse"] {
        assert!(
            class
                .annotation_references
                .contains(&format!("{P}{target}")),
            "{target}"
        );
    }
}

#[test]
fn bootstrap_arguments_name_method_handles_and_types() {
    let class = &classes()["com.acme.refs.Refs"];
    let lambda = class
        .bootstrap_methods
        .iter()
        .find(|b| b.method.owner == "java.lang.invoke.LambdaMetafactory")
        .expect("the method reference's bootstrap");
    let mut handle = false;
    let mut method_type = false;
    for &arg in &lambda.arguments {
        match &class.pool[arg as usize] {
            PoolEntry::MethodHandle { reference, .. } => {
                if let PoolEntry::Methodref { class: c, .. } = &class.pool[*reference as usize] {
                    if let PoolEntry::Class(n) = &class.pool[*c as usize] {
                        handle |= class.pool[*n as usize]
                            == PoolEntry::Utf8("com/acme/refs/HandleTarget".into());
                    }
                }
            }
            PoolEntry::MethodType(d) => {
                method_type |= class.pool[*d as usize]
                    == PoolEntry::Utf8("()Lcom/acme/refs/HandleTarget;".into());
            }
            _ => {}
        }
    }
    assert!(handle && method_type);
}

#[test]
fn annotation_defaults_permitted_subclasses_and_records() {
    let uses = refs_of("com.acme.refs.Uses");
    assert!(uses.contains("com.acme.refs.DefaultTarget"), "{uses:?}");
    let shape = refs_of("com.acme.refs.Shape");
    assert!(shape.contains("com.acme.refs.Circle") && shape.contains("com.acme.refs.Square"));
    let pair = refs_of("com.acme.refs.Pair");
    assert!(
        pair.contains("com.acme.refs.RecordComponentType"),
        "{pair:?}"
    );
    let nested = refs_of("com.acme.refs.Refs$Nested");
    assert!(
        nested.contains("com.acme.refs.Refs"),
        "nest host: {nested:?}"
    );
    assert!(matches!(
        classes()["com.acme.refs.Refs"]
            .method("literal", "()Ljava/lang/Class;")
            .unwrap()
            .code
            .as_ref()
            .unwrap()
            .instructions[0]
            .op,
        crate::jvm::classfile::Op::Const(Constant::Class(_))
    ));
}

#[test]
fn signatures_parse_nested_and_wildcard_types() {
    let mut out = BTreeSet::new();
    crate::jvm::classfile::signature_types(
        "<K:Ljava/lang/Object;V::Ljava/lang/Comparable<-TV;>;>(Ljava/util/Map<TK;[Lcom/a/B;>;Lcom/a/Outer<*>.Inner<+Lcom/a/C;>;)TV;^Lcom/a/E;^TX;",
        &mut out,
    );
    let expected: BTreeSet<String> = [
        "java.lang.Object",
        "java.lang.Comparable",
        "java.util.Map",
        "com.a.B",
        "com.a.Outer",
        "com.a.Outer$Inner",
        "com.a.C",
        "com.a.E",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(out, expected);
    let mut partial = BTreeSet::new();
    crate::jvm::classfile::signature_types("Lcom/a/Ok;Lcom/a/Broken<", &mut partial);
    assert!(partial.contains("com.a.Ok"));
}

#[test]
fn closure_over_the_fixture_with_a_path() {
    let classes = classes();
    let edges: BTreeMap<String, BTreeSet<String>> = classes
        .iter()
        .map(|(n, c)| {
            (
                n.clone(),
                c.referenced_types()
                    .into_iter()
                    .filter(|r| classes.contains_key(r))
                    .collect(),
            )
        })
        .collect();
    let graph = ClassGraph::new(&edges);
    let reach = graph.reach("com.acme.refs.Refs");
    // Uses names DefaultTarget in its annotation default: Refs reaches it through Uses.
    assert_eq!(
        reach.path("com.acme.refs.DefaultTarget").unwrap(),
        [
            "com.acme.refs.Refs",
            "com.acme.refs.Uses",
            "com.acme.refs.DefaultTarget"
        ]
    );
    assert!(!reach.contains("com.acme.refs.Shape"));
    assert!(!reach.contains("com.acme.refs.Pair"));
}
