//! Test ids: parsing and validating the names users and the agent give to tests.
//!
//! An id is `Class#method` (see `docs/protocol.md`): the class part is a binary class name
//! (dot-separated Java identifiers, `$` for nested classes), the method part a JVM method name
//! (a Java identifier, or what Kotlin's backquoted names allow: `Test That Nulls Fail`)
//! optionally followed by an invocation suffix `[...]` (JUnit 4 `Parameterized` names such as
//! `adds[0: 1+1=2]`, JUnit 5 invocations such as `adds[2]`). Anything goes inside the brackets,
//! because JUnit 4 lets a parameter name contain almost anything.
//!
//! The dotted IDoFT form `pkg.Class.method` is also accepted here; it is only a *spelling* and must
//! be resolved against a suite (see [`crate::model::order`]).

pub use crate::error::IdError;

/// A syntactically valid test id, borrowed from the text it was parsed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestId<'a> {
    text: &'a str,
    class: &'a str,
    method: &'a str,
    method_name_len: usize,
    /// Length of the method name with its parameter list `(...)`, if it has one.
    signature_len: usize,
    dotted: bool,
}

impl<'a> TestId<'a> {
    /// The whole id as written.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The class part (binary class name).
    pub fn class(&self) -> &'a str {
        self.class
    }

    /// The method part, including an invocation suffix if there is one.
    pub fn method(&self) -> &'a str {
        self.method
    }

    /// The method name without its invocation suffix.
    pub fn method_name(&self) -> &'a str {
        &self.method[..self.method_name_len]
    }

    /// The parameter list inside its parentheses (`Character, boolean`) of an overloaded test
    /// method's id (`C#m(Character, boolean)`), if any.
    pub fn parameters(&self) -> Option<&'a str> {
        (self.signature_len > self.method_name_len)
            .then(|| &self.method[self.method_name_len + 1..self.signature_len - 1])
    }

    /// The invocation suffix with its brackets (`[2]`), if any.
    pub fn invocation(&self) -> Option<&'a str> {
        let suffix = &self.method[self.signature_len..];
        (!suffix.is_empty()).then_some(suffix)
    }

    /// Whether the id was written in the dotted IDoFT form `pkg.Class.method`.
    pub fn is_dotted(&self) -> bool {
        self.dotted
    }
}

/// Parses and validates `text` (already trimmed) as a test id.
pub fn parse(text: &str) -> Result<TestId<'_>, IdError> {
    if text.is_empty() {
        return Err(IdError::Empty);
    }
    let (class, method, dotted) = match text.find('#') {
        Some(hash) => (&text[..hash], &text[hash + 1..], false),
        None => {
            // Dotted form: the method is the last dot-separated part before any suffix.
            let base_end = text.find('[').unwrap_or(text.len());
            let dot = text[..base_end].rfind('.').ok_or(IdError::NoMethod)?;
            (&text[..dot], &text[dot + 1..], true)
        }
    };
    if !is_class_name(class) {
        return Err(IdError::BadClass {
            class: class.to_string(),
        });
    }
    let method_name_len = method_name_len(method);
    if method_name_len == 0 {
        return Err(IdError::BadMethod {
            method: method.to_string(),
        });
    }
    // An overloaded test method is named with its parameter list: `m(Character, boolean)`
    // (never empty: the method without parameters is plain `m`).
    let signature_len = match method[method_name_len..].strip_prefix('(') {
        Some(rest) => match rest.find(')') {
            Some(close) if close > 0 => method_name_len + close + 2,
            _ => {
                return Err(IdError::BadSuffix {
                    method: method.to_string(),
                })
            }
        },
        None => method_name_len,
    };
    let suffix = &method[signature_len..];
    let is_invocation_suffix =
        suffix.len() >= 2 && suffix.starts_with('[') && suffix.ends_with(']');
    if !suffix.is_empty() && !is_invocation_suffix {
        return Err(IdError::BadSuffix {
            method: method.to_string(),
        });
    }
    Ok(TestId {
        text,
        class,
        method,
        method_name_len,
        signature_len,
        dotted,
    })
}

/// The container of an invocation id: `C#m[3]` gives `C#m`; any other id is its own container.
///
/// Class names never contain `[`, so the first `[` after the method's parameter list (an
/// overloaded method's `(String[])`, if any) starts the invocation suffix.
pub fn container_of(id: &str) -> &str {
    invocation_start(id).map_or(id, |i| &id[..i])
}

/// Whether `id` names one invocation (it has a `[...]` suffix).
pub fn is_invocation(id: &str) -> bool {
    invocation_start(id).is_some()
}

/// Where the invocation suffix of `id` starts.
fn invocation_start(id: &str) -> Option<usize> {
    let from = match id.find('#') {
        Some(hash) => {
            let method = &id[hash + 1..];
            let name = method_name_len(method);
            match method[name..].strip_prefix('(').and_then(|r| r.find(')')) {
                Some(close) => hash + 1 + name + close + 2,
                None => 0,
            }
        }
        None => 0,
    };
    id[from..].find('[').map(|i| from + i)
}

/// Whether `id` is an invocation of the container `container` (`C#m[2]` of `C#m`).
pub fn is_invocation_of(id: &str, container: &str) -> bool {
    id.len() > container.len() + 1
        && id.starts_with(container)
        && id.as_bytes()[container.len()] == b'['
        && !is_invocation(container)
}

/// The class part of an id in the `Class#method` form (the whole id if it has no `#`).
pub fn class_of(id: &str) -> &str {
    id.find('#').map_or(id, |i| &id[..i])
}

/// Whether `s` is a dot-separated list of Java identifiers.
fn is_class_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|part| identifier_len(part) == part.len() && !part.is_empty())
}

/// The length in bytes of the JVM method name `s` starts with (0 if none): up to the first `(`
/// (an overloaded method's parameter list) or `[` (an invocation suffix). Besides Java
/// identifiers the JVM allows any character in a method name but `.`, `;`, `[`, `/`, `<` and
/// `>`, and Kotlin's backquoted names use that (`fun `Test That Nulls Fail`()`): spaces, `-`,
/// `,`, `'`. A name that does not start with a letter, digit, `_` or `$`, or holds a control
/// character, is refused: it is a typo far more often than a test.
fn method_name_len(s: &str) -> usize {
    let end = s.find(['(', '[']).unwrap_or(s.len());
    let name = &s[..end];
    let starts_well = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
    let allowed = |c: char| !matches!(c, '.' | ';' | '/' | '<' | '>') && !c.is_control();
    if starts_well && name.chars().all(allowed) {
        end
    } else {
        0
    }
}

/// The length in bytes of the Java identifier `s` starts with (0 if none).
fn identifier_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    match chars.next() {
        Some((_, c)) if c.is_alphabetic() || c == '_' || c == '$' => {}
        _ => return 0,
    }
    chars
        .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .map_or(s.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_nested_and_unicode_ids_parse() {
        let id = parse("com.acme.CartTest#addsItem").unwrap();
        assert_eq!(id.class(), "com.acme.CartTest");
        assert_eq!(id.method(), "addsItem");
        assert_eq!(id.invocation(), None);
        assert!(!id.is_dotted());

        let nested = parse("com.acme.CartTest$WhenEmpty#isEmpty").unwrap();
        assert_eq!(nested.class(), "com.acme.CartTest$WhenEmpty");

        let unicode = parse("dé.Prüfung_1#größe_2").unwrap();
        assert_eq!(unicode.method_name(), "größe_2");
        assert!(parse("DefaultPackageTest#t").is_ok());
    }

    #[test]
    fn invocation_suffixes_are_permissive_inside_brackets() {
        let id = parse("com.acme.MathTest#adds[0: 1+1=2]").unwrap();
        assert_eq!(id.method_name(), "adds");
        assert_eq!(id.invocation(), Some("[0: 1+1=2]"));
        let odd = parse("a.B#m[x#y, [1, 2], .c]").unwrap();
        assert_eq!(odd.class(), "a.B");
        assert_eq!(odd.invocation(), Some("[x#y, [1, 2], .c]"));
        assert_eq!(parse("a.B#m[2]").unwrap().invocation(), Some("[2]"));
    }

    #[test]
    fn malformed_ids_are_rejected_with_the_failing_part() {
        assert_eq!(parse(""), Err(IdError::Empty));
        assert_eq!(parse("nodots"), Err(IdError::NoMethod));
        assert_eq!(
            parse("com..Foo#m"),
            Err(IdError::BadClass {
                class: "com..Foo".into()
            })
        );
        assert_eq!(
            parse("#m"),
            Err(IdError::BadClass {
                class: String::new()
            })
        );
        assert_eq!(
            parse("1a.B#m"),
            Err(IdError::BadClass {
                class: "1a.B".into()
            })
        );
        assert_eq!(
            parse("a.B#"),
            Err(IdError::BadMethod {
                method: String::new()
            })
        );
        assert_eq!(
            parse("a.B# m"),
            Err(IdError::BadMethod {
                method: " m".into()
            })
        );
        assert_eq!(
            parse("a.B#m;x"),
            Err(IdError::BadMethod {
                method: "m;x".into()
            })
        );
        assert_eq!(
            parse("a.B#m\tx"),
            Err(IdError::BadMethod {
                method: "m\tx".into()
            })
        );
        assert_eq!(
            parse("a.B#m[1"),
            Err(IdError::BadSuffix {
                method: "m[1".into()
            })
        );
        assert_eq!(
            parse("a.B#m()"),
            Err(IdError::BadSuffix {
                method: "m()".into()
            })
        );
        assert!(parse("a b.C#m").is_err());
    }

    #[test]
    fn a_kotlin_backquoted_method_name_is_a_method_name() {
        let id = parse("nullability.test.BetweenTest#Test That Second Null Causes Compile Error")
            .unwrap();
        assert_eq!(id.class(), "nullability.test.BetweenTest");
        assert_eq!(
            id.method_name(),
            "Test That Second Null Causes Compile Error"
        );
        assert_eq!(id.invocation(), None);
        let inv = parse("a.B#it's a test, really - 2[1]").unwrap();
        assert_eq!(inv.method_name(), "it's a test, really - 2");
        assert_eq!(inv.invocation(), Some("[1]"));
        assert_eq!(container_of("a.B#two words[1]"), "a.B#two words");
        assert!(parse("a.B#9 lives").is_ok());
        let dotted = parse("a.B.two words").unwrap();
        assert_eq!(dotted.class(), "a.B");
        assert_eq!(dotted.method(), "two words");
    }

    #[test]
    fn dotted_form_splits_at_the_last_dot_before_the_suffix() {
        let id = parse("com.acme.CartTest.addsItem").unwrap();
        assert!(id.is_dotted());
        assert_eq!(id.class(), "com.acme.CartTest");
        assert_eq!(id.method(), "addsItem");
        let inv = parse("a.B.m[1.5]").unwrap();
        assert_eq!(inv.class(), "a.B");
        assert_eq!(inv.method(), "m[1.5]");
        assert_eq!(inv.invocation(), Some("[1.5]"));
    }

    #[test]
    fn container_of_strips_only_the_invocation_suffix() {
        assert_eq!(container_of("C#m[3]"), "C#m");
        assert_eq!(container_of("C#m[0: [a]]"), "C#m");
        assert_eq!(container_of("C#m"), "C#m");
        assert!(is_invocation_of("C#m[3]", "C#m"));
        assert!(!is_invocation_of("C#mm[3]", "C#m"));
        assert!(!is_invocation_of("C#m", "C#m"));
        assert!(!is_invocation_of("C#m[1][2]", "C#m[1]"));
        assert_eq!(class_of("a.B#m[1]"), "a.B");
    }

    #[test]
    fn an_overloaded_method_is_named_with_its_parameter_list() {
        let id = parse("a.B#find(Character, boolean)[3]").unwrap();
        assert_eq!(id.method_name(), "find");
        assert_eq!(id.parameters(), Some("Character, boolean"));
        assert_eq!(id.invocation(), Some("[3]"));
        let plain = parse("a.B#find").unwrap();
        assert_eq!(plain.parameters(), None);
        let arrays = parse("a.B#m(String[], int[])").unwrap();
        assert_eq!(arrays.parameters(), Some("String[], int[]"));
        assert_eq!(arrays.invocation(), None);
        assert_eq!(container_of("a.B#m(String[])[2]"), "a.B#m(String[])");
        assert!(!is_invocation("a.B#m(String[])"));
        assert!(is_invocation_of("a.B#m(String[])[2]", "a.B#m(String[])"));
        assert!(parse("a.B#m(String").is_err());
        assert!(parse("a.B#m(String)x").is_err());
    }
}
