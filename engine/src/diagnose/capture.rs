//! Reading one heap-state capture: the XML the agent writes right before a test starts
//! (`/tmp/spec/capture-format.md`, version 1), into a [`Capture`] of [`Node`] trees, and the short
//! rendering of a node ([`render`]) that the diff shows.
//!
//! Captures can nest deeply (linked structures walked field by field), and this code may run on a
//! JNI thread with a small stack, so nothing here recurses once per level: the parser keeps its
//! open elements on a heap stack and refuses nesting deeper than [`MAX_DEPTH`] nodes, rendering
//! stops at [`RENDER_LIMIT`] characters, `canonical` keeps its own stack, and dropping a [`Node`]
//! is iterative. (The derived `Clone`, `PartialEq` and `Debug` do recurse; the engine does not use
//! them on whole captures.)

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::error::EngineError;

/// The capture format version this engine reads.
pub const VERSION: &str = "1";

/// The deepest nesting of nodes (a node inside a node, ...) [`parse`] accepts; deeper is an error.
pub const MAX_DEPTH: usize = 10_000;

/// The most characters a short rendering has ([`render`]).
pub const RENDER_LIMIT: usize = 200;

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

// ---------------------------------------------------------------------------------------------
// Reading

/// Reads the capture file at `path`.
///
/// Errors: [`EngineError::Io`] naming the path when the file cannot be read or is not a valid
/// version-1 capture (malformed XML, an unknown element or attribute, another version, nesting
/// deeper than [`MAX_DEPTH`]); the message gives the line and column and what is wrong.
pub fn read(path: &Path) -> Result<Capture, EngineError> {
    let bytes = fs::read(path).map_err(|source| EngineError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|e| capture_error(path, format!("the file is not UTF-8: {e}")))?;
    parse_text(&text).map_err(|reason| capture_error(path, reason))
}

/// Parses the text of a capture; errors as [`read`], naming `the capture text` instead of a file.
pub fn parse(xml: &str) -> Result<Capture, EngineError> {
    parse_text(xml).map_err(|reason| capture_error(Path::new("the capture text"), reason))
}

/// The error for a capture that is not valid. The one place that chooses the variant: `Io` with
/// `InvalidData` ("cannot read FILE: not a valid heap-state capture: ..."), until the error type
/// has a variant of its own for captures.
fn capture_error(file: &Path, reason: String) -> EngineError {
    EngineError::Io {
        path: file.to_path_buf(),
        source: io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not a valid heap-state capture: {reason}"),
        ),
    }
}

/// The kinds of element that hold text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextKind {
    Prim,
    Str,
    Enum,
    Text,
}

/// The kinds of element that hold a sequence of nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SeqKind {
    Array,
    List,
    Set,
}

/// An element that is open while parsing.
enum Frame {
    Capture,
    Pseudo {
        name: String,
        value: Option<Node>,
    },
    Class {
        name: String,
        statics: BTreeMap<String, StaticField>,
    },
    /// `<class initialized="false">` written with an end tag: must stay empty.
    UninitializedClass {
        name: String,
    },
    Static {
        field: String,
        type_name: String,
        is_final: bool,
        value: Option<Node>,
    },
    Text {
        kind: TextKind,
        class: String,
        text: String,
    },
    Seq {
        kind: SeqKind,
        class: String,
        items: Vec<Node>,
    },
    Map {
        class: String,
        entries: Vec<(Node, Node)>,
    },
    Entry {
        key: Option<Node>,
        value: Option<Node>,
    },
    Object {
        class: String,
        fields: Vec<ObjField>,
    },
    Field {
        name: String,
        declaring: Option<String>,
        value: Option<Node>,
    },
    /// A node without content (`<null>`, `<ref>`, ...) written with an end tag.
    Leaf(Node),
}

impl Frame {
    fn element(&self) -> &'static str {
        match self {
            Frame::Capture => "capture",
            Frame::Pseudo { .. } => "pseudo",
            Frame::Class { .. } | Frame::UninitializedClass { .. } => "class",
            Frame::Static { .. } => "static",
            Frame::Text { kind, .. } => match kind {
                TextKind::Prim => "prim",
                TextKind::Str => "string",
                TextKind::Enum => "enum",
                TextKind::Text => "text",
            },
            Frame::Seq { kind, .. } => match kind {
                SeqKind::Array => "array",
                SeqKind::List => "list",
                SeqKind::Set => "set",
            },
            Frame::Map { .. } => "map",
            Frame::Entry { .. } => "entry",
            Frame::Object { .. } => "object",
            Frame::Field { .. } => "field",
            Frame::Leaf(node) => node.element(),
        }
    }

    /// Whether the frame is a node (counts towards [`MAX_DEPTH`]).
    fn is_node(&self) -> bool {
        matches!(
            self,
            Frame::Text { .. }
                | Frame::Seq { .. }
                | Frame::Map { .. }
                | Frame::Object { .. }
                | Frame::Leaf(_)
        )
    }

    /// Whether node elements may appear directly inside the frame.
    fn holds_nodes(&self) -> bool {
        matches!(
            self,
            Frame::Pseudo { .. }
                | Frame::Static { .. }
                | Frame::Seq { .. }
                | Frame::Entry { .. }
                | Frame::Field { .. }
        )
    }
}

/// Every element name of the format.
const ELEMENTS: [&str; 20] = [
    "capture",
    "pseudo",
    "class",
    "static",
    "null",
    "prim",
    "string",
    "enum",
    "text",
    "array",
    "list",
    "set",
    "map",
    "entry",
    "object",
    "field",
    "ref",
    "opaque",
    "unreadable",
    "truncated",
];

/// The node element names, for messages.
const NODE_ELEMENTS: &str =
    "null, prim, string, enum, text, array, list, set, map, object, ref, opaque, unreadable, truncated";

/// The parser's state: the open elements and what has been read.
struct Parser {
    frames: Vec<Frame>,
    capture: Option<Capture>,
    /// Whether `</capture>` (or `<capture/>`) was read.
    closed: bool,
    /// How many node frames are open.
    depth: usize,
}

/// Parses a capture; the error says where (line and column) and what is wrong.
fn parse_text(xml: &str) -> Result<Capture, String> {
    let mut reader = Reader::from_str(xml);
    let mut parser = Parser {
        frames: Vec::new(),
        capture: None,
        closed: false,
        depth: 0,
    };
    loop {
        let at = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(e) => {
                let at = usize::try_from(reader.error_position()).unwrap_or(usize::MAX);
                return Err(format!("{}: malformed XML: {e}", position(xml, at)));
            }
        };
        let step = match event {
            Event::Start(e) => parser.start(&e, false),
            Event::Empty(e) => parser.start(&e, true),
            Event::End(_) => parser.end(),
            Event::Text(t) => match t.unescape() {
                Ok(text) => parser.text(&text),
                Err(e) => Err(format!("bad text: {e}")),
            },
            Event::CData(c) => parser.text(&String::from_utf8_lossy(&c)),
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => Ok(()),
        };
        step.map_err(|reason| format!("{}: {reason}", position(xml, at)))?;
    }
    if let Some(open) = parser.frames.last() {
        return Err(format!(
            "the text ends inside <{}> (a truncated file?)",
            open.element()
        ));
    }
    parser
        .capture
        .ok_or_else(|| "there is no <capture> element".to_string())
}

/// `line L, column C` of a byte offset (both 1-based; the column counts characters).
fn position(xml: &str, at: usize) -> String {
    let mut at = at.min(xml.len());
    while !xml.is_char_boundary(at) {
        at -= 1;
    }
    let before = &xml[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!("line {line}, column {column}")
}

impl Parser {
    fn start(&mut self, e: &BytesStart<'_>, empty: bool) -> Result<(), String> {
        let name = std::str::from_utf8(e.name().into_inner())
            .map_err(|_| "an element name is not UTF-8".to_string())?
            .to_string();
        let Some(parent) = self.frames.last() else {
            return self.start_capture(&name, e, empty);
        };
        let parent_element = parent.element();
        match (parent, name.as_str()) {
            (Frame::Capture, "pseudo") => {
                let mut attrs = Attrs::read(e, "pseudo", &["name"])?;
                let name = attrs.required("name")?;
                if empty {
                    return Err(format!("<pseudo name=\"{name}\"> holds no node"));
                }
                self.frames.push(Frame::Pseudo { name, value: None });
            }
            (Frame::Capture, "class") => {
                let mut attrs = Attrs::read(e, "class", &["name", "initialized"])?;
                let name = attrs.required("name")?;
                let initialized = attrs.flag("initialized")?.ok_or_else(|| {
                    format!("<class name=\"{name}\"> has no `initialized` attribute")
                })?;
                match (initialized, empty) {
                    (true, true) => {
                        self.add_class(name, ClassState::Initialized(BTreeMap::new()))?
                    }
                    (false, true) => self.add_class(name, ClassState::Uninitialized)?,
                    (true, false) => self.frames.push(Frame::Class {
                        name,
                        statics: BTreeMap::new(),
                    }),
                    (false, false) => self.frames.push(Frame::UninitializedClass { name }),
                }
            }
            (Frame::Class { .. }, "static") => {
                let mut attrs = Attrs::read(e, "static", &["field", "type", "final"])?;
                let field = attrs.required("field")?;
                let type_name = attrs.required("type")?;
                let is_final = attrs.flag("final")?.unwrap_or(false);
                if empty {
                    return Err(format!("<static field=\"{field}\"> holds no node"));
                }
                self.frames.push(Frame::Static {
                    field,
                    type_name,
                    is_final,
                    value: None,
                });
            }
            (Frame::UninitializedClass { name: class }, _) => {
                return Err(format!(
                    "<class name=\"{class}\" initialized=\"false\"> holds <{name}>; an uninitialized class has no static fields"
                ));
            }
            (Frame::Map { .. }, "entry") => {
                Attrs::read(e, "entry", &[])?;
                if empty {
                    return Err("an <entry> holds no nodes; it needs a key and a value".to_string());
                }
                self.frames.push(Frame::Entry {
                    key: None,
                    value: None,
                });
            }
            (Frame::Object { .. }, "field") => {
                let mut attrs = Attrs::read(e, "field", &["name", "declaring"])?;
                let name = attrs.required("name")?;
                let declaring = attrs.optional("declaring");
                if empty {
                    return Err(format!("<field name=\"{name}\"> holds no node"));
                }
                self.frames.push(Frame::Field {
                    name,
                    declaring,
                    value: None,
                });
            }
            (parent, _) if parent.holds_nodes() => self.start_node(&name, e, empty)?,
            (Frame::Text { .. } | Frame::Leaf(_), _) => {
                return Err(format!(
                    "<{parent_element}> holds no elements, but <{name}> is inside it"
                ));
            }
            _ if ELEMENTS.contains(&name.as_str()) => {
                return Err(format!("<{name}> is not allowed inside <{parent_element}>"));
            }
            _ => {
                return Err(format!(
                    "unknown element <{name}> inside <{parent_element}>"
                ))
            }
        }
        Ok(())
    }

    fn start_capture(&mut self, name: &str, e: &BytesStart<'_>, empty: bool) -> Result<(), String> {
        if self.closed {
            return Err(format!("<{name}> after the end of </capture>"));
        }
        if name != "capture" {
            return Err(format!("the root element is <{name}>, expected <capture>"));
        }
        let mut attrs = Attrs::read(
            e,
            "capture",
            &[
                "version",
                "test",
                "occurrence",
                "java",
                "nodes",
                "limit",
                "truncated",
            ],
        )?;
        match attrs.optional("version") {
            Some(version) if version == VERSION => {}
            Some(version) => {
                return Err(format!(
                    "unsupported capture version `{version}`; this engine reads version {VERSION} \
                     (are the engine and the agent from the same odrust?)"
                ))
            }
            None => return Err("<capture> has no `version` attribute".to_string()),
        }
        let test = attrs.required("test")?;
        let occurrence = attrs
            .number("occurrence")?
            .ok_or_else(|| "<capture> has no `occurrence` attribute".to_string())?;
        let occurrence = u32::try_from(occurrence)
            .map_err(|_| format!("<capture> occurrence `{occurrence}` is too large"))?;
        attrs.number("nodes")?;
        attrs.number("limit")?;
        let capture = Capture {
            test,
            occurrence,
            java: attrs.optional("java"),
            truncated: attrs.flag("truncated")?.unwrap_or(false),
            pseudo: BTreeMap::new(),
            classes: BTreeMap::new(),
        };
        self.capture = Some(capture);
        if empty {
            self.closed = true;
        } else {
            self.frames.push(Frame::Capture);
        }
        Ok(())
    }

    /// Opens a node element inside a frame that holds nodes.
    fn start_node(&mut self, name: &str, e: &BytesStart<'_>, empty: bool) -> Result<(), String> {
        if self.depth >= MAX_DEPTH {
            return Err(format!(
                "nodes are nested deeper than {MAX_DEPTH} levels; odrust reads at most {MAX_DEPTH}"
            ));
        }
        let frame = match name {
            "null" => {
                Attrs::read(e, name, &[])?;
                Frame::Leaf(Node::Null)
            }
            "prim" | "enum" | "text" => {
                let class = Attrs::read(e, name, &["class"])?.required("class")?;
                let kind = match name {
                    "prim" => TextKind::Prim,
                    "enum" => TextKind::Enum,
                    _ => TextKind::Text,
                };
                Frame::Text {
                    kind,
                    class,
                    text: String::new(),
                }
            }
            "string" => {
                Attrs::read(e, name, &[])?;
                Frame::Text {
                    kind: TextKind::Str,
                    class: String::new(),
                    text: String::new(),
                }
            }
            "array" | "list" | "set" => {
                let count = if name == "array" { "length" } else { "size" };
                let mut attrs = Attrs::read(e, name, &["class", count])?;
                attrs.number(count)?;
                let kind = match name {
                    "array" => SeqKind::Array,
                    "list" => SeqKind::List,
                    _ => SeqKind::Set,
                };
                Frame::Seq {
                    kind,
                    class: attrs.required("class")?,
                    items: Vec::new(),
                }
            }
            "map" => {
                let mut attrs = Attrs::read(e, name, &["class", "size"])?;
                attrs.number("size")?;
                Frame::Map {
                    class: attrs.required("class")?,
                    entries: Vec::new(),
                }
            }
            "object" => Frame::Object {
                class: Attrs::read(e, name, &["class"])?.required("class")?,
                fields: Vec::new(),
            },
            "ref" => Frame::Leaf(Node::Ref {
                to: Attrs::read(e, name, &["to"])?.required("to")?,
            }),
            "opaque" | "unreadable" => {
                let mut attrs = Attrs::read(e, name, &["class", "reason"])?;
                let class = attrs.required("class")?;
                let reason = attrs.optional("reason").unwrap_or_default();
                Frame::Leaf(if name == "opaque" {
                    Node::Opaque { class, reason }
                } else {
                    Node::Unreadable { class, reason }
                })
            }
            "truncated" => {
                Attrs::read(e, name, &[])?;
                Frame::Leaf(Node::Truncated)
            }
            _ => {
                let parent = self.frames.last().map_or("capture", Frame::element);
                return Err(if ELEMENTS.contains(&name) {
                    format!("<{name}> is not allowed inside <{parent}> (expected a node: {NODE_ELEMENTS})")
                } else {
                    format!("unknown element <{name}> inside <{parent}> (expected a node: {NODE_ELEMENTS})")
                });
            }
        };
        if empty {
            let node = finish_node(frame).expect("a node frame");
            self.deliver(node)
        } else {
            self.depth += 1;
            self.frames.push(frame);
            Ok(())
        }
    }

    fn end(&mut self) -> Result<(), String> {
        let frame = self
            .frames
            .pop()
            .ok_or_else(|| "an end tag without a start tag".to_string())?;
        if frame.is_node() {
            self.depth -= 1;
        }
        match frame {
            Frame::Capture => self.closed = true,
            Frame::Pseudo { name, value } => {
                let value =
                    value.ok_or_else(|| format!("<pseudo name=\"{name}\"> holds no node"))?;
                let capture = self.capture.as_mut().expect("inside <capture>");
                if capture.pseudo.contains_key(&name) {
                    return Err(format!("pseudo state `{name}` is written twice"));
                }
                capture.pseudo.insert(name, value);
            }
            Frame::Class { name, statics } => {
                self.add_class(name, ClassState::Initialized(statics))?
            }
            Frame::UninitializedClass { name } => {
                self.add_class(name, ClassState::Uninitialized)?
            }
            Frame::Static {
                field,
                type_name,
                is_final,
                value,
            } => {
                let value =
                    value.ok_or_else(|| format!("<static field=\"{field}\"> holds no node"))?;
                let Some(Frame::Class { name, statics }) = self.frames.last_mut() else {
                    return Err("<static> outside a <class>".to_string());
                };
                if statics.contains_key(&field) {
                    return Err(format!("static field `{name}.{field}` is written twice"));
                }
                statics.insert(
                    field,
                    StaticField {
                        type_name,
                        is_final,
                        value,
                    },
                );
            }
            Frame::Entry { key, value } => {
                let (Some(key), Some(value)) = (key, value) else {
                    return Err("an <entry> holds one node; it needs a key and a value".to_string());
                };
                let Some(Frame::Map { entries, .. }) = self.frames.last_mut() else {
                    return Err("<entry> outside a <map>".to_string());
                };
                entries.push((key, value));
            }
            Frame::Field {
                name,
                declaring,
                value,
            } => {
                let value =
                    value.ok_or_else(|| format!("<field name=\"{name}\"> holds no node"))?;
                let Some(Frame::Object { fields, .. }) = self.frames.last_mut() else {
                    return Err("<field> outside an <object>".to_string());
                };
                fields.push(ObjField {
                    name,
                    declaring,
                    value,
                });
            }
            node => {
                let node = finish_node(node).expect("a node frame");
                self.deliver(node)?;
            }
        }
        Ok(())
    }

    /// Hands a finished node to the element that holds it.
    fn deliver(&mut self, node: Node) -> Result<(), String> {
        let parent = self.frames.last_mut().expect("a node has a parent");
        let element = parent.element();
        let slot = match parent {
            Frame::Seq { items, .. } => {
                items.push(node);
                return Ok(());
            }
            Frame::Entry { key, value } => {
                if key.is_none() {
                    key
                } else {
                    value
                }
            }
            Frame::Pseudo { value, .. }
            | Frame::Static { value, .. }
            | Frame::Field { value, .. } => value,
            _ => {
                return Err(format!(
                    "<{}> is not allowed inside <{element}>",
                    node.element()
                ))
            }
        };
        if slot.is_some() {
            return Err(if element == "entry" {
                "an <entry> holds more than two nodes".to_string()
            } else {
                format!("<{element}> holds more than one node")
            });
        }
        *slot = Some(node);
        Ok(())
    }

    fn text(&mut self, text: &str) -> Result<(), String> {
        match self.frames.last_mut() {
            Some(Frame::Text { text: held, .. }) => held.push_str(text),
            _ if text.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n')) => {}
            parent => {
                let shown: String = text.trim().chars().take(40).collect();
                let place = parent.map_or("outside <capture>".to_string(), |p| {
                    format!("inside <{}>", p.element())
                });
                return Err(format!("unexpected text `{shown}` {place}"));
            }
        }
        Ok(())
    }

    fn add_class(&mut self, name: String, state: ClassState) -> Result<(), String> {
        let capture = self.capture.as_mut().expect("inside <capture>");
        if capture.classes.contains_key(&name) {
            return Err(format!("class `{name}` is written twice"));
        }
        capture.classes.insert(name, state);
        Ok(())
    }
}

/// The node of a finished node frame (`None` for the other frames).
fn finish_node(frame: Frame) -> Option<Node> {
    Some(match frame {
        Frame::Text { kind, class, text } => match kind {
            TextKind::Prim => Node::Prim { class, text },
            TextKind::Str => Node::Str(text),
            TextKind::Enum => Node::Enum { class, name: text },
            TextKind::Text => Node::Text { class, text },
        },
        Frame::Seq { kind, class, items } => match kind {
            SeqKind::Array => Node::Array { class, items },
            SeqKind::List => Node::List { class, items },
            SeqKind::Set => Node::Set { class, items },
        },
        Frame::Map { class, entries } => Node::Map { class, entries },
        Frame::Object { class, fields } => Node::Object { class, fields },
        Frame::Leaf(node) => node,
        _ => return None,
    })
}

/// The attributes of one element, checked against the names it may have.
struct Attrs {
    element: String,
    values: Vec<(&'static str, Option<String>)>,
}

impl Attrs {
    /// Reads `e`'s attributes; an attribute not in `allowed` is an error.
    fn read(e: &BytesStart<'_>, element: &str, allowed: &[&'static str]) -> Result<Attrs, String> {
        let mut values: Vec<(&'static str, Option<String>)> =
            allowed.iter().map(|name| (*name, None)).collect();
        for attr in e.attributes() {
            let attr = attr.map_err(|err| format!("bad attributes on <{element}>: {err}"))?;
            let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
            let Some(slot) = values.iter_mut().find(|(name, _)| *name == key) else {
                let known = if allowed.is_empty() {
                    "it has none".to_string()
                } else {
                    format!("it has {}", allowed.join(", "))
                };
                return Err(format!(
                    "unknown attribute `{key}` on <{element}> ({known})"
                ));
            };
            let value = attr
                .unescape_value()
                .map_err(|err| format!("bad `{key}` attribute on <{element}>: {err}"))?;
            slot.1 = Some(value.into_owned());
        }
        Ok(Attrs {
            element: element.to_string(),
            values,
        })
    }

    fn optional(&mut self, name: &str) -> Option<String> {
        self.values
            .iter_mut()
            .find(|(n, _)| *n == name)
            .and_then(|(_, value)| value.take())
    }

    fn required(&mut self, name: &str) -> Result<String, String> {
        let element = self.element.clone();
        self.optional(name)
            .ok_or_else(|| format!("<{element}> has no `{name}` attribute"))
    }

    /// A `true`/`false` attribute.
    fn flag(&mut self, name: &str) -> Result<Option<bool>, String> {
        match self.optional(name).as_deref() {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(other) => Err(format!(
                "<{}> attribute `{name}` is `{other}`, expected `true` or `false`",
                self.element
            )),
        }
    }

    /// A non-negative integer attribute.
    fn number(&mut self, name: &str) -> Result<Option<u64>, String> {
        match self.optional(name) {
            None => Ok(None),
            Some(text) => text.parse().map(Some).map_err(|_| {
                format!(
                    "<{}> attribute `{name}` is `{text}`, expected a non-negative integer",
                    self.element
                )
            }),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Renderings

/// The short rendering of a node (the format's "Short rendering"): `null`; a primitive, string,
/// text or enum by its text (strings unquoted); `[a, b]` for lists and arrays; `{a, b}` for sets;
/// `{k=v, k2=v2}` for maps; `Job{name=x, state=RUNNING}` for objects (simple class name); `@PATH`
/// for a ref; `<opaque CLASS>` and `<unreadable CLASS>`; `…` for a truncation. At most
/// [`RENDER_LIMIT`] characters (Unicode scalar values): a longer rendering is cut to
/// `RENDER_LIMIT - 1` characters and `…`. Elements and entries are shown in the capture's order.
pub fn render(node: &Node) -> String {
    /// What is left to write, last first.
    enum Piece<'a> {
        Node(&'a Node),
        Lit(&'a str),
        Items(&'a [Node]),
        Entries(&'a [(Node, Node)]),
        Fields(&'a [ObjField]),
    }
    let mut out = Budget::default();
    let mut stack = vec![Piece::Node(node)];
    while let Some(piece) = stack.pop() {
        if out.full() {
            break;
        }
        match piece {
            Piece::Lit(text) => out.push(text),
            Piece::Items([]) | Piece::Entries([]) | Piece::Fields([]) => {}
            Piece::Items([first, rest @ ..]) => {
                stack.push(Piece::Items(rest));
                if !rest.is_empty() {
                    stack.push(Piece::Lit(", "));
                }
                stack.push(Piece::Node(first));
            }
            Piece::Entries([(key, value), rest @ ..]) => {
                stack.push(Piece::Entries(rest));
                if !rest.is_empty() {
                    stack.push(Piece::Lit(", "));
                }
                stack.push(Piece::Node(value));
                stack.push(Piece::Lit("="));
                stack.push(Piece::Node(key));
            }
            Piece::Fields([field, rest @ ..]) => {
                stack.push(Piece::Fields(rest));
                if !rest.is_empty() {
                    stack.push(Piece::Lit(", "));
                }
                stack.push(Piece::Node(&field.value));
                stack.push(Piece::Lit("="));
                stack.push(Piece::Lit(&field.name));
            }
            Piece::Node(node) => match node {
                Node::Null => out.push("null"),
                // an empty string shows as "" (nothing at all would read as a missing value)
                Node::Str(text) if text.is_empty() => out.push("\"\""),
                Node::Prim { text, .. } | Node::Text { text, .. } | Node::Str(text) => {
                    out.push(text)
                }
                Node::Enum { name, .. } => out.push(name),
                Node::Array { items, .. } | Node::List { items, .. } => {
                    out.push("[");
                    stack.push(Piece::Lit("]"));
                    stack.push(Piece::Items(items));
                }
                Node::Set { items, .. } => {
                    out.push("{");
                    stack.push(Piece::Lit("}"));
                    stack.push(Piece::Items(items));
                }
                Node::Map { entries, .. } => {
                    out.push("{");
                    stack.push(Piece::Lit("}"));
                    stack.push(Piece::Entries(entries));
                }
                Node::Object { class, fields } => {
                    out.push(simple_name(class));
                    out.push("{");
                    stack.push(Piece::Lit("}"));
                    stack.push(Piece::Fields(fields));
                }
                Node::Ref { to } => {
                    out.push("@");
                    out.push(to);
                }
                Node::Opaque { class, .. } => {
                    out.push("<opaque ");
                    out.push(class);
                    out.push(">");
                }
                Node::Unreadable { class, .. } => {
                    out.push("<unreadable ");
                    out.push(class);
                    out.push(">");
                }
                Node::Truncated => out.push("…"),
            },
        }
    }
    out.finish()
}

/// A rendering being written, that stops one character past [`RENDER_LIMIT`].
#[derive(Default)]
struct Budget {
    out: String,
    chars: usize,
}

impl Budget {
    fn full(&self) -> bool {
        self.chars > RENDER_LIMIT
    }

    fn push(&mut self, text: &str) {
        for c in text.chars() {
            if self.full() {
                return;
            }
            self.out.push(c);
            self.chars += 1;
        }
    }

    fn finish(mut self) -> String {
        if self.full() {
            let cut = self
                .out
                .char_indices()
                .nth(RENDER_LIMIT - 1)
                .map_or(self.out.len(), |(i, _)| i);
            self.out.truncate(cut);
            self.out.push('…');
        }
        self.out
    }
}

/// Java's `Class.getSimpleName()` from a binary name (`com.acme.Outer$Inner` → `Inner`), or the
/// whole name when that is empty (anonymous classes: `com.acme.Outer$1`).
fn simple_name(class: &str) -> &str {
    let after_dot = class.rsplit('.').next().unwrap_or(class);
    let after_dollar = after_dot.rsplit('$').next().unwrap_or(after_dot);
    let simple = after_dollar.trim_start_matches(|c: char| c.is_ascii_digit());
    if simple.is_empty() {
        class
    } else {
        simple
    }
}

/// A string that identifies a node's value exactly, unlike the short rendering (which is cut and
/// does not show kinds or classes): two nodes have the same canonical form if and only if they are
/// equal, except that the order of a map's entries and of a set's elements does not matter. Used
/// to match map keys and set elements between two captures.
pub(crate) fn canonical(node: &Node) -> String {
    enum Work<'a> {
        Visit(&'a Node),
        /// Joins the last `count` results after `head`, sorted first when `unordered`.
        Join {
            head: String,
            count: usize,
            unordered: bool,
        },
    }
    // Each form is self-delimiting (a tag, length-prefixed texts, a child count, then the
    // children's forms), so concatenations cannot collide.
    fn lp(text: &str) -> String {
        format!("{}:{text}", text.len())
    }
    let mut work = vec![Work::Visit(node)];
    let mut done: Vec<String> = Vec::new();
    while let Some(item) = work.pop() {
        let node = match item {
            Work::Join {
                head,
                count,
                unordered,
            } => {
                let mut parts = done.split_off(done.len() - count);
                if unordered {
                    parts.sort();
                }
                let mut joined = head;
                for part in parts {
                    joined.push_str(&part);
                }
                done.push(joined);
                continue;
            }
            Work::Visit(node) => node,
        };
        let leaf = match node {
            Node::Null => "n".to_string(),
            Node::Prim { class, text } => format!("p{}{}", lp(class), lp(text)),
            Node::Str(text) => format!("s{}", lp(text)),
            Node::Enum { class, name } => format!("e{}{}", lp(class), lp(name)),
            Node::Text { class, text } => format!("t{}{}", lp(class), lp(text)),
            Node::Ref { to } => format!("r{}", lp(to)),
            Node::Opaque { class, reason } => format!("q{}{}", lp(class), lp(reason)),
            Node::Unreadable { class, reason } => format!("u{}{}", lp(class), lp(reason)),
            Node::Truncated => "T".to_string(),
            Node::Array { class, items }
            | Node::List { class, items }
            | Node::Set { class, items } => {
                let tag = match node {
                    Node::Array { .. } => 'a',
                    Node::List { .. } => 'l',
                    _ => 'S',
                };
                work.push(Work::Join {
                    head: format!("{tag}{}{}:", lp(class), items.len()),
                    count: items.len(),
                    unordered: tag == 'S',
                });
                work.extend(items.iter().rev().map(Work::Visit));
                continue;
            }
            Node::Map { class, entries } => {
                work.push(Work::Join {
                    head: format!("m{}{}:", lp(class), entries.len()),
                    count: entries.len(),
                    unordered: true,
                });
                for (key, value) in entries.iter().rev() {
                    work.push(Work::Join {
                        head: String::new(),
                        count: 2,
                        unordered: false,
                    });
                    work.push(Work::Visit(value));
                    work.push(Work::Visit(key));
                }
                continue;
            }
            Node::Object { class, fields } => {
                work.push(Work::Join {
                    head: format!("o{}{}:", lp(class), fields.len()),
                    count: fields.len(),
                    unordered: false,
                });
                for field in fields.iter().rev() {
                    let declaring = field.declaring.as_deref().map_or("-".to_string(), lp);
                    work.push(Work::Join {
                        head: format!("{}{declaring}", lp(&field.name)),
                        count: 1,
                        unordered: false,
                    });
                    work.push(Work::Visit(&field.value));
                }
                continue;
            }
        };
        done.push(leaf);
    }
    done.pop().expect("one form per node")
}

#[cfg(test)]
#[path = "capture_tests.rs"]
mod tests;
