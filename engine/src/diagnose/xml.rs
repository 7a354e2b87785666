//! The XML reader of captures (quick-xml): a heap stack of open elements, every element and
//! attribute checked against format version 1, errors with line and column.

use std::collections::BTreeMap;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::node::{Capture, ClassState, Node, ObjField, StaticField};

/// The capture format version this engine reads.
pub const VERSION: &str = "1";

/// The deepest nesting of nodes (a node inside a node, ...) [`parse`](super::capture::parse)
/// accepts; deeper is an error.
pub const MAX_DEPTH: usize = 10_000;

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
pub(super) fn parse_text(xml: &str) -> Result<Capture, String> {
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
