//! Renderings of a node: the short one people read in a diff ([`render`], the format's "Short
//! rendering"), and the exact one that matches map keys and set elements between captures
//! (`canonical`). Neither recurses once per level.

use super::node::{Node, ObjField};

/// The most characters a short rendering has ([`render`]).
pub const RENDER_LIMIT: usize = 200;

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
