//! A method's bytecode (JVMS 4.7.3, chapter 6): the `Code` attribute and its instructions,
//! decoded into the ones that matter for finding who reads, writes and calls what (field
//! accesses, invocations, `new`, constant loads); the `BootstrapMethods` of `invokedynamic`.

use super::pool::{tag_name, Constant, MemberRef, Pool, PoolEntry};
use super::reader::{Malformed, Parse, Reader};

/// Which field instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldOp {
    /// `getstatic`.
    GetStatic,
    /// `putstatic`.
    PutStatic,
    /// `getfield`.
    GetField,
    /// `putfield`.
    PutField,
}

/// Which invocation instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvokeKind {
    /// `invokestatic`.
    Static,
    /// `invokevirtual`.
    Virtual,
    /// `invokespecial`.
    Special,
    /// `invokeinterface`.
    Interface,
    /// `invokedynamic`.
    Dynamic,
}

/// What an interesting instruction does.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// A field access.
    Field {
        /// Which instruction.
        op: FieldOp,
        /// The field.
        field: MemberRef,
    },
    /// An invocation. For `invokedynamic`, `method.owner` is the class of the bootstrap method
    /// (`java.lang.invoke.LambdaMetafactory`), empty when the file has no usable
    /// `BootstrapMethods` entry, and `name`/`descriptor` are the call site's.
    Invoke {
        /// Which instruction.
        kind: InvokeKind,
        /// The method.
        method: MemberRef,
        /// Whether the reference is an `InterfaceMethodref` (always false for `invokedynamic`).
        interface: bool,
    },
    /// `new`: the class instantiated.
    New {
        /// Dotted binary name.
        class: String,
    },
    /// A constant load.
    Const(Constant),
}

/// One interesting instruction of a method's code.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Its bytecode offset.
    pub offset: u32,
    /// Its position among *all* the method's instructions (0-based): two interesting
    /// instructions are adjacent in the code when their indices differ by one.
    pub index: u32,
    /// What it does.
    pub op: Op,
}

/// A method's `Code` attribute, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Code {
    /// `max_stack`.
    pub max_stack: u16,
    /// `max_locals`.
    pub max_locals: u16,
    /// The length of the bytecode in bytes.
    pub code_length: u32,
    /// How many instructions the bytecode has (interesting or not).
    pub instruction_count: u32,
    /// The interesting instructions, in code order: field accesses, invocations, `new`, and
    /// constant loads.
    pub instructions: Vec<Instruction>,
    /// The method handles of this code's `invokedynamic` call sites (a lambda's body, a method
    /// reference's target), in code order: code that runs when the function the call site makes
    /// is called.
    pub dynamic_targets: Vec<Handle>,
    /// The offsets control can reach other than by falling through: the targets of branches,
    /// `goto`s and switches, and the exception handlers' starts; sorted, each once. A value that
    /// an instruction at such an offset consumes may come from more than one place.
    pub jump_targets: Vec<u32>,
}

/// A bootstrap method of the `BootstrapMethods` attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct BootstrapMethod {
    /// The method handle's reference kind.
    pub kind: u8,
    /// The bootstrap method.
    pub method: MemberRef,
    /// Its static arguments: constant-pool indices.
    pub arguments: Vec<u16>,
    /// The method handles among its arguments (a lambda's implementation method, a method
    /// reference's target), in argument order.
    pub handles: Vec<Handle>,
}

/// A `CONSTANT_MethodHandle`: its reference kind (JVMS 5.4.3.5: 1-4 field access, 5
/// `invokevirtual`, 6 `invokestatic`, 7 `invokespecial`, 8 `newinvokespecial`, 9
/// `invokeinterface`) and the member.
#[derive(Debug, Clone, PartialEq)]
pub struct Handle {
    /// The reference kind.
    pub kind: u8,
    /// The field or method.
    pub member: MemberRef,
}

/// What [`decode`] reads from a method's bytecode (the fields of [`Code`] it makes).
struct Decoded {
    instruction_count: u32,
    instructions: Vec<Instruction>,
    dynamic_targets: Vec<Handle>,
    /// Branch and switch targets (not the exception handlers: they are in the table after).
    jump_targets: Vec<u32>,
}

/// Reads a `Code` attribute, decoding its bytecode.
pub(super) fn parse_code(
    r: &mut Reader<'_>,
    pool: &Pool<'_>,
    bootstraps: &[BootstrapMethod],
) -> Parse<Code> {
    let max_stack = r.u2("max_stack")?;
    let max_locals = r.u2("max_locals")?;
    let code_length = r.u4("the code length")?;
    if code_length == 0 || code_length >= 65536 {
        return r.fail(format!("code length {code_length} (must be 1 to 65535)"));
    }
    let start = r.pos;
    let bytes = r.take(code_length as usize, "the bytecode")?;
    let Decoded {
        instruction_count,
        instructions,
        dynamic_targets,
        mut jump_targets,
    } = decode(bytes, start, pool, bootstraps)?;
    let handlers = r.u2("the exception table length")?;
    let table = r.take(handlers as usize * 8, "the exception table")?;
    // start_pc, end_pc, handler_pc, catch_type: u2 each.
    jump_targets.extend(
        table
            .chunks_exact(8)
            .map(|e| u32::from(u16::from_be_bytes([e[4], e[5]]))),
    );
    jump_targets.sort_unstable();
    jump_targets.dedup();
    let attributes = r.u2("the code's attribute count")?;
    for _ in 0..attributes {
        r.u2("an attribute name")?;
        let length = r.u4("an attribute length")? as usize;
        r.take(length, "a code attribute")?;
    }
    Ok(Code {
        max_stack,
        max_locals,
        code_length,
        instruction_count,
        instructions,
        dynamic_targets,
        jump_targets,
    })
}

/// The number of operand bytes after an opcode with a fixed length; `None` for the switches and
/// `wide` (variable), and for opcodes that do not exist.
pub fn operand_length(opcode: u8) -> Option<usize> {
    Some(match opcode {
        0x00..=0x0f => 0, // nop, aconst_null, iconst_*, lconst_*, fconst_*, dconst_*
        0x10 => 1,        // bipush
        0x11 => 2,        // sipush
        0x12 => 1,        // ldc
        0x13 | 0x14 => 2, // ldc_w, ldc2_w
        0x15..=0x19 => 1, // iload .. aload
        0x1a..=0x35 => 0, // iload_0 .. saload
        0x36..=0x3a => 1, // istore .. astore
        0x3b..=0x83 => 0, // istore_0 .. lxor
        0x84 => 2,        // iinc
        0x85..=0x98 => 0, // conversions, comparisons
        0x99..=0xa8 => 2, // if*, goto, jsr
        0xa9 => 1,        // ret
        0xac..=0xb1 => 0, // returns
        0xb2..=0xb8 => 2, // field access, invokevirtual/special/static
        0xb9 | 0xba => 4, // invokeinterface, invokedynamic
        0xbb => 2,        // new
        0xbc => 1,        // newarray
        0xbd => 2,        // anewarray
        0xbe | 0xbf => 0, // arraylength, athrow
        0xc0 | 0xc1 => 2, // checkcast, instanceof
        0xc2 | 0xc3 => 0, // monitorenter, monitorexit
        0xc5 => 3,        // multianewarray
        0xc6 | 0xc7 => 2, // ifnull, ifnonnull
        0xc8 | 0xc9 => 4, // goto_w, jsr_w
        _ => return None,
    })
}

/// Decodes every instruction of `code` (`start` is its offset in the file, for messages);
/// returns how many there are, the interesting ones, the method handles of its `invokedynamic`
/// call sites, and the targets of its branches and switches.
fn decode(
    code: &[u8],
    start: usize,
    pool: &Pool<'_>,
    bootstraps: &[BootstrapMethod],
) -> Parse<Decoded> {
    let mut out = Vec::new();
    let mut dynamic_targets = Vec::new();
    let mut jumps: Vec<u32> = Vec::new();
    let mut pc = 0usize;
    let mut index = 0u32;
    let operand = |pc: usize, from: usize, n: usize| -> Parse<&[u8]> {
        code.get(pc + from..pc + from + n).ok_or_else(|| {
            Malformed(
                format!("the instruction at offset {pc} runs past the end of the code"),
                start + pc,
            )
        })
    };
    let u2_at = |pc: usize, from: usize| -> Parse<u16> {
        let b = operand(pc, from, 2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    };
    let i4_at = |pc: usize, from: usize| -> Parse<i32> {
        let b = operand(pc, from, 4)?;
        Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    while pc < code.len() {
        let opcode = code[pc];
        let at = start + pc;
        let length = match opcode {
            0xaa | 0xab => {
                // Operands start at the next multiple of 4 from the start of the code.
                let pad = (4 - (pc + 1) % 4) % 4;
                let base = 1 + pad;
                let fixed = if opcode == 0xaa {
                    let low = i64::from(i4_at(pc, base + 4)?);
                    let high = i64::from(i4_at(pc, base + 8)?);
                    if low > high {
                        return Err(Malformed(
                            format!("tableswitch at offset {pc} has low {low} > high {high}"),
                            at,
                        ));
                    }
                    12 + (high - low + 1) as usize * 4
                } else {
                    let pairs = i4_at(pc, base + 4)?;
                    if pairs < 0 {
                        return Err(Malformed(
                            format!("lookupswitch at offset {pc} has {pairs} pairs"),
                            at,
                        ));
                    }
                    8 + pairs as usize * 8
                };
                operand(pc, base, fixed)?;
                base + fixed
            }
            0xc4 => {
                let modified = *operand(pc, 1, 1)?.first().unwrap_or(&0);
                match modified {
                    0x84 => 6,                             // wide iinc: index u2, const s2
                    0x15..=0x19 | 0x36..=0x3a | 0xa9 => 4, // wide load/store/ret: index u2
                    _ => {
                        return Err(Malformed(
                            format!("wide at offset {pc} modifies opcode {modified:#04x}"),
                            at,
                        ))
                    }
                }
            }
            _ => match operand_length(opcode) {
                Some(n) => 1 + n,
                None => {
                    return Err(Malformed(
                        format!("unknown opcode {opcode:#04x} at offset {pc}"),
                        at,
                    ))
                }
            },
        };
        operand(pc, 0, length)?;
        let mut jump = |delta: i64| {
            if let Ok(target) = u32::try_from(pc as i64 + delta) {
                jumps.push(target);
            }
        };
        match opcode {
            // if<cond>, if_icmp<cond>, if_acmp<cond>, goto, jsr, ifnull, ifnonnull
            0x99..=0xa8 | 0xc6 | 0xc7 => jump(i64::from(u2_at(pc, 1)? as i16)),
            0xc8 | 0xc9 => jump(i64::from(i4_at(pc, 1)?)),
            0xaa | 0xab => {
                let base = 1 + (4 - (pc + 1) % 4) % 4;
                jump(i64::from(i4_at(pc, base)?));
                if opcode == 0xaa {
                    let low = i4_at(pc, base + 4)?;
                    let high = i4_at(pc, base + 8)?;
                    for k in 0..(i64::from(high) - i64::from(low) + 1) as usize {
                        jump(i64::from(i4_at(pc, base + 12 + 4 * k)?));
                    }
                } else {
                    for k in 0..i4_at(pc, base + 4)? as usize {
                        jump(i64::from(i4_at(pc, base + 12 + 8 * k)?));
                    }
                }
            }
            _ => {}
        }
        let op = match opcode {
            0x01 => Some(Op::Const(Constant::Null)),
            0x02..=0x08 => Some(Op::Const(Constant::Int(i32::from(opcode) - 3))),
            0x09 | 0x0a => Some(Op::Const(Constant::Long(i64::from(opcode - 0x09)))),
            0x0b..=0x0d => Some(Op::Const(Constant::Float(f32::from(opcode - 0x0b)))),
            0x0e | 0x0f => Some(Op::Const(Constant::Double(f64::from(opcode - 0x0e)))),
            0x10 => Some(Op::Const(Constant::Int(i32::from(code[pc + 1] as i8)))),
            0x11 => Some(Op::Const(Constant::Int(i32::from(u2_at(pc, 1)? as i16)))),
            0x12..=0x14 => {
                let index = if opcode == 0x12 {
                    u16::from(code[pc + 1])
                } else {
                    u2_at(pc, 1)?
                };
                let constant = pool.constant(index, at)?;
                let wide = matches!(constant, Constant::Long(_) | Constant::Double(_))
                    || matches!(&constant, Constant::Dynamic { descriptor, .. } if descriptor == "J" || descriptor == "D");
                if wide != (opcode == 0x14) {
                    return Err(Malformed(
                        format!(
                            "{} at offset {pc} loads constant {index} of the wrong size",
                            if opcode == 0x14 { "ldc2_w" } else { "ldc" }
                        ),
                        at,
                    ));
                }
                Some(Op::Const(constant))
            }
            0xb2..=0xb5 => {
                let field = pool.member(u2_at(pc, 1)?, at, &[9])?.0;
                let op = match opcode {
                    0xb2 => FieldOp::GetStatic,
                    0xb3 => FieldOp::PutStatic,
                    0xb4 => FieldOp::GetField,
                    _ => FieldOp::PutField,
                };
                Some(Op::Field { op, field })
            }
            0xb6..=0xb9 => {
                let (kind, allowed): (InvokeKind, &[u8]) = match opcode {
                    0xb6 => (InvokeKind::Virtual, &[10]),
                    0xb7 => (InvokeKind::Special, &[10, 11]),
                    0xb8 => (InvokeKind::Static, &[10, 11]),
                    _ => (InvokeKind::Interface, &[11]),
                };
                let (method, interface) = pool.member(u2_at(pc, 1)?, at, allowed)?;
                Some(Op::Invoke {
                    kind,
                    method,
                    interface,
                })
            }
            0xba => {
                let index = u2_at(pc, 1)?;
                let (bootstrap, name_and_type) = match pool.get(index, at)? {
                    PoolEntry::InvokeDynamic {
                        bootstrap,
                        name_and_type,
                    } => (*bootstrap, *name_and_type),
                    other => {
                        return Err(Malformed(
                            format!(
                                "invokedynamic at offset {pc} refers to a {}",
                                tag_name(other)
                            ),
                            at,
                        ))
                    }
                };
                let (name, descriptor) = pool.name_and_type(name_and_type, at)?;
                let owner = bootstraps
                    .get(bootstrap as usize)
                    .map(|b| b.method.owner.clone())
                    .unwrap_or_default();
                if let Some(b) = bootstraps.get(bootstrap as usize) {
                    dynamic_targets.extend(b.handles.iter().cloned());
                }
                Some(Op::Invoke {
                    kind: InvokeKind::Dynamic,
                    method: MemberRef {
                        owner,
                        name,
                        descriptor,
                    },
                    interface: false,
                })
            }
            0xbb => Some(Op::New {
                class: pool.class(u2_at(pc, 1)?, at)?,
            }),
            0xbd | 0xc0 | 0xc1 | 0xc5 => {
                // anewarray, checkcast, instanceof, multianewarray: a class, checked only.
                pool.class(u2_at(pc, 1)?, at)?;
                None
            }
            _ => None,
        };
        if let Some(op) = op {
            out.push(Instruction {
                offset: pc as u32,
                index,
                op,
            });
        }
        pc += length;
        index += 1;
    }
    Ok(Decoded {
        instruction_count: index,
        instructions: out,
        dynamic_targets,
        jump_targets: jumps,
    })
}
