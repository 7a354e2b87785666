//! DexFix's repair strategies (Zhang et al., ICSE 2021) for a test pinned to one shuffled call: which edits
//! may make it independent of the order the JDK API returns, and where. The engine chooses; the
//! plugin edits the sources and verifies each choice under the verdict's `verify_seeds`.
//!
//! In the order tried (DexFix's: the test's assertion first, then the code, JSON last):
//!
//! - `ChangeContainsExactly`: the assertion of the test's code at the call compares without
//!   order (`containsExactly` → `containsExactlyInAnyOrder`, lists compared as sets). Offered
//!   when an assertion library made the call (the agent's `assertion`: AssertJ, Hamcrest, Truth
//!   iterating the collection), for any API.
//! - `HashToLinkedHash`: the iterated `HashMap` / `HashSet` is allocated as a `LinkedHashMap` /
//!   `LinkedHashSet` (at the allocation site), so it iterates in insertion order. Offered when the
//!   agent saw where the collection was allocated.
//! - `FieldByName`: where the test takes the result of `T.class.getDeclaredFields()` by index
//!   (`fields[0]`), each such element is looked up by its name instead
//!   (`T.class.getDeclaredField("id")`, the field at that index in the declaration order the test
//!   passes with): the fix ormlite-core's maintainers made (ced03ce). Offered before `SortFields`
//!   for `getDeclaredFields` at the module's line; the plugin finds no index there, says so, and
//!   `SortFields` is tried.
//! - `SortFields`: the result of `Class.getDeclaredFields` (`getMethods`, ...) is sorted by name
//!   at the call.
//! - `JSONAssertion`: where the test method compares a JSON text literal with a string, it compares
//!   them as JSON (key order ignored). Offered last, for any API: the JSON is often made by a
//!   library (`-Dodrust.id.filter=any`), far from the call's line, so the plugin looks in the test
//!   method itself.

use serde::{Deserialize, Serialize};

use super::call::{Frame, IdCall};

/// A DexFix strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RepairStrategy {
    /// Allocate the iterated hash collection as its linked variant.
    HashToLinkedHash,
    /// Look up by name each field the test takes from `getDeclaredFields()` by index.
    FieldByName,
    /// Sort the reflective API's result by name.
    SortFields,
    /// Compare without order where the test asserts.
    ChangeContainsExactly,
    /// Compare JSON texts as JSON in the test method.
    #[serde(rename = "JSONAssertion")]
    JsonAssertion,
}

impl RepairStrategy {
    /// The name in JSON (`HashToLinkedHash`, ...).
    pub fn name(self) -> &'static str {
        match self {
            RepairStrategy::HashToLinkedHash => "HashToLinkedHash",
            RepairStrategy::FieldByName => "FieldByName",
            RepairStrategy::SortFields => "SortFields",
            RepairStrategy::ChangeContainsExactly => "ChangeContainsExactly",
            RepairStrategy::JsonAssertion => "JSONAssertion",
        }
    }
}

/// Whether `m` holds a JSON member: a quote, then maybe spaces, then a colon (`"a":1`, Jackson's
/// pretty `"a" : 1`).
fn shows_json_member(m: &str) -> bool {
    m.match_indices('"')
        .any(|(i, _)| m[i + 1..].trim_start_matches([' ', '\t']).starts_with(':'))
}

/// One repair to try: apply `strategy` at `class`'s `file`:`line`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairChoice {
    /// The strategy.
    pub strategy: RepairStrategy,
    /// The class to edit (binary name).
    pub class: String,
    /// The method of the frame (the allocating method, or the calling one).
    #[serde(default)]
    pub method: Option<String>,
    /// Its source file, when the class file names it.
    #[serde(default)]
    pub file: Option<String>,
    /// The line, when known.
    #[serde(default)]
    pub line: Option<u32>,
    /// What the strategy changes: the allocated type (`HashToLinkedHash`), the reflective method
    /// (`SortFields`); null for `ChangeContainsExactly`.
    #[serde(default)]
    pub target: Option<String>,
    /// The shuffled API (`HashMap$KeySet.iterator`).
    pub api: String,
}

/// The simple class name that owns `api`, without a nested-class suffix, and the method:
/// `HashMap$KeySet.iterator` → (`HashMap`, `iterator`); `java.util.HashSet.iterator` →
/// (`HashSet`, `iterator`).
pub fn owner_and_method(api: &str) -> (&str, Option<&str>) {
    let (path, method) = match api.rfind('.') {
        Some(i) => (&api[..i], Some(&api[i + 1..])),
        None => (api, None),
    };
    let simple = path.rsplit('.').next().unwrap_or(path);
    let owner = simple.split('$').next().unwrap_or(simple);
    (owner, method)
}

/// The repairs that apply to `test` pinned to `call`, best first, and, when a better one does not
/// apply, why (for the verdict's reason). Empty when the call has no frame in the module's code.
pub fn choices(
    call: &IdCall,
    test: &str,
    message: Option<&str>,
) -> (Vec<RepairChoice>, Option<String>) {
    let Some(at) = &call.at else {
        return (Vec::new(), None);
    };
    let api = call.api.clone();
    let at_frame = |strategy, target: Option<String>, f: &Frame| RepairChoice {
        strategy,
        class: f.class.clone(),
        method: Some(f.method.clone()),
        file: f.file.clone(),
        line: f.line,
        target,
        api: api.clone(),
    };
    let (owner, method) = owner_and_method(&call.api);
    let mut out = Vec::new();
    let mut why_not = None;
    // The test's own assertion first, as DexFix orders them: a fix of test code only, which
    // developers take more readily, and the main code's order is not wrong because a test
    // assumed another (mybatis-dynamic-sql's maintainers changed 11 such assertions, no HashMap).
    if call.assertion {
        out.push(at_frame(RepairStrategy::ChangeContainsExactly, None, at));
    }
    match owner {
        "HashMap" | "HashSet" => match &call.alloc {
            Some(alloc) => out.push(at_frame(
                RepairStrategy::HashToLinkedHash,
                Some(alloc.kind.clone()),
                &alloc.at,
            )),
            None => {
                why_not = Some(format!(
                    "HashToLinkedHash is not offered: the agent did not see where the {owner} was allocated"
                ))
            }
        },
        // Made inside a library (`via`): the module's line only calls into it, nothing to sort there.
        "Class" if call.via.is_none() => {
            // A field taken by index is named by the index only in the order the test assumed:
            // naming it keeps what the test meant, where a sorted array may hold another field there.
            if method == Some("getDeclaredFields") {
                out.push(at_frame(
                    RepairStrategy::FieldByName,
                    method.map(str::to_string),
                    at,
                ));
            }
            out.push(at_frame(
                RepairStrategy::SortFields,
                method.map(str::to_string),
                at,
            ))
        }
        _ => {}
    }
    // JSONAssertion compares JSON texts: offered when the failure shows a JSON member
    // (`"key":`; Java and AssertJ print maps with `=`) or says nothing, not for a printed set.
    if !message.is_none_or(shows_json_member) {
        return (out, why_not);
    }
    let (class, method) = test.split_once('#').unwrap_or((test, ""));
    let method = method.split(['[', '(']).next().unwrap_or(method);
    out.push(RepairChoice {
        strategy: RepairStrategy::JsonAssertion,
        class: class.to_string(),
        method: Some(method.to_string()),
        file: None,
        line: None,
        target: None,
        api: call.api.clone(),
    });
    (out, why_not)
}

#[cfg(test)]
mod tests {
    use super::super::call::Alloc;
    use super::*;

    fn frame(class: &str, line: u32) -> Frame {
        Frame {
            class: class.into(),
            method: "m".into(),
            file: Some(format!("{}.java", class.rsplit('.').next().unwrap())),
            line: Some(line),
        }
    }

    /// The choices for `p.FooTest#t[1]`, without the last one (JSONAssertion, always offered).
    fn choices_of(call: &IdCall) -> (Vec<RepairChoice>, Option<String>) {
        let (mut c, why) = choices(call, "p.FooTest#t[1]", None);
        let json = c.pop().unwrap();
        assert_eq!(json.strategy, RepairStrategy::JsonAssertion);
        assert_eq!(
            (json.class.as_str(), json.method.as_deref()),
            ("p.FooTest", Some("t"))
        );
        assert_eq!((json.file.as_deref(), json.line), (None, None));
        (c, why)
    }

    fn call(api: &str, alloc: bool) -> IdCall {
        IdCall {
            index: 5,
            nth: None,
            api: api.into(),
            at: Some(frame("com.a.Foo", 12)),
            via: None,
            alloc: alloc.then(|| Alloc {
                kind: "HashSet".into(),
                at: frame("com.a.Bar", 3),
            }),
            assertion: true,
        }
    }

    #[test]
    fn change_contains_exactly_only_where_an_assertion_library_made_the_call() {
        let mut made_by_the_code = call("HashMap$KeySet.iterator", true);
        made_by_the_code.assertion = false;
        let (c, _) = choices_of(&made_by_the_code);
        assert_eq!(
            c.iter().map(|c| c.strategy).collect::<Vec<_>>(),
            [RepairStrategy::HashToLinkedHash]
        );
        let mut file_list = call("File.list", false);
        file_list.assertion = false;
        assert!(choices_of(&file_list).0.is_empty());
    }

    #[test]
    fn owners_drop_packages_and_nested_suffixes() {
        assert_eq!(
            owner_and_method("HashMap$KeySet.iterator"),
            ("HashMap", Some("iterator"))
        );
        assert_eq!(
            owner_and_method("java.util.HashSet.iterator"),
            ("HashSet", Some("iterator"))
        );
        assert_eq!(
            owner_and_method("Class.getDeclaredFields"),
            ("Class", Some("getDeclaredFields"))
        );
        assert_eq!(owner_and_method("odd"), ("odd", None));
    }

    #[test]
    fn the_tests_assertion_comes_before_the_linked_variant_of_a_known_allocation() {
        let (c, why) = choices_of(&call("HashMap$KeySet.iterator", true));
        assert_eq!(why, None);
        let s: Vec<_> = c.iter().map(|c| c.strategy).collect();
        assert_eq!(
            s,
            [
                RepairStrategy::ChangeContainsExactly,
                RepairStrategy::HashToLinkedHash
            ]
        );
        assert_eq!(c[0].class, "com.a.Foo");
        assert_eq!(c[0].target, None);
        assert_eq!(c[1].class, "com.a.Bar");
        assert_eq!(c[1].line, Some(3));
        assert_eq!(c[1].target.as_deref(), Some("HashSet"));

        let (c, why) = choices_of(&call("HashSet.iterator", false));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].strategy, RepairStrategy::ChangeContainsExactly);
        assert!(why.unwrap().contains("allocated"));
    }

    #[test]
    fn reflection_is_sorted_and_other_apis_only_change_the_assertion() {
        let (c, _) = choices_of(&call("Class.getMethods", false));
        assert_eq!(c[0].strategy, RepairStrategy::ChangeContainsExactly);
        assert_eq!(c[1].strategy, RepairStrategy::SortFields);
        assert_eq!(c[1].target.as_deref(), Some("getMethods"));
        for api in [
            "File.list",
            "PriorityQueue.iterator",
            "ConcurrentHashMap$KeySetView.iterator",
        ] {
            let (c, why) = choices_of(&call(api, true));
            assert_eq!(c.len(), 1, "{api}");
            assert_eq!(c[0].strategy, RepairStrategy::ChangeContainsExactly);
            assert_eq!(why, None);
        }
        let mut in_library = call("Class.getDeclaredFields", false);
        in_library.via = Some(frame("com.google.gson.Gson", 700));
        let (c, _) = choices_of(&in_library);
        assert_eq!(
            c.iter().map(|c| c.strategy).collect::<Vec<_>>(),
            [RepairStrategy::ChangeContainsExactly],
            "nothing to sort at the module's line when a library made the call"
        );
        let mut no_frame = call("HashMap.keySet", true);
        no_frame.at = None;
        assert!(choices(&no_frame, "p.T#t", None).0.is_empty());
        assert_eq!(
            serde_json::to_value(RepairStrategy::HashToLinkedHash).unwrap(),
            "HashToLinkedHash"
        );
    }

    #[test]
    fn declared_fields_are_looked_up_by_name_before_they_are_sorted() {
        let mut fields = call("Class.getDeclaredFields", false);
        fields.assertion = false;
        let (c, _) = choices_of(&fields);
        assert_eq!(
            c.iter().map(|c| c.strategy).collect::<Vec<_>>(),
            [RepairStrategy::FieldByName, RepairStrategy::SortFields]
        );
        assert_eq!(c[0].target.as_deref(), Some("getDeclaredFields"));
        assert_eq!((c[0].class.as_str(), c[0].line), ("com.a.Foo", Some(12)));
        assert_eq!(
            serde_json::to_value(RepairStrategy::FieldByName).unwrap(),
            "FieldByName"
        );
        // getFields holds inherited fields too, getDeclaredMethods needs parameter types: sorted only
        for api in ["Class.getFields", "Class.getDeclaredMethods"] {
            let mut other = call(api, false);
            other.assertion = false;
            assert_eq!(
                choices_of(&other)
                    .0
                    .iter()
                    .map(|c| c.strategy)
                    .collect::<Vec<_>>(),
                [RepairStrategy::SortFields],
                "{api}"
            );
        }
    }

    #[test]
    fn json_assertion_only_when_the_failure_shows_json_or_says_nothing() {
        let c = call("HashMap$KeySet.iterator", true);
        let strategies = |m: Option<&str>| -> Vec<RepairStrategy> {
            choices(&c, "p.T#t", m)
                .0
                .iter()
                .map(|r| r.strategy)
                .collect()
        };
        let json = RepairStrategy::JsonAssertion;
        assert!(!strategies(Some("expected:<[a, b]> but was:<[b, a]>")).contains(&json));
        assert!(
            strategies(Some(r#"expected:<{"a":1,"b":2}> but was:<{"b":2,"a":1}>"#)).contains(&json)
        );
        assert!(
            !strategies(Some(r#"Expecting actual: ["w", "x"] to contain exactly"#)).contains(&json)
        );
        assert!(!strategies(Some(r#"expected:<{"a"=1, "b"=2}>"#)).contains(&json));
        assert!(strategies(None).contains(&json));
        assert!(strategies(Some("expected: <{\n  \"a\" : 1\n}>")).contains(&json));
    }
}
