//! One counted call of a shuffled JDK API as the agent reports it: its invocation index, the
//! API, the frame of the module's code at the call ([`Frame`]) and where the iterated collection
//! was allocated ([`Alloc`]). What the planner pins and DexFix repairs.

use serde::{Deserialize, Serialize};

/// A frame of the module's own code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// The class (binary name).
    pub class: String,
    /// The method.
    pub method: String,
    /// The source file, when the class file names it.
    #[serde(default)]
    pub file: Option<String>,
    /// The line, when known.
    #[serde(default)]
    pub line: Option<u32>,
}

impl Frame {
    /// `com.a.Foo.names(Foo.java:12)`, as a stack trace shows it.
    pub fn text(&self) -> String {
        let place = match (&self.file, self.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            (Some(f), None) => f.clone(),
            (None, Some(l)) => format!("line {l}"),
            (None, None) => "unknown source".to_string(),
        };
        format!("{}.{}({place})", self.class, self.method)
    }
}

/// Where the iterated collection was allocated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Alloc {
    /// The allocated type (`HashSet`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The allocating frame.
    pub at: Frame,
}

/// One counted call of a shuffled API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdCall {
    /// Its invocation index in the JVM (1-based).
    pub index: u64,
    /// Its number among the counted calls of its site ([`IdCall::only_call_site`]) in the run,
    /// from 1: the same in a JVM that numbers calls otherwise, when the site's own calls are not
    /// what differs (older agents did not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u64>,
    /// The API (`HashMap$KeySet.iterator`).
    pub api: String,
    /// The first frame of the module's own code at the call.
    #[serde(default)]
    pub at: Option<Frame>,
    /// The library frame that made the call, when `-Dodrust.id.filter=any` counted a call made
    /// outside the module's code (`at` is then the module's frame below it, if any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Frame>,
    /// Where the iterated `HashMap` / `HashSet` was allocated, when the agent saw it.
    #[serde(default)]
    pub alloc: Option<Alloc>,
    /// Whether an assertion library made the call (AssertJ's `containsExactly` iterating the set,
    /// a Hamcrest matcher, Truth): the module's line is an assertion over the order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub assertion: bool,
}

impl IdCall {
    /// The site as the agent's `only-call` names it: `HashSet.iterator at com.a.Foo.names:12`
    /// (the API and the module's frame); `None` without a frame of the module.
    pub fn only_call_site(&self) -> Option<String> {
        self.at.as_ref().map(|at| {
            format!(
                "{} at {}.{}:{}",
                self.api,
                at.class,
                at.method,
                at.line
                    .map_or_else(|| "null".to_string(), |l| l.to_string())
            )
        })
    }

    /// `HashMap$KeySet.iterator at com.a.Foo.names(Foo.java:12) (a HashSet allocated at
    /// com.a.Foo.<init>(Foo.java:4))`.
    pub fn site(&self) -> String {
        let mut s = self.api.clone();
        if let Some(via) = &self.via {
            s.push_str(&format!(" in {}", via.text()));
        }
        if let Some(at) = &self.at {
            s.push_str(&format!(
                " {} {}",
                if self.via.is_some() {
                    "called from"
                } else {
                    "at"
                },
                at.text()
            ));
        }
        if let Some(a) = &self.alloc {
            s.push_str(&format!(" (a {} allocated at {})", a.kind, a.at.text()));
        }
        s
    }
}
