//! The reset-method finder's search over a module's classes (the rules are [`super::reset`]'s):
//! what each method does to the polluted state, the receivers and argument lists that make it a
//! statement, the field's own statements, and the rank of each candidate.

use std::collections::{BTreeMap, BTreeSet};

use super::accessor::{accessor_owners, dispatch, field_accessors, usable_class, usable_method};
use super::candidate::Rank;
pub use super::candidate::{FieldId, Found, ResetCandidate, ResetKind, ResetQuery};
use super::mutator::{is_collection_type, mutator_after};
use super::restore::{restore_candidate, Place};
use super::shapes::Placement;
use crate::diagnose::capture::StaticField;
use crate::jvm::classfile::{
    ClassFile, Constant, Field, FieldOp, Instruction, InvokeKind, MemberRef, Method, Op,
};
use crate::jvm::descriptor::{descriptor_class, method_descriptor};
use crate::jvm::hierarchy::{Hierarchy, Viewpoint};
use crate::jvm::literal::{default_value, literal};

/// How many argument lists are tried per method that needs arguments.
pub const MAX_ARGUMENT_LISTS: usize = 3;

/// The ranked reset candidates for `query` among `classes` (the module's main and test classes;
/// a class name seen twice keeps its first class file), searched from the test's class and from
/// the polluter's: a statement found from both is kept once, with the placements of both.
pub fn find_resets(classes: &[ClassFile], query: &ResetQuery<'_>) -> Found {
    let module = Hierarchy::new(classes);
    let mut places = vec![(query.test_class, &[Placement::Setup, Placement::Test][..])];
    if let Some(polluter) = query.polluter_class {
        places.push((polluter, &[Placement::PolluterTeardown][..]));
    }
    let mut ranked: Vec<(Rank, ResetCandidate, BTreeSet<Placement>)> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut field_found = false;
    let mut refused: Vec<String> = Vec::new();
    let mut restored = false;
    for (class, placements) in places {
        let finder = Finder::new(&module, query, class);
        field_found |= finder.field.is_some();
        let mut found = finder.candidates();
        match finder.restore_candidate() {
            Ok(Some(c)) => {
                restored = true;
                found.push(((3, 0, 0, 0, 0, 0, 0, c.statement.clone()), c));
            }
            Ok(None) => {}
            Err(why) if !refused.contains(&why) => refused.push(why),
            Err(_) => {}
        }
        for (rank, c) in found {
            // The same statement found twice (`F.clear()` as the passing value of an empty
            // collection and as a plain clear, or from both classes): the best-ranked one, with
            // every placement it was found from.
            let i = match index.get(&c.statement) {
                Some(&i) => {
                    if rank < ranked[i].0 {
                        ranked[i].0 = rank;
                        ranked[i].1 = c;
                    }
                    i
                }
                None => {
                    index.insert(c.statement.clone(), ranked.len());
                    ranked.push((rank, c, BTreeSet::new()));
                    ranked.len() - 1
                }
            };
            ranked[i].2.extend(placements.iter().copied());
        }
    }
    ranked.sort_by(|a, b| a.0.cmp(&b.0));
    let candidates = ranked
        .into_iter()
        .take(query.limit)
        .map(|(_, mut c, placements)| {
            let order: &[Placement] = if c.kind == ResetKind::PassingValue {
                &[
                    Placement::PolluterTeardown,
                    Placement::Setup,
                    Placement::Test,
                ]
            } else {
                &[
                    Placement::Setup,
                    Placement::PolluterTeardown,
                    Placement::Test,
                ]
            };
            c.placements = order
                .iter()
                .copied()
                .filter(|p| placements.contains(p))
                .collect();
            c
        })
        .collect();
    Found {
        candidates,
        field_found,
        direct_restore_refused: (!restored && !refused.is_empty()).then(|| refused.join("; ")),
    }
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

struct Finder<'m, 'a> {
    module: &'m Hierarchy<'a>,
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
    /// The class the statements are compiled into.
    from_class: String,
    passing: Option<&'m StaticField>,
    failing: Option<&'m StaticField>,
}

impl<'m, 'a> Finder<'m, 'a> {
    fn new(module: &'m Hierarchy<'a>, query: &'m ResetQuery<'m>, from: &str) -> Self {
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
        Finder {
            module,
            target,
            field,
            descriptor,
            value_type,
            related,
            inner,
            from: Viewpoint::of(module, from),
            from_class: from.to_string(),
            passing: query.passing,
            failing: query.failing,
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
                if !usable_method(method) {
                    continue;
                }
                // a method of a class the code cannot name (a private implementation) is called
                // through a supertype that declares it, when one can be named
                let Some((owner, declared)) = dispatch(self.module, &self.from, class, method)
                else {
                    continue;
                };
                let Some(effect) = self.effect(class, method) else {
                    continue;
                };
                self.method_candidates(owner, declared, &effect, &mut out);
            }
        }
        self.field_candidates(&mut out);
        self.accessor_candidates(&mut out);
        out
    }

    /// `Owner.accessor().clear();` for a `java.util` collection or map field, through each
    /// static accessor that returns it ([`field_accessors`]).
    fn accessor_candidates(&self, out: &mut Vec<(Rank, ResetCandidate)>) {
        let Some(t) = self.value_type.as_deref().filter(|t| is_collection_type(t)) else {
            return;
        };
        for (class, m) in field_accessors(self.module, |f| self.is_target(f)) {
            if !usable_class(class)
                || !usable_method(m)
                || !self
                    .module
                    .member_visible(&class.name, m.access, &self.from)
            {
                continue;
            }
            let statement = format!(
                "{}.{}().clear();",
                self.module.canonical(&class.name),
                m.name
            );
            out.push((
                (3, 3, 0, 0, 0, 0, 0, statement.clone()),
                ResetCandidate::one(
                    statement,
                    Some(format!("{t}.clear()V")),
                    ResetKind::InstanceMethod,
                    format!(
                        "{} is a {t}; {}.{}() returns it: clear() empties it",
                        self.field_text(),
                        class.name,
                        m.name
                    ),
                ),
            ));
        }
    }

    /// The statements that set the field back to its passing value, from the class the finder
    /// searches from; `Ok(None)` when no passing value was given.
    fn restore_candidate(&self) -> Result<Option<ResetCandidate>, String> {
        let Some(passing) = self.passing else {
            return Ok(None);
        };
        let place = Place {
            module: self.module,
            from: &self.from,
            from_class: &self.from_class,
        };
        restore_candidate(&place, self.target, self.field, passing, self.failing).map(Some)
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
                    ResetCandidate::one(
                        statement,
                        Some(method_id.clone()),
                        if is_static {
                            ResetKind::StaticMethod
                        } else {
                            ResetKind::InstanceMethod
                        },
                        format!("{why}{receiver_why}{args_why}"),
                    ),
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
        // Following calls: accessors of the enclosing classes and superclasses.
        let outer = accessor_owners(self.module, &self.target.class);
        owners.extend(outer.iter().map(String::as_str));
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
        // Accessors that return the field's value, wherever they are.
        if self
            .value_type
            .as_deref()
            .is_some_and(|t| self.module.is_assignable(t, class))
        {
            for (c, m) in field_accessors(self.module, |f| self.is_target(f)) {
                let expr = format!("{}.{}()", self.module.canonical(&c.name), m.name);
                if usable_class(c)
                    && usable_method(m)
                    && self.module.member_visible(&c.name, m.access, &self.from)
                    && out.iter().all(|(e, _)| *e != expr)
                {
                    out.push((
                        expr,
                        format!(
                            "; receiver: {}.{}(), which returns {}",
                            c.name,
                            m.name,
                            self.field_text()
                        ),
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
                if let Some(value) = literal(&initial, param, true, self.module) {
                    out.push((value, "; argument: the field's initial value".to_string()));
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
                Op::Const(c) => literal(c, param, false, self.module)?,
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
                (Some(c), _) => literal(c, descriptor, true, self.module)
                    .map(|v| (v, "its ConstantValue".to_string())),
                (None, Some(Initializer::Constant(c))) => {
                    literal(&c, descriptor, true, self.module)
                        .map(|v| (v, "the constant <clinit> assigns it".to_string()))
                }
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
                    rank(1, &statement),
                    ResetCandidate::one(
                        statement,
                        None,
                        ResetKind::FieldAssignment,
                        format!("assigns {name} {what}"),
                    ),
                ));
            }
        }
        if let Some(t) = self.value_type.as_deref().filter(|t| is_collection_type(t)) {
            let statement = format!("{target}.clear();");
            out.push((
                rank(2, &statement),
                ResetCandidate::one(
                    statement,
                    None,
                    ResetKind::FieldClear,
                    format!("{name} is a {t} the test can reach: clear() empties it"),
                ),
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

/// 0-4 for names starting with `reset`, `clear`, `clean`, `restore`, `init` (any case).
fn reset_name_rank(name: &str) -> Option<u8> {
    let lower = name.to_ascii_lowercase();
    ["reset", "clear", "clean", "restore", "init"]
        .iter()
        .position(|p| lower.starts_with(p))
        .map(|p| p as u8)
}
