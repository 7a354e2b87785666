//! The shapes of a heap-state capture: a [`Capture`] of classes ([`ClassState`]) and their
//! static fields ([`StaticField`]), each a tree of [`Node`]s. Dropping a node is iterative (a
//! capture may nest thousands of levels deep; see [`super::capture`]).

use std::collections::BTreeMap;

/// One value of the heap as the agent wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// `<null/>`.
    Null,
    /// `<prim class="int">5</prim>`: a primitive or boxed value, as Java's `String.valueOf`.
    Prim {
        /// `int`, `java.lang.Integer`, ...
        class: String,
        /// The value's text.
        text: String,
    },
    /// `<string>text</string>`: a `java.lang.String`. The text is kept as written: characters
    /// XML cannot hold stay in their `\uXXXX` form (a literal backslash is not escaped, so
    /// decoding would be ambiguous).
    Str(String),
    /// `<enum class="com.acme.Color">RED</enum>`: an enum constant.
    Enum {
        /// The enum's class.
        class: String,
        /// The constant's name.
        name: String,
    },
    /// `<text class="java.math.BigDecimal">1.50</text>`: a JDK value type by its `toString()`.
    Text {
        /// The value's class.
        class: String,
        /// Its text.
        text: String,
    },
    /// `<array class="int[]" length="3">`: an array's elements in order.
    Array {
        /// The array type, `int[]`.
        class: String,
        /// Its elements (fewer than its length when the capture was truncated).
        items: Vec<Node>,
    },
    /// `<list class="java.util.ArrayList" size="2">`: an ordered collection, in iteration order.
    List {
        /// The collection's class.
        class: String,
        /// Its elements.
        items: Vec<Node>,
    },
    /// `<set class="java.util.HashSet" size="2">`: a set, elements as the agent sorted them.
    Set {
        /// The set's class.
        class: String,
        /// Its elements.
        items: Vec<Node>,
    },
    /// `<map class="java.util.HashMap" size="1">`: a map, entries as the agent sorted them.
    Map {
        /// The map's class.
        class: String,
        /// Its entries, key then value.
        entries: Vec<(Node, Node)>,
    },
    /// `<object class="com.acme.Job">`: any other object, field by field.
    Object {
        /// The object's class.
        class: String,
        /// Its instance fields, as written (sorted by name).
        fields: Vec<ObjField>,
    },
    /// `<ref to="PATH"/>`: the same object as the node first met at `PATH` in this capture.
    Ref {
        /// The path of the first occurrence.
        to: String,
    },
    /// `<opaque class=".." reason=".."/>`: an object odrust does not walk (a thread, a stream, ...).
    Opaque {
        /// Its class.
        class: String,
        /// Why it was not walked (empty when the capture gives none).
        reason: String,
    },
    /// `<unreadable class=".." reason=".."/>`: a value reflection could not read.
    Unreadable {
        /// The declared or actual class.
        class: String,
        /// The exception that prevented reading it (empty when the capture gives none).
        reason: String,
    },
    /// `<truncated/>`: the node cap was reached here; nothing after it in the field was written.
    Truncated,
}

/// One instance field of an [`Node::Object`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjField {
    /// The field's name.
    pub name: String,
    /// The declaring class, given only when the name occurs twice in the class hierarchy.
    pub declaring: Option<String>,
    /// Its value.
    pub value: Node,
}

/// One capture: the state of every loaded class and of the JDK's pseudo state before a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// The test the capture was taken before (`com.acme.VTest#v`).
    pub test: String,
    /// Which start of that test (1 for the first).
    pub occurrence: u32,
    /// The Java version of the test JVM, when written.
    pub java: Option<String>,
    /// Whether the node cap was reached somewhere (some value holds a [`Node::Truncated`]).
    pub truncated: bool,
    /// The pseudo state by name (`java.lang.System.properties`, `java.util.Locale.default`, ...).
    pub pseudo: BTreeMap<String, Node>,
    /// Every loaded class by name.
    pub classes: BTreeMap<String, ClassState>,
}

/// A loaded class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassState {
    /// Loaded, its static initializer not run: no statics.
    Uninitialized,
    /// Initialized: its static fields by name (compile-time constants and synthetic fields left
    /// out).
    Initialized(BTreeMap<String, StaticField>),
}

/// One static field of an initialized class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticField {
    /// The declared type (`java.util.Map`).
    pub type_name: String,
    /// Whether the field is `final`.
    pub is_final: bool,
    /// Its value.
    pub value: Node,
}

impl Node {
    /// The element name of the node (`null`, `prim`, `string`, ..., `truncated`).
    pub fn element(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Prim { .. } => "prim",
            Node::Str(_) => "string",
            Node::Enum { .. } => "enum",
            Node::Text { .. } => "text",
            Node::Array { .. } => "array",
            Node::List { .. } => "list",
            Node::Set { .. } => "set",
            Node::Map { .. } => "map",
            Node::Object { .. } => "object",
            Node::Ref { .. } => "ref",
            Node::Opaque { .. } => "opaque",
            Node::Unreadable { .. } => "unreadable",
            Node::Truncated => "truncated",
        }
    }

    /// The node's `class` attribute, when it has one.
    pub fn class(&self) -> Option<&str> {
        match self {
            Node::Prim { class, .. }
            | Node::Enum { class, .. }
            | Node::Text { class, .. }
            | Node::Array { class, .. }
            | Node::List { class, .. }
            | Node::Set { class, .. }
            | Node::Map { class, .. }
            | Node::Object { class, .. }
            | Node::Opaque { class, .. }
            | Node::Unreadable { class, .. } => Some(class),
            Node::Null | Node::Str(_) | Node::Ref { .. } | Node::Truncated => None,
        }
    }

    /// Moves the node's children into `into`, leaving it without any.
    fn take_children(&mut self, into: &mut Vec<Node>) {
        match self {
            Node::Array { items, .. } | Node::List { items, .. } | Node::Set { items, .. } => {
                into.append(items)
            }
            Node::Map { entries, .. } => {
                for (key, value) in entries.drain(..) {
                    into.push(key);
                    into.push(value);
                }
            }
            Node::Object { fields, .. } => into.extend(fields.drain(..).map(|field| field.value)),
            _ => {}
        }
    }
}

impl Drop for Node {
    /// Drops the children from a heap stack: the derived drop would recurse once per level.
    fn drop(&mut self) {
        let mut pending = Vec::new();
        self.take_children(&mut pending);
        while let Some(mut node) = pending.pop() {
            node.take_children(&mut pending);
        }
    }
}
