use std::collections::BTreeMap;

use super::*;

/// A capture document around `body` (the elements inside `<capture>`).
fn doc(body: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\" test=\"com.acme.VTest#v\" \
         occurrence=\"2\" java=\"17.0.9\" nodes=\"12\" limit=\"200000\" truncated=\"false\">\n{body}\n</capture>\n"
    )
}

/// The value of the one static field `com.acme.S.F` written as `node`.
fn value_of(node: &str) -> Node {
    let xml = doc(&format!(
        "<class name=\"com.acme.S\" initialized=\"true\"><static field=\"F\" type=\"java.lang.Object\" final=\"false\">{node}</static></class>"
    ));
    let mut capture = parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let Some(ClassState::Initialized(mut statics)) = capture.classes.remove("com.acme.S") else {
        panic!("com.acme.S is not initialized");
    };
    statics.remove("F").expect("field F").value
}

/// The error message of parsing `xml`.
fn error_of(xml: &str) -> String {
    match parse(xml) {
        Ok(capture) => panic!("parsed: {capture:?}"),
        Err(e) => {
            assert_eq!(e.code(), "io");
            e.to_string()
        }
    }
}

fn s(text: &str) -> Node {
    Node::Str(text.to_string())
}

fn int(text: &str) -> Node {
    Node::Prim {
        class: "int".into(),
        text: text.into(),
    }
}

#[test]
fn reads_the_header_pseudo_state_and_classes() {
    let xml = doc(
        r#"<pseudo name="java.lang.System.properties"><map class="java.util.Properties" size="1"><entry><string>user.timezone</string><string>UTC</string></entry></map></pseudo>
  <pseudo name="java.util.Locale.default"><text class="java.util.Locale">en-US</text></pseudo>
  <class name="com.acme.Lazy" initialized="false"/>
  <class name="com.acme.Prices" initialized="true">
    <static field="RATES" type="java.util.Map" final="true"><map class="java.util.HashMap" size="1"><entry><string>EUR</string><text class="java.math.BigDecimal">1.50</text></entry></map></static>
    <static field="count" type="int" final="false"><prim class="int">5</prim></static>
  </class>
  <class name="com.acme.Empty" initialized="true"></class>"#,
    );
    let capture = parse(&xml).unwrap();
    assert_eq!(capture.test, "com.acme.VTest#v");
    assert_eq!(capture.occurrence, 2);
    assert_eq!(capture.java.as_deref(), Some("17.0.9"));
    assert!(!capture.truncated);
    assert_eq!(
        capture.pseudo.keys().collect::<Vec<_>>(),
        ["java.lang.System.properties", "java.util.Locale.default"]
    );
    assert_eq!(
        capture.pseudo["java.util.Locale.default"],
        Node::Text {
            class: "java.util.Locale".into(),
            text: "en-US".into()
        }
    );
    assert_eq!(capture.classes["com.acme.Lazy"], ClassState::Uninitialized);
    assert_eq!(
        capture.classes["com.acme.Empty"],
        ClassState::Initialized(BTreeMap::new())
    );
    let ClassState::Initialized(statics) = &capture.classes["com.acme.Prices"] else {
        panic!("Prices is initialized");
    };
    assert_eq!(statics.keys().collect::<Vec<_>>(), ["RATES", "count"]);
    let rates = &statics["RATES"];
    assert_eq!(rates.type_name, "java.util.Map");
    assert!(rates.is_final);
    assert_eq!(
        rates.value,
        Node::Map {
            class: "java.util.HashMap".into(),
            entries: vec![(
                s("EUR"),
                Node::Text {
                    class: "java.math.BigDecimal".into(),
                    text: "1.50".into()
                }
            )]
        }
    );
    assert!(!statics["count"].is_final);
    assert_eq!(statics["count"].value, int("5"));
}

#[test]
fn reads_every_kind_of_node() {
    let node = value_of(
        r#"<object class="com.acme.Job">
             <field name="a"><null/></field>
             <field name="b"><enum class="com.acme.Color">RED</enum></field>
             <field name="c"><array class="int[]" length="2"><prim class="int">1</prim><prim class="int">2</prim></array></field>
             <field name="d"><list class="java.util.ArrayList" size="1"><string>x</string></list></field>
             <field name="e"><set class="java.util.HashSet" size="1"><prim class="java.lang.Long">7</prim></set></field>
             <field name="id" declaring="com.acme.Base"><ref to="com.acme.S.F"/></field>
             <field name="id" declaring="com.acme.Job"><opaque class="java.lang.Thread" reason="odrust does not walk objects of this kind"/></field>
             <field name="z"><unreadable class="java.lang.Object" reason="java.lang.reflect.InaccessibleObjectException: no"/></field>
             <field name="zz"><truncated/></field>
           </object>"#,
    );
    let Node::Object { class, fields } = &node else {
        panic!("an object: {node:?}");
    };
    assert_eq!(class, "com.acme.Job");
    let names: Vec<(&str, Option<&str>)> = fields
        .iter()
        .map(|f| (f.name.as_str(), f.declaring.as_deref()))
        .collect();
    assert_eq!(
        names,
        [
            ("a", None),
            ("b", None),
            ("c", None),
            ("d", None),
            ("e", None),
            ("id", Some("com.acme.Base")),
            ("id", Some("com.acme.Job")),
            ("z", None),
            ("zz", None)
        ]
    );
    let values: Vec<&Node> = fields.iter().map(|f| &f.value).collect();
    assert_eq!(*values[0], Node::Null);
    assert_eq!(
        *values[1],
        Node::Enum {
            class: "com.acme.Color".into(),
            name: "RED".into()
        }
    );
    assert_eq!(
        *values[2],
        Node::Array {
            class: "int[]".into(),
            items: vec![int("1"), int("2")]
        }
    );
    assert_eq!(
        *values[3],
        Node::List {
            class: "java.util.ArrayList".into(),
            items: vec![s("x")]
        }
    );
    assert_eq!(
        *values[4],
        Node::Set {
            class: "java.util.HashSet".into(),
            items: vec![Node::Prim {
                class: "java.lang.Long".into(),
                text: "7".into()
            }]
        }
    );
    assert_eq!(
        *values[5],
        Node::Ref {
            to: "com.acme.S.F".into()
        }
    );
    assert_eq!(
        *values[6],
        Node::Opaque {
            class: "java.lang.Thread".into(),
            reason: "odrust does not walk objects of this kind".into()
        }
    );
    assert_eq!(
        *values[7],
        Node::Unreadable {
            class: "java.lang.Object".into(),
            reason: "java.lang.reflect.InaccessibleObjectException: no".into()
        }
    );
    assert_eq!(*values[8], Node::Truncated);
}

#[test]
fn string_text_is_kept_exactly() {
    // Whitespace is part of the value, entities are decoded, `\uXXXX` stays as written.
    assert_eq!(
        value_of("<string>  a &lt;b&gt; &amp; \"c\"\n </string>"),
        s("  a <b> & \"c\"\n ")
    );
    assert_eq!(value_of(r"<string>bell\u0007</string>"), s(r"bell\u0007"));
    assert_eq!(value_of("<string>&#13;x</string>"), s("\rx"));
    assert_eq!(value_of("<string>a<!-- c -->b</string>"), s("ab"));
    assert_eq!(value_of("<string/>"), s(""));
    assert_eq!(value_of("<string></string>"), s(""));
    assert_eq!(value_of("<string>é ✓</string>"), s("é ✓"));
}

#[test]
fn empty_containers_and_leaves_written_with_end_tags() {
    assert_eq!(
        value_of(r#"<list class="java.util.LinkedList" size="0"/>"#),
        Node::List {
            class: "java.util.LinkedList".into(),
            items: vec![]
        }
    );
    assert_eq!(
        value_of(r#"<object class="java.lang.Object"></object>"#),
        Node::Object {
            class: "java.lang.Object".into(),
            fields: vec![]
        }
    );
    assert_eq!(value_of("<null> </null>"), Node::Null);
    assert_eq!(
        value_of(r#"<ref to="a.B.c[0]"></ref>"#),
        Node::Ref {
            to: "a.B.c[0]".into()
        }
    );
    assert_eq!(
        value_of(r#"<opaque class="java.io.InputStream"/>"#),
        Node::Opaque {
            class: "java.io.InputStream".into(),
            reason: String::new()
        }
    );
}

#[test]
fn a_bare_capture_and_the_truncated_flag() {
    let capture =
        parse(r#"<capture version="1" test="a.B#c" occurrence="1" truncated="true"/>"#).unwrap();
    assert_eq!(capture.test, "a.B#c");
    assert_eq!(capture.java, None);
    assert!(capture.truncated);
    assert!(capture.pseudo.is_empty() && capture.classes.is_empty());
}

#[test]
fn rejects_another_version() {
    let message = error_of(r#"<capture version="2" test="a.B#c" occurrence="1"/>"#);
    assert!(
        message.contains("unsupported capture version `2`") && message.contains("version 1"),
        "{message}"
    );
    let message = error_of(r#"<capture test="a.B#c" occurrence="1"/>"#);
    assert!(message.contains("no `version` attribute"), "{message}");
}

#[test]
fn rejects_malformed_xml_with_its_position() {
    let message = error_of(&doc("<class name=\"a.B\" initialized=\"true\">\n<static field=\"x\" type=\"int\"><null/></wrong></class>"));
    assert!(message.contains("malformed XML"), "{message}");
    assert!(message.contains("line 4, column 37"), "{message}");
    assert!(
        message.starts_with("cannot read the capture text: not a valid heap-state capture: "),
        "{message}"
    );
    let message =
        error_of("<capture version=\"1\" test=\"a\" occurrence=\"1\"><pseudo name=\"x\"><null/>");
    assert!(message.contains("ends inside <pseudo>"), "{message}");
    assert!(error_of("").contains("no <capture> element"));
    assert!(
        error_of("<capture version=\"1\" test=\"a\" occurrence=\"1\" x=\"1").contains("line 1")
    );
}

#[test]
fn rejects_unknown_and_misplaced_elements() {
    let message = error_of(&doc(
        r#"<class name="a.B" initialized="true"><static field="x" type="int"><integer>5</integer></static></class>"#,
    ));
    assert!(
        message.contains("unknown element <integer> inside <static>"),
        "{message}"
    );
    assert!(message.contains("line 3, column 67"), "{message}");
    let message = error_of(&doc(
        r#"<class name="a.B" initialized="true"><static field="x" type="int"><list class="L"><entry/></list></static></class>"#,
    ));
    assert!(
        message.contains("<entry> is not allowed inside <list>"),
        "{message}"
    );
    let message = error_of(&doc(
        r#"<pseudo name="p"><map class="M"><string>k</string></map></pseudo>"#,
    ));
    assert!(
        message.contains("<string> is not allowed inside <map>"),
        "{message}"
    );
    let message = error_of(&doc(
        r#"<pseudo name="p"><object class="O"><null/></object></pseudo>"#,
    ));
    assert!(
        message.contains("<null> is not allowed inside <object>"),
        "{message}"
    );
    let message = error_of(&doc(r#"<widget/>"#));
    assert!(
        message.contains("unknown element <widget> inside <capture>"),
        "{message}"
    );
    let message = error_of("<heap version=\"1\"/>");
    assert!(message.contains("the root element is <heap>"), "{message}");
    let message = error_of(&doc(r#"<pseudo name="p"><string>a<b/></string></pseudo>"#));
    assert!(message.contains("<string> holds no elements"), "{message}");
}

#[test]
fn rejects_wrong_structure() {
    let cases = [
        (
            r#"<pseudo name="p"><map class="M"><entry><string>k</string></entry></map></pseudo>"#,
            "holds one node; it needs a key and a value",
        ),
        (
            r#"<pseudo name="p"><map class="M"><entry><null/><null/><null/></entry></map></pseudo>"#,
            "an <entry> holds more than two nodes",
        ),
        (
            r#"<pseudo name="p"><null/><null/></pseudo>"#,
            "<pseudo> holds more than one node",
        ),
        (
            r#"<pseudo name="p"> </pseudo>"#,
            "<pseudo name=\"p\"> holds no node",
        ),
        (
            r#"<class name="a.B" initialized="true"><static field="x" type="int"/></class>"#,
            "<static field=\"x\"> holds no node",
        ),
        (
            r#"<class name="a.B" initialized="false"><static field="x" type="int"><null/></static></class>"#,
            "an uninitialized class has no static fields",
        ),
        (
            r#"<class name="a.B" initialized="false"/><class name="a.B" initialized="false"/>"#,
            "class `a.B` is written twice",
        ),
        (
            r#"<class name="a.B" initialized="true"><static field="x" type="int"><null/></static><static field="x" type="int"><null/></static></class>"#,
            "static field `a.B.x` is written twice",
        ),
        (
            r#"<class name="a.B" initialized="yes"/>"#,
            "expected `true` or `false`",
        ),
        (r#"<class name="a.B"/>"#, "no `initialized` attribute"),
        (
            r#"<pseudo name="p"><prim>1</prim></pseudo>"#,
            "<prim> has no `class` attribute",
        ),
        (
            r#"<pseudo name="p"><null kind="x"/></pseudo>"#,
            "unknown attribute `kind` on <null> (it has none)",
        ),
        (
            r#"<pseudo name="p"><list class="L" size="two"/></pseudo>"#,
            "attribute `size` is `two`, expected a non-negative integer",
        ),
        (
            r#"<pseudo name="p"><list class="L">text</list></pseudo>"#,
            "unexpected text `text` inside <list>",
        ),
    ];
    for (body, expected) in cases {
        let message = error_of(&doc(body));
        assert!(message.contains(expected), "{body}\n  gave: {message}");
    }
    let message = error_of(r#"<capture version="1" test="a" occurrence="-1"/>"#);
    assert!(message.contains("`occurrence` is `-1`"), "{message}");
    let message = error_of(r#"<capture version="1" test="a" occurrence="1"/><capture/>"#);
    assert!(message.contains("after the end of </capture>"), "{message}");
}

#[test]
fn read_names_the_file() {
    let dir = std::env::temp_dir().join(format!("odrust-capture-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.xml");
    fs::write(&good, doc("")).unwrap();
    assert_eq!(read(&good).unwrap().occurrence, 2);

    let bad = dir.join("bad.xml");
    fs::write(&bad, doc("<bogus/>")).unwrap();
    let message = read(&bad).unwrap_err().to_string();
    assert!(message.contains(&bad.display().to_string()), "{message}");
    assert!(message.contains("unknown element <bogus>"), "{message}");

    let binary = dir.join("binary.xml");
    fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    let message = read(&binary).unwrap_err().to_string();
    assert!(message.contains("not UTF-8"), "{message}");

    let missing = dir.join("missing.xml");
    let error = read(&missing).unwrap_err();
    assert!(
        matches!(&error, EngineError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    );
    assert!(error.to_string().contains("missing.xml"), "{error}");
    fs::remove_dir_all(&dir).unwrap();
}

/// `depth` lists nested in each other around `leaf`.
fn nested(depth: usize, leaf: &str) -> String {
    let mut xml = String::new();
    for _ in 0..depth {
        xml.push_str("<list class=\"L\">");
    }
    xml.push_str(leaf);
    for _ in 0..depth {
        xml.push_str("</list>");
    }
    xml
}

/// Runs `f` on a thread with a small stack, as a JNI thread may have.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn deep_nesting_up_to_the_cap_needs_no_deep_stack() {
    let rendered = on_small_stack(|| {
        // MAX_DEPTH nodes: MAX_DEPTH - 1 lists around one string.
        let node = value_of(&nested(MAX_DEPTH - 1, "<string>bottom</string>"));
        let form = canonical(&node);
        assert!(form.ends_with("s6:bottom"), "{}", &form[form.len() - 20..]);
        let rendered = render(&node);
        drop(node);
        rendered
    });
    assert_eq!(rendered.chars().count(), RENDER_LIMIT);
    assert!(rendered.starts_with("[[[[") && rendered.ends_with('…'));
}

#[test]
fn nesting_beyond_the_cap_is_an_error() {
    let message = on_small_stack(|| {
        error_of(&doc(&format!(
            "<pseudo name=\"p\">{}</pseudo>",
            nested(MAX_DEPTH, "<null/>")
        )))
    });
    assert!(
        message.contains("nested deeper than 10000 levels"),
        "{message}"
    );
}

#[test]
fn renders_each_kind() {
    let cases = [
        ("<null/>", "null"),
        (r#"<prim class="char">c</prim>"#, "c"),
        ("<string>a b</string>", "a b"),
        (r#"<enum class="E">RED</enum>"#, "RED"),
        (r#"<text class="java.math.BigDecimal">1.50</text>"#, "1.50"),
        (
            r#"<array class="int[]" length="2"><prim class="int">1</prim><prim class="int">2</prim></array>"#,
            "[1, 2]",
        ),
        (r#"<list class="L" size="0"/>"#, "[]"),
        (
            r#"<set class="S" size="2"><string>a</string><string>b</string></set>"#,
            "{a, b}",
        ),
        (
            r#"<map class="M"><entry><string>k</string><prim class="int">1</prim></entry><entry><string>k2</string><null/></entry></map>"#,
            "{k=1, k2=null}",
        ),
        (
            r#"<object class="com.acme.Job"><field name="name"><string>x</string></field><field name="state"><enum class="S">RUNNING</enum></field></object>"#,
            "Job{name=x, state=RUNNING}",
        ),
        (r#"<object class="com.acme.Outer$Inner"/>"#, "Inner{}"),
        (
            r#"<object class="com.acme.Outer$1"/>"#,
            "com.acme.Outer$1{}",
        ),
        (r#"<object class="Plain"/>"#, "Plain{}"),
        (r#"<ref to="a.B.c[k].d"/>"#, "@a.B.c[k].d"),
        (
            r#"<opaque class="java.lang.Thread" reason="r"/>"#,
            "<opaque java.lang.Thread>",
        ),
        (
            r#"<unreadable class="a.X" reason="r"/>"#,
            "<unreadable a.X>",
        ),
        ("<truncated/>", "…"),
        ("<string></string>", "\"\""),
        (
            r#"<list class="L"><list class="L"><string>a</string></list><set class="S"/><truncated/></list>"#,
            "[[a], {}, …]",
        ),
    ];
    for (xml, expected) in cases {
        assert_eq!(render(&value_of(xml)), expected, "{xml}");
    }
}

#[test]
fn render_is_cut_at_the_limit() {
    let exact = "x".repeat(RENDER_LIMIT);
    assert_eq!(render(&s(&exact)), exact);
    let long = render(&s(&"é".repeat(RENDER_LIMIT + 1)));
    assert_eq!(long.chars().count(), RENDER_LIMIT);
    assert_eq!(long, format!("{}…", "é".repeat(RENDER_LIMIT - 1)));

    let items: Vec<Node> = (0..100_000).map(|i| int(&i.to_string())).collect();
    let list = Node::List {
        class: "L".into(),
        items,
    };
    let shown = render(&list);
    assert_eq!(shown.chars().count(), RENDER_LIMIT);
    assert!(shown.starts_with("[0, 1, 2, 3"), "{shown}");
    assert!(shown.ends_with('…'), "{shown}");
}

#[test]
fn canonical_forms_tell_kinds_apart_and_ignore_entry_order() {
    assert_ne!(canonical(&int("1")), canonical(&s("1")));
    assert_ne!(
        canonical(&int("1")),
        canonical(&Node::Prim {
            class: "long".into(),
            text: "1".into()
        })
    );
    // Length prefixes keep concatenations apart.
    let ab = Node::List {
        class: "L".into(),
        items: vec![s("a"), s("b")],
    };
    let a_b = Node::List {
        class: "L".into(),
        items: vec![s("ab")],
    };
    assert_ne!(canonical(&ab), canonical(&a_b));
    let map = |entries: Vec<(Node, Node)>| Node::Map {
        class: "M".into(),
        entries,
    };
    let one = map(vec![(s("a"), int("1")), (s("b"), int("2"))]);
    let other = map(vec![(s("b"), int("2")), (s("a"), int("1"))]);
    let swapped = map(vec![(s("a"), int("2")), (s("b"), int("1"))]);
    assert_eq!(canonical(&one), canonical(&other));
    assert_ne!(canonical(&one), canonical(&swapped));
    let list = |items: Vec<Node>| Node::List {
        class: "L".into(),
        items,
    };
    assert_ne!(
        canonical(&list(vec![s("a"), s("b")])),
        canonical(&list(vec![s("b"), s("a")]))
    );
    let object = |declaring: Option<&str>| Node::Object {
        class: "O".into(),
        fields: vec![ObjField {
            name: "f".into(),
            declaring: declaring.map(str::to_string),
            value: Node::Null,
        }],
    };
    assert_ne!(canonical(&object(None)), canonical(&object(Some("B"))));
}
