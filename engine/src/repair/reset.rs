//! The reset-method finder (seed `000` section 3.2.1, ODRepair's Reset-Method Finder, and its
//! literal mining): when no test of the suite cleans a polluted static field, the statements
//! built from the module's own code that may reset it, ranked, for Java to compile into the
//! victim's setup and verify (`reset_methods` op).
//!
//! **What counts as resetting.** With `F` the polluted static field and `T` the type of its
//! value (its descriptor's class):
//!
//! - a method that writes `F` (`PUTSTATIC`), or reads it (`GETSTATIC`) and then calls a mutator
//!   on the value read ([`is_mutator`]: `clear`, `remove*`, `reset*`, `set*`, `put*`, `add*`,
//!   `init*`, `restore*`, `clean*`, and for `java.util` collections and maps also `retain*`,
//!   `replace*`, `merge`, `compute*`, `poll*`, `offer*`, `push`, `pop`);
//! - a method of a type related to `T` (`T`, its supertypes and subtypes in the module) that
//!   writes (`PUTFIELD`) one of the `inner_fields`, or reads one (`GETFIELD`) and calls a mutator
//!   on it; the object is taken to be the one under `F`. With no `inner_fields` given, every
//!   instance field of those types counts (the debugger did not say which one differs);
//! - `F` itself, when the test can reach it: assigned its initializer (`<clinit>`'s
//!   `new X()` or constant, a `ConstantValue`, or the type's default value when `<clinit>` never
//!   assigns it) when it is not final, and `F.clear()` when it is a `java.util` collection or map.
//!
//! "Calls a mutator on the value read" is a straight-line heuristic, not a data-flow analysis:
//! after the read, the first virtual or interface call whose owner fits the value's type (the
//! same type, a sub- or supertype, or both `java.util` collections) is taken to be the call on
//! it, looking at most [`MUTATOR_WINDOW`] interesting instructions ahead and stopping at the next
//! access to the same field. So `RATES.remove(key.trim())` counts (`trim` is a `String` call),
//! `RATES.get(a).clear()` does not (`get` decides, and is no mutator).
//!
//! **Receivers of instance methods.** A static no-arg method (of the method's class, of `F`'s
//! class, or of `T`) returning the method's class or a subtype (`getInstance()`), then `F`
//! itself when the test can reach it and its type fits.
//!
//! **Arguments.** No-arg methods are taken as they are. A method whose parameters are all
//! primitives, `String` or enums of the module gets argument lists mined from the module's code
//! (at most [`MAX_ARGUMENT_LISTS`] per method): first `F`'s initializer constant, for a
//! one-parameter method whose parameter has `F`'s type; then the constants passed at the
//! method's existing call sites, read as the instructions right before the invoke (the `n`
//! instructions before it must be `n` constant loads, or enum constants read by `GETSTATIC`, that
//! fit the parameters; a call whose arguments are computed is passed over). Other methods are
//! skipped.
//!
//! **Visibility.** The statement goes into the victim's class, so a method (or field) must be
//! public in a public class (and public enclosing classes), or not private in the victim's
//! package, or be declared inside the victim's own top-level class. Constructors, `<clinit>`,
//! synthetic and bridge methods, methods with a `$` in their name (`lambda$...`, `access$000`),
//! methods annotated with a JUnit annotation (`org.junit.*`), and the methods of local,
//! anonymous and synthetic classes are never candidates.
//!
//! **Ranking**, best first: (1) static no-arg methods named `reset*`, `clear*`, `clean*`,
//! `restore*`, `init*`; (2) other static no-arg methods; (3) instance no-arg methods through a
//! receiver; (4) direct field statements (assignment, then `clear()`); (5) methods with mined
//! arguments, static first. Within a tier: methods of `F`'s class or of types related to `T`
//! first, then `void` methods, writes (`PUT*`) before mutator calls, then by statement text.
//! Candidates with the same statement are kept once.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::EngineError;
use crate::incremental::classfile::{
    class_files_under, AccessFlags, ClassFile, Constant, Field, FieldOp, InnerClass, Instruction,
    InvokeKind, MemberRef, Method, Op,
};

/// How many candidates `reset_methods` returns when the request gives no limit.
pub const DEFAULT_RESET_LIMIT: usize = 20;

/// How many argument lists are tried per method that needs arguments.
pub const MAX_ARGUMENT_LISTS: usize = 3;

/// How many interesting instructions after a field read the mutator call may be.
pub const MUTATOR_WINDOW: usize = 16;

/// Guard against cycles in crafted class hierarchies and nesting.
const MAX_DEPTH: usize = 64;

/// A static field, by its declaring class (dotted binary name) and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldId {
    /// The declaring class (`com.acme.Prices`, `com.acme.Outer$Inner`).
    pub class: String,
    /// The field's name.
    pub name: String,
}

/// Request of `reset_methods`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetRequest {
    /// The module's class directories (`target/classes`, `target/test-classes`); every
    /// `.class` file under them is read, `module-info.class` aside.
    pub class_dirs: Vec<PathBuf>,
    /// The polluted static field.
    pub field: FieldId,
    /// Instance fields of the object under the static field that differ (`jobs` for
    /// `JobRegistry.INSTANCE.jobs`); empty when unknown.
    #[serde(default)]
    pub inner_fields: Vec<String>,
    /// The test class the statement will be compiled into (binary name).
    pub test_class: String,
    /// How many candidates at most; [`DEFAULT_RESET_LIMIT`] when absent.
    #[serde(default)]
    pub limit: Option<usize>,
}

/// Response of `reset_methods`.
#[derive(Debug, Clone, Serialize)]
pub struct ResetResponse {
    /// The candidates, best first.
    pub candidates: Vec<ResetCandidate>,
    /// How many class files were read.
    pub classes_read: usize,
    /// Whether the field's class is among them and declares the field.
    pub field_found: bool,
    /// The class files that could not be read or parsed.
    pub unreadable: Vec<Unreadable>,
}

/// A class file that could not be read.
#[derive(Debug, Clone, Serialize)]
pub struct Unreadable {
    /// Its path.
    pub path: PathBuf,
    /// Why.
    pub error: String,
}

/// What a candidate statement does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResetKind {
    /// Calls a static method.
    StaticMethod,
    /// Calls an instance method on a receiver the code reaches statically.
    InstanceMethod,
    /// Assigns the field its initial value.
    FieldAssignment,
    /// Calls `clear()` on the field.
    FieldClear,
}

/// One candidate reset statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResetCandidate {
    /// A Java statement, with fully qualified canonical names (`com.acme.Prices.reset();`).
    pub statement: String,
    /// The method it calls (`com.acme.Prices.reset()V`, binary name, name, descriptor); none
    /// for field statements.
    pub method: Option<String>,
    /// What it does.
    pub kind: ResetKind,
    /// Why it may reset the field.
    pub why: String,
}

/// What the finder looks for, without the I/O.
#[derive(Debug, Clone)]
pub struct ResetQuery<'a> {
    /// The polluted static field.
    pub field: &'a FieldId,
    /// Differing instance fields under it (may be empty).
    pub inner_fields: &'a [String],
    /// The test class the statement goes into.
    pub test_class: &'a str,
    /// How many candidates at most.
    pub limit: usize,
}

/// Reads every class file under the request's directories and finds the reset candidates.
///
/// Errors: [`EngineError::Io`] for a class directory that does not exist or cannot be listed
/// (the user's to fix: the module is not compiled, or a path is wrong). Class files that cannot
/// be read or parsed are listed in `unreadable`, not errors.
pub fn reset_methods(request: &ResetRequest) -> Result<ResetResponse, EngineError> {
    let mut classes = Vec::new();
    let mut unreadable = Vec::new();
    for dir in &request.class_dirs {
        if !dir.is_dir() {
            return Err(EngineError::Io {
                path: dir.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "not a class directory (is the module compiled?)",
                ),
            });
        }
        for path in class_files_under(dir)? {
            if path.file_name().is_some_and(|n| n == "module-info.class") {
                continue;
            }
            match ClassFile::read(&path) {
                Ok(class) => classes.push(class),
                Err(e) => unreadable.push(Unreadable {
                    path,
                    error: e.to_string(),
                }),
            }
        }
    }
    let query = ResetQuery {
        field: &request.field,
        inner_fields: &request.inner_fields,
        test_class: &request.test_class,
        limit: request.limit.unwrap_or(DEFAULT_RESET_LIMIT),
    };
    let (candidates, field_found) = find_resets(&classes, &query);
    Ok(ResetResponse {
        candidates,
        classes_read: classes.len(),
        field_found,
        unreadable,
    })
}

/// The ranked reset candidates for `query` among `classes` (the module's main and test classes;
/// a class name seen twice keeps its first class file), and whether the field was found.
pub fn find_resets(classes: &[ClassFile], query: &ResetQuery<'_>) -> (Vec<ResetCandidate>, bool) {
    let module = Module::new(classes);
    let finder = Finder::new(&module, query);
    let field_found = finder.field.is_some();
    let mut ranked = finder.candidates();
    ranked.sort_by(|a, b| a.0.cmp(&b.0));
    let mut seen = BTreeSet::new();
    let candidates = ranked
        .into_iter()
        .map(|(_, c)| c)
        .filter(|c| seen.insert(c.statement.clone()))
        .take(query.limit)
        .collect();
    (candidates, field_found)
}

/// The module's classes, indexed.
struct Module<'a> {
    classes: BTreeMap<&'a str, &'a ClassFile>,
    /// Nested classes' `InnerClasses` entries, by the nested class's name (its own file's entry
    /// when there is one).
    nested: BTreeMap<&'a str, &'a InnerClass>,
}

impl<'a> Module<'a> {
    fn new(list: &'a [ClassFile]) -> Self {
        let mut classes = BTreeMap::new();
        for class in list {
            classes.entry(class.name.as_str()).or_insert(class);
        }
        let mut nested = BTreeMap::new();
        for class in classes.values() {
            if let Some(own) = class.own_inner_entry() {
                nested.insert(own.inner.as_str(), own);
            }
        }
        for class in classes.values() {
            for entry in &class.inner_classes {
                nested.entry(entry.inner.as_str()).or_insert(entry);
            }
        }
        Module { classes, nested }
    }

    fn get(&self, name: &str) -> Option<&'a ClassFile> {
        self.classes.get(name).copied()
    }

    /// The direct supertypes of a module class.
    fn supers(&self, name: &str) -> Vec<&'a str> {
        self.get(name)
            .map(|c| {
                c.super_class
                    .iter()
                    .chain(&c.interfaces)
                    .map(String::as_str)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether `from` is `to` or (as far as the module shows) a subtype of it.
    fn is_assignable(&self, from: &str, to: &str) -> bool {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(current) = todo.pop() {
            if current == to {
                return true;
            }
            if seen.len() > 4 * MAX_DEPTH || !seen.insert(current.clone()) {
                continue;
            }
            todo.extend(self.supers(&current).into_iter().map(str::to_string));
        }
        false
    }

    /// `T`, its supertypes and its subtypes among the module's classes.
    fn related(&self, t: &str) -> BTreeSet<String> {
        let mut out: BTreeSet<String> = self
            .classes
            .keys()
            .filter(|c| self.is_assignable(c, t) || self.is_assignable(t, c))
            .map(|c| c.to_string())
            .collect();
        out.insert(t.to_string());
        out
    }

    /// The class that declares field `name` as seen from `owner` (walking superclasses).
    fn resolve_field(&self, owner: &str, name: &str) -> String {
        let mut current = owner.to_string();
        for _ in 0..MAX_DEPTH {
            let Some(class) = self.get(&current) else {
                break;
            };
            if class.field(name).is_some() {
                return current;
            }
            match &class.super_class {
                Some(s) => current = s.clone(),
                None => break,
            }
        }
        owner.to_string()
    }

    /// The class that declares method `name``descriptor` as seen from `owner`.
    fn resolve_method(&self, owner: &str, name: &str, descriptor: &str) -> String {
        let mut current = owner.to_string();
        for _ in 0..MAX_DEPTH {
            let Some(class) = self.get(&current) else {
                break;
            };
            if class.method(name, descriptor).is_some() {
                return current;
            }
            match &class.super_class {
                Some(s) => current = s.clone(),
                None => break,
            }
        }
        owner.to_string()
    }

    /// `com.acme.Outer$Inner` → `com.acme.Outer.Inner`: nesting as the module's `InnerClasses`
    /// say, `$` → `.` for classes outside the module.
    fn canonical(&self, name: &str) -> String {
        if let Some(element) = name.strip_prefix('[') {
            return format!("{}[]", self.canonical_descriptor(element));
        }
        let mut parts = Vec::new();
        let mut current = name;
        for _ in 0..MAX_DEPTH {
            match self.nested.get(current) {
                Some(InnerClass {
                    outer: Some(outer),
                    simple_name: Some(simple),
                    ..
                }) => {
                    parts.push(simple.as_str());
                    current = outer;
                }
                _ => break,
            }
        }
        let mut out = if self.classes.contains_key(current) {
            current.to_string()
        } else {
            current.replace('$', ".")
        };
        for part in parts.iter().rev() {
            out.push('.');
            out.push_str(part);
        }
        out
    }

    /// The Java type of a (dotted or slashed) field descriptor.
    fn canonical_descriptor(&self, descriptor: &str) -> String {
        match descriptor.as_bytes().first() {
            Some(b'[') => format!("{}[]", self.canonical_descriptor(&descriptor[1..])),
            Some(b'L') => self.canonical(&descriptor[1..].trim_end_matches(';').replace('/', ".")),
            Some(&c) => primitive_name(c).unwrap_or("?").to_string(),
            None => "?".to_string(),
        }
    }

    /// The top-level class that encloses `name` (itself when it is top-level).
    fn outermost<'n>(&'n self, name: &'n str) -> &'n str {
        let mut current = name;
        for _ in 0..MAX_DEPTH {
            match self.nested.get(current).and_then(|e| e.outer.as_deref()) {
                Some(outer) => current = outer,
                None => break,
            }
        }
        current
    }

    fn class_visible(&self, name: &str, from: &Viewpoint) -> bool {
        self.class_visible_at(name, from, 0)
    }

    fn class_visible_at(&self, name: &str, from: &Viewpoint, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        if self.outermost(name) == from.outermost {
            return true;
        }
        if let Some(class) = self.get(name) {
            if class.is_local_or_anonymous() || class.access.is_synthetic() {
                return false;
            }
        }
        match self.nested.get(name) {
            Some(entry) => match &entry.outer {
                None => false,
                Some(outer) => {
                    let own = entry.access.is_public()
                        || (!entry.access.is_private() && package_of(name) == from.package);
                    own && self.class_visible_at(outer, from, depth + 1)
                }
            },
            None => match self.get(name) {
                Some(class) => class.access.is_public() || package_of(name) == from.package,
                // Outside the module (the JDK, a library): assumed visible unless anonymous.
                None => !is_anonymous_name(name),
            },
        }
    }

    /// Whether a member of `owner` with `access` can be named from the test class.
    fn member_visible(&self, owner: &str, access: AccessFlags, from: &Viewpoint) -> bool {
        self.class_visible(owner, from)
            && (access.is_public()
                || self.outermost(owner) == from.outermost
                || (!access.is_private() && package_of(owner) == from.package))
    }
}

/// Where the statement is compiled: the test class's package and top-level class.
struct Viewpoint {
    package: String,
    outermost: String,
}

/// Which instance fields under the static field count.
enum InnerFields {
    /// These names.
    Names(BTreeSet<String>),
    /// Any instance field of a related type (none were given).
    Any,
}

/// What a method does to the polluted state.
#[derive(Debug, Clone)]
enum Effect {
    PutStatic,
    MutateStatic { call: String },
    PutInner { field: String },
    MutateInner { field: String, call: String },
}

impl Effect {
    fn is_write(&self) -> bool {
        matches!(self, Effect::PutStatic | Effect::PutInner { .. })
    }
}

/// Sort key: tier, sub-rank, affinity, non-void, writes first, argument list, receiver, text.
type Rank = (u8, u8, u8, u8, u8, usize, usize, String);

struct Finder<'m, 'a> {
    module: &'m Module<'a>,
    target: &'m FieldId,
    /// The field's declaration, when the module has it.
    field: Option<&'a Field>,
    /// The field's descriptor (declared, or from a reference to it).
    descriptor: Option<String>,
    /// The class of the field's value type, for object types.
    value_type: Option<String>,
    /// Types related to the value type.
    related: BTreeSet<String>,
    inner: InnerFields,
    from: Viewpoint,
}

impl<'m, 'a> Finder<'m, 'a> {
    fn new(module: &'m Module<'a>, query: &'m ResetQuery<'_>) -> Self {
        let target = query.field;
        let field = module
            .get(&target.class)
            .and_then(|c| c.field(&target.name))
            .filter(|f| f.access.is_static());
        let descriptor = field.map(|f| f.descriptor.clone()).or_else(|| {
            module.classes.values().find_map(|c| {
                c.methods.iter().find_map(|m| {
                    m.code
                        .as_ref()?
                        .instructions
                        .iter()
                        .find_map(|i| match &i.op {
                            Op::Field { field, .. }
                                if field.name == target.name
                                    && module.resolve_field(&field.owner, &field.name)
                                        == target.class =>
                            {
                                Some(field.descriptor.clone())
                            }
                            _ => None,
                        })
                })
            })
        });
        let value_type = descriptor.as_deref().and_then(descriptor_class);
        let related = value_type
            .as_deref()
            .filter(|t| !t.starts_with("java."))
            .map(|t| module.related(t))
            .unwrap_or_default();
        let inner = if query.inner_fields.is_empty() {
            InnerFields::Any
        } else {
            InnerFields::Names(query.inner_fields.iter().cloned().collect())
        };
        let outermost = module.outermost(query.test_class).to_string();
        Finder {
            module,
            target,
            field,
            descriptor,
            value_type,
            related,
            inner,
            from: Viewpoint {
                package: package_of(query.test_class).to_string(),
                outermost,
            },
        }
    }

    fn field_text(&self) -> String {
        format!("{}.{}", self.target.class, self.target.name)
    }

    fn is_target(&self, field: &MemberRef) -> bool {
        field.name == self.target.name
            && self.module.resolve_field(&field.owner, &field.name) == self.target.class
    }

    fn is_inner(&self, field: &MemberRef) -> bool {
        let owner = self.module.resolve_field(&field.owner, &field.name);
        if !self.related.contains(&owner) {
            return false;
        }
        let declared = self.module.get(&owner).and_then(|c| c.field(&field.name));
        if declared.is_some_and(|f| f.access.is_static()) {
            return false;
        }
        match &self.inner {
            InnerFields::Names(names) => names.contains(&field.name),
            InnerFields::Any => true,
        }
    }

    /// Every candidate, with its rank (unsorted, with duplicates).
    fn candidates(&self) -> Vec<(Rank, ResetCandidate)> {
        let mut out = Vec::new();
        for class in self.module.classes.values() {
            if !usable_class(class) {
                continue;
            }
            for method in &class.methods {
                if !usable_method(method)
                    || !self
                        .module
                        .member_visible(&class.name, method.access, &self.from)
                {
                    continue;
                }
                let Some(effect) = self.effect(class, method) else {
                    continue;
                };
                self.method_candidates(class, method, &effect, &mut out);
            }
        }
        self.field_candidates(&mut out);
        out
    }

    /// What `method` does to the polluted state: its first write, else its first mutator call.
    fn effect(&self, class: &ClassFile, method: &Method) -> Option<Effect> {
        let code = method.code.as_ref()?;
        let ins = &code.instructions;
        let related_class = self.related.contains(&class.name);
        let mut mutation = None;
        for (i, insn) in ins.iter().enumerate() {
            let Op::Field { op, field } = &insn.op else {
                continue;
            };
            let effect = match op {
                FieldOp::PutStatic if self.is_target(field) => Some(Effect::PutStatic),
                FieldOp::GetStatic if self.is_target(field) => {
                    mutator_after(ins, i, field, self.value_type.as_deref(), self.module)
                        .map(|call| Effect::MutateStatic { call })
                }
                FieldOp::PutField if related_class && self.is_inner(field) => {
                    Some(Effect::PutInner {
                        field: format!("{}.{}", field.owner, field.name),
                    })
                }
                FieldOp::GetField if related_class && self.is_inner(field) => {
                    let value = descriptor_class(&field.descriptor);
                    mutator_after(ins, i, field, value.as_deref(), self.module).map(|call| {
                        Effect::MutateInner {
                            field: format!("{}.{}", field.owner, field.name),
                            call,
                        }
                    })
                }
                _ => None,
            };
            match effect {
                Some(e) if e.is_write() => return Some(e),
                Some(e) if mutation.is_none() => mutation = Some(e),
                _ => {}
            }
        }
        mutation
    }

    fn effect_text(&self, effect: &Effect) -> String {
        let field = self.field_text();
        match effect {
            Effect::PutStatic => format!("writes {field} (PUTSTATIC)"),
            Effect::MutateStatic { call } => format!("calls {call} on {field} (GETSTATIC)"),
            Effect::PutInner { field: inner } => {
                format!("writes {inner} (PUTFIELD) of the object under {field}")
            }
            Effect::MutateInner { field: inner, call } => {
                format!("calls {call} on {inner} (GETFIELD) of the object under {field}")
            }
        }
    }

    fn method_candidates(
        &self,
        class: &ClassFile,
        method: &Method,
        effect: &Effect,
        out: &mut Vec<(Rank, ResetCandidate)>,
    ) {
        let Some((params, ret)) = method_descriptor(&method.descriptor) else {
            return;
        };
        let arguments: Vec<(String, String)> = if params.is_empty() {
            vec![(String::new(), String::new())]
        } else {
            self.argument_lists(class, method, &params)
        };
        let is_static = method.access.is_static();
        let receivers: Vec<(String, String)> = if is_static {
            vec![(self.module.canonical(&class.name), String::new())]
        } else {
            self.receivers(&class.name)
        };
        let name_rank = reset_name_rank(&method.name);
        let tier = match (params.is_empty(), is_static, name_rank) {
            (true, true, Some(_)) => 0,
            (true, true, None) => 1,
            (true, false, _) => 2,
            (false, _, _) => 4,
        };
        let sub = match tier {
            0 => name_rank.unwrap_or(0),
            4 => u8::from(!is_static),
            _ => 0,
        };
        let affinity =
            u8::from(class.name != self.target.class && !self.related.contains(&class.name));
        let non_void = u8::from(ret != "V");
        let not_write = u8::from(!effect.is_write());
        let why = self.effect_text(effect);
        let method_id = format!("{}.{}{}", class.name, method.name, method.descriptor);
        for (r, (receiver, receiver_why)) in receivers.iter().enumerate() {
            for (a, (args, args_why)) in arguments.iter().enumerate() {
                let statement = format!("{receiver}.{}({args});", method.name);
                let rank = (
                    tier,
                    sub,
                    affinity,
                    non_void,
                    not_write,
                    a,
                    r,
                    statement.clone(),
                );
                out.push((
                    rank,
                    ResetCandidate {
                        statement,
                        method: Some(method_id.clone()),
                        kind: if is_static {
                            ResetKind::StaticMethod
                        } else {
                            ResetKind::InstanceMethod
                        },
                        why: format!("{why}{receiver_why}{args_why}"),
                    },
                ));
            }
        }
    }

    /// Expressions of a type that has `class`'s instance methods, with why.
    fn receivers(&self, class: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut owners: BTreeSet<&str> = BTreeSet::new();
        owners.insert(class);
        owners.insert(self.target.class.as_str());
        if let Some(t) = &self.value_type {
            owners.insert(t.as_str());
        }
        for owner in owners {
            let Some(c) = self.module.get(owner) else {
                continue;
            };
            if !usable_class(c) {
                continue;
            }
            for m in &c.methods {
                let returns = m.descriptor.strip_prefix("()").and_then(descriptor_class);
                let fits = returns
                    .as_deref()
                    .is_some_and(|r| self.module.is_assignable(r, class));
                if fits
                    && m.access.is_static()
                    && usable_method(m)
                    && self.module.member_visible(owner, m.access, &self.from)
                {
                    out.push((
                        format!("{}.{}()", self.module.canonical(owner), m.name),
                        format!("; receiver: {owner}.{}()", m.name),
                    ));
                }
            }
        }
        if let (Some(field), Some(t)) = (self.field, &self.value_type) {
            if self.module.is_assignable(t, class)
                && self
                    .module
                    .member_visible(&self.target.class, field.access, &self.from)
            {
                out.push((
                    format!(
                        "{}.{}",
                        self.module.canonical(&self.target.class),
                        self.target.name
                    ),
                    format!("; receiver: {}", self.field_text()),
                ));
            }
        }
        out
    }

    /// Argument lists for `method`'s parameters (Java source, and why), best first.
    fn argument_lists(
        &self,
        class: &ClassFile,
        method: &Method,
        params: &[String],
    ) -> Vec<(String, String)> {
        if !params.iter().all(|p| self.simple_parameter(p)) {
            return Vec::new();
        }
        let mut out: Vec<(String, String)> = Vec::new();
        if let ([param], Some(descriptor), Some(initial)) =
            (params, &self.descriptor, self.initial_constant())
        {
            if param == descriptor {
                if let Some(literal) = self.literal(&initial, param, true) {
                    out.push((literal, "; argument: the field's initial value".to_string()));
                }
            }
        }
        for other in self.module.classes.values() {
            for caller in &other.methods {
                let Some(code) = &caller.code else { continue };
                let ins = &code.instructions;
                for (p, insn) in ins.iter().enumerate() {
                    if out.len() >= MAX_ARGUMENT_LISTS {
                        return out;
                    }
                    let Op::Invoke {
                        kind: InvokeKind::Static | InvokeKind::Virtual | InvokeKind::Interface,
                        method: called,
                        ..
                    } = &insn.op
                    else {
                        continue;
                    };
                    if called.name != method.name
                        || called.descriptor != method.descriptor
                        || self.module.resolve_method(
                            &called.owner,
                            &called.name,
                            &called.descriptor,
                        ) != class.name
                    {
                        continue;
                    }
                    let Some(args) = self.call_arguments(ins, p, params) else {
                        continue;
                    };
                    if out.iter().all(|(a, _)| *a != args) {
                        out.push((
                            args,
                            format!(
                                "; arguments from the call in {}.{}{} at offset {}",
                                other.name, caller.name, caller.descriptor, insn.offset
                            ),
                        ));
                    }
                }
            }
        }
        out
    }

    /// The constants passed to the invoke at `ins[p]`, when its arguments are constants.
    fn call_arguments(&self, ins: &[Instruction], p: usize, params: &[String]) -> Option<String> {
        let n = params.len();
        let first = p.checked_sub(n)?;
        let mut args = Vec::with_capacity(n);
        for (j, param) in params.iter().enumerate() {
            let insn = &ins[first + j];
            if insn.index + (n - j) as u32 != ins[p].index {
                return None;
            }
            let literal = match &insn.op {
                Op::Const(c) => self.literal(c, param, false)?,
                Op::Field {
                    op: FieldOp::GetStatic,
                    field,
                } if param.strip_prefix('L').and_then(|d| d.strip_suffix(';'))
                    == Some(field.owner.replace('.', "/").as_str())
                    && self.module.class_visible(&field.owner, &self.from) =>
                {
                    format!("{}.{}", self.module.canonical(&field.owner), field.name)
                }
                _ => return None,
            };
            args.push(literal);
        }
        Some(args.join(", "))
    }

    /// Whether a parameter can be given a literal: a primitive, `String`, or an enum of the
    /// module.
    fn simple_parameter(&self, descriptor: &str) -> bool {
        match descriptor {
            "Z" | "B" | "C" | "S" | "I" | "J" | "F" | "D" | "Ljava/lang/String;" => true,
            _ => descriptor_class(descriptor)
                .and_then(|c| self.module.get(&c))
                .is_some_and(|c| c.access.is_enum()),
        }
    }

    /// Java source for a constant of type `descriptor`; `null` only for a `String` (cast) unless
    /// `assignment`.
    fn literal(&self, constant: &Constant, descriptor: &str, assignment: bool) -> Option<String> {
        Some(match (descriptor, constant) {
            ("Z", Constant::Int(0)) => "false".to_string(),
            ("Z", Constant::Int(1)) => "true".to_string(),
            ("B", Constant::Int(v)) if i8::try_from(*v).is_ok() => format!("(byte) {v}"),
            ("S", Constant::Int(v)) if i16::try_from(*v).is_ok() => format!("(short) {v}"),
            ("C", Constant::Int(v)) => java_char(u16::try_from(*v).ok()?),
            ("I", Constant::Int(v)) => v.to_string(),
            ("J", Constant::Long(v)) => format!("{v}L"),
            ("F", Constant::Float(v)) => java_float(*v),
            ("D", Constant::Double(v)) => java_double(*v),
            ("Ljava/lang/String;", Constant::String(s)) => java_string(s),
            ("Ljava/lang/Class;", Constant::Class(c)) => {
                format!("{}.class", self.module.canonical(c))
            }
            ("Ljava/lang/String;", Constant::Null) if !assignment => {
                "(java.lang.String) null".to_string()
            }
            (d, Constant::Null) if assignment && (d.starts_with('L') || d.starts_with('[')) => {
                "null".to_string()
            }
            _ => return None,
        })
    }

    /// The field's initial value as a constant: its `ConstantValue`, or the constant `<clinit>`
    /// stores into it first.
    fn initial_constant(&self) -> Option<Constant> {
        let field = self.field?;
        if let Some(c) = &field.constant_value {
            return Some(c.clone());
        }
        match self.initializer()? {
            Initializer::Constant(c) => Some(c),
            _ => None,
        }
    }

    /// How `<clinit>` first assigns the field.
    fn initializer(&self) -> Option<Initializer> {
        let class = self.module.get(&self.target.class)?;
        let clinit = class.method("<clinit>", "()V");
        let ins = clinit
            .and_then(|m| m.code.as_ref())
            .map(|c| &c.instructions[..]);
        let ins = ins.unwrap_or(&[]);
        let Some(p) = ins.iter().position(|i| {
            matches!(&i.op, Op::Field { op: FieldOp::PutStatic, field } if self.is_target(field))
        }) else {
            return Some(Initializer::Default);
        };
        let k = ins[p].index;
        let before = |back: usize, index_back: u32| {
            p.checked_sub(back)
                .map(|q| &ins[q])
                .filter(|i| i.index + index_back == k)
        };
        if let Some(Instruction {
            op: Op::Const(c), ..
        }) = before(1, 1)
        {
            return Some(Initializer::Constant(c.clone()));
        }
        if let (
            Some(Instruction {
                op: Op::New { class: created },
                ..
            }),
            Some(Instruction {
                op:
                    Op::Invoke {
                        kind: InvokeKind::Special,
                        method,
                        ..
                    },
                ..
            }),
        ) = (before(2, 3), before(1, 1))
        {
            if method.name == "<init>" && method.descriptor == "()V" && method.owner == *created {
                return Some(Initializer::New(created.clone()));
            }
        }
        None
    }

    /// `F = initial value;` and `F.clear();`, when the test can reach `F`.
    fn field_candidates(&self, out: &mut Vec<(Rank, ResetCandidate)>) {
        let (Some(field), Some(descriptor)) = (self.field, &self.descriptor) else {
            return;
        };
        if !self
            .module
            .member_visible(&self.target.class, field.access, &self.from)
        {
            return;
        }
        let name = self.field_text();
        let target = format!(
            "{}.{}",
            self.module.canonical(&self.target.class),
            self.target.name
        );
        let rank = |sub: u8, statement: &str| (3, sub, 0, 0, 0, 0, 0, statement.to_string());
        if !field.access.is_final() {
            let value = match (&field.constant_value, self.initializer()) {
                (Some(c), _) => self
                    .literal(c, descriptor, true)
                    .map(|v| (v, "its ConstantValue".to_string())),
                (None, Some(Initializer::Constant(c))) => self
                    .literal(&c, descriptor, true)
                    .map(|v| (v, "the constant <clinit> assigns it".to_string())),
                (None, Some(Initializer::New(created))) => {
                    self.constructor_visible(&created).then(|| {
                        (
                            format!("new {}()", self.module.canonical(&created)),
                            "the new object <clinit> assigns it".to_string(),
                        )
                    })
                }
                (None, Some(Initializer::Default)) => default_value(descriptor).map(|v| {
                    (
                        v.to_string(),
                        "its default value (<clinit> does not assign it)".to_string(),
                    )
                }),
                (None, None) => None,
            };
            if let Some((value, what)) = value {
                let statement = format!("{target} = {value};");
                out.push((
                    rank(0, &statement),
                    ResetCandidate {
                        statement,
                        method: None,
                        kind: ResetKind::FieldAssignment,
                        why: format!("assigns {name} {what}"),
                    },
                ));
            }
        }
        if let Some(t) = self.value_type.as_deref().filter(|t| is_collection_type(t)) {
            let statement = format!("{target}.clear();");
            out.push((
                rank(1, &statement),
                ResetCandidate {
                    statement,
                    method: None,
                    kind: ResetKind::FieldClear,
                    why: format!("{name} is a {t} the test can reach: clear() empties it"),
                },
            ));
        }
    }

    /// Whether the test can call `new X()`.
    fn constructor_visible(&self, class: &str) -> bool {
        if !self.module.class_visible(class, &self.from) {
            return false;
        }
        match self.module.get(class) {
            None => true,
            Some(c) => {
                !c.access.is_abstract()
                    && !c.access.is_interface()
                    && c.method("<init>", "()V")
                        .is_some_and(|m| self.module.member_visible(class, m.access, &self.from))
            }
        }
    }
}

/// How `<clinit>` first assigns the polluted field.
enum Initializer {
    /// It never does.
    Default,
    /// A constant.
    Constant(Constant),
    /// `new X()` (the class).
    New(String),
}

/// The mutator called on the value that `ins[i]` reads, as `owner.name` (see the module doc).
fn mutator_after(
    ins: &[Instruction],
    i: usize,
    field: &MemberRef,
    value_type: Option<&str>,
    module: &Module<'_>,
) -> Option<String> {
    let value_type = value_type?;
    for insn in ins.iter().skip(i + 1).take(MUTATOR_WINDOW) {
        match &insn.op {
            Op::Field { field: other, .. }
                if other.name == field.name && other.owner == field.owner =>
            {
                return None
            }
            Op::Invoke {
                kind: InvokeKind::Virtual | InvokeKind::Interface,
                method,
                ..
            } if receiver_fits(&method.owner, value_type, module) => {
                return is_mutator(&method.owner, &method.name)
                    .then(|| format!("{}.{}", method.owner, method.name));
            }
            _ => {}
        }
    }
    None
}

/// Whether a call owned by `owner` may be a call on a value of type `value`.
fn receiver_fits(owner: &str, value: &str, module: &Module<'_>) -> bool {
    owner == value
        || module.is_assignable(value, owner)
        || module.is_assignable(owner, value)
        || (is_collection_type(owner) && is_collection_type(value))
}

/// Whether calling `owner.name` is taken to change the receiver's state.
pub fn is_mutator(owner: &str, name: &str) -> bool {
    const ALWAYS: [&str; 9] = [
        "clear", "remove", "reset", "set", "put", "add", "init", "restore", "clean",
    ];
    const COLLECTIONS: [&str; 8] = [
        "retain", "replace", "merge", "compute", "poll", "offer", "push", "pop",
    ];
    let word = |prefix: &&str| {
        name.strip_prefix(*prefix).is_some_and(|rest| {
            rest.chars()
                .next()
                .is_none_or(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
    };
    ALWAYS.iter().any(word)
        || matches!(name, "initialize" | "cleanup")
        || (is_collection_type(owner) && COLLECTIONS.iter().any(word))
}

/// Whether a class is a `java.util` (or `java.util.concurrent`) collection or map.
pub fn is_collection_type(class: &str) -> bool {
    let simple = match class
        .strip_prefix("java.util.concurrent.")
        .or_else(|| class.strip_prefix("java.util."))
    {
        Some(s) if !s.contains('.') && !s.contains('$') => s,
        _ => return false,
    };
    ["Map", "List", "Set", "Queue", "Deque", "Collection"]
        .iter()
        .any(|end| simple.ends_with(end))
        || matches!(simple, "Vector" | "Stack" | "Hashtable" | "Properties")
}

/// 0-4 for names starting with `reset`, `clear`, `clean`, `restore`, `init` (any case).
fn reset_name_rank(name: &str) -> Option<u8> {
    let lower = name.to_ascii_lowercase();
    ["reset", "clear", "clean", "restore", "init"]
        .iter()
        .position(|p| lower.starts_with(p))
        .map(|p| p as u8)
}

fn usable_class(class: &ClassFile) -> bool {
    !class.is_local_or_anonymous()
        && !class.access.is_synthetic()
        && !class.name.ends_with("module-info")
        && !class.name.ends_with("package-info")
}

fn usable_method(method: &Method) -> bool {
    !method.name.starts_with('<')
        && !method.name.contains('$')
        && !method.access.is_synthetic()
        && !method.access.is_bridge()
        && !method.access.is_abstract()
        && method.code.is_some()
        && !method
            .annotations
            .iter()
            .any(|a| a.starts_with("org.junit."))
}

/// `com.acme.Outer$Inner` → `com.acme`; the empty string for the default package.
fn package_of(class: &str) -> &str {
    class.rfind('.').map_or("", |i| &class[..i])
}

/// Whether a binary name looks like an anonymous class's (`Outer$1`).
fn is_anonymous_name(class: &str) -> bool {
    class
        .rsplit('$')
        .next()
        .is_some_and(|last| class.contains('$') && last.starts_with(|c: char| c.is_ascii_digit()))
}

/// `Lcom/acme/X;` → `com.acme.X`; none for primitives and arrays.
fn descriptor_class(descriptor: &str) -> Option<String> {
    descriptor
        .strip_prefix('L')
        .and_then(|d| d.strip_suffix(';'))
        .map(|d| d.replace('/', "."))
}

fn primitive_name(code: u8) -> Option<&'static str> {
    Some(match code {
        b'Z' => "boolean",
        b'B' => "byte",
        b'C' => "char",
        b'S' => "short",
        b'I' => "int",
        b'J' => "long",
        b'F' => "float",
        b'D' => "double",
        b'V' => "void",
        _ => return None,
    })
}

/// The parameter descriptors and the return descriptor of a method descriptor.
fn method_descriptor(descriptor: &str) -> Option<(Vec<String>, String)> {
    let rest = descriptor.strip_prefix('(')?;
    let (params, ret) = rest.split_once(')')?;
    let mut out = Vec::new();
    let bytes = params.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while bytes.get(i) == Some(&b'[') {
            i += 1;
        }
        match bytes.get(i)? {
            b'L' => i += params[i..].find(';')? + 1,
            c if primitive_name(*c).is_some() && *c != b'V' => i += 1,
            _ => return None,
        }
        out.push(params[start..i].to_string());
    }
    Some((out, ret.to_string()))
}

/// The default value of a field of `descriptor`, as Java source.
fn default_value(descriptor: &str) -> Option<&'static str> {
    Some(match descriptor.as_bytes().first()? {
        b'Z' => "false",
        b'B' | b'S' | b'I' => "0",
        b'C' => "'\\0'",
        b'J' => "0L",
        b'F' => "0.0f",
        b'D' => "0.0",
        b'L' | b'[' => "null",
        _ => return None,
    })
}

/// A Java string literal. Control characters become octal escapes, never `\u000a` (a unicode
/// escape of a line terminator ends the line before the lexer sees the literal).
pub fn java_string(s: &str) -> String {
    let mut out = String::from("\"");
    for unit in s.encode_utf16() {
        push_escaped(&mut out, unit, '"');
    }
    out.push('"');
    out
}

fn java_char(unit: u16) -> String {
    let mut out = String::from("'");
    push_escaped(&mut out, unit, '\'');
    out.push('\'');
    out
}

fn push_escaped(out: &mut String, unit: u16, quote: char) {
    match unit {
        0x5c => out.push_str("\\\\"),
        0x0a => out.push_str("\\n"),
        0x0d => out.push_str("\\r"),
        0x09 => out.push_str("\\t"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        u if u == quote as u16 => {
            out.push('\\');
            out.push(quote);
        }
        0x20..=0x7e => out.push(char::from(unit as u8)),
        0x00..=0x1f | 0x7f => out.push_str(&format!("\\{unit:03o}")),
        _ => out.push_str(&format!("\\u{unit:04x}")),
    }
}

fn java_float(v: f32) -> String {
    if v.is_nan() {
        "Float.NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 {
            "Float.POSITIVE_INFINITY"
        } else {
            "Float.NEGATIVE_INFINITY"
        }
        .to_string()
    } else {
        format!("{v:?}f")
    }
}

fn java_double(v: f64) -> String {
    if v.is_nan() {
        "Double.NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 {
            "Double.POSITIVE_INFINITY"
        } else {
            "Double.NEGATIVE_INFINITY"
        }
        .to_string()
    } else {
        format!("{v:?}d")
    }
}

#[cfg(test)]
#[path = "reset_tests.rs"]
mod tests;
