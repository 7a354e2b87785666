//! The class-file reader over the committed fixtures (`tests/fixtures/reset/`, javac 17), a
//! hand-assembled Java 25 class with every constant-pool tag, and malformed bytes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::super::pool::tag_name;
use super::*;

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reset")
        .join(path)
}

fn read(path: &str) -> ClassFile {
    ClassFile::read(&fixture(path)).unwrap()
}

fn ops(method: &Method) -> Vec<&Op> {
    method
        .code
        .as_ref()
        .unwrap()
        .instructions
        .iter()
        .map(|i| &i.op)
        .collect()
}

fn member(owner: &str, name: &str, descriptor: &str) -> MemberRef {
    MemberRef {
        owner: owner.into(),
        name: name.into(),
        descriptor: descriptor.into(),
    }
}

#[test]
fn every_fixture_parses() {
    let mut count = 0;
    for dir in ["main", "test", "modinfo"] {
        for path in class_files_under(&fixture(dir)).unwrap() {
            ClassFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
            count += 1;
        }
    }
    assert_eq!(count, 22);
}

#[test]
fn members_names_and_field_accesses() {
    let prices = read("main/com/acme/Prices.class");
    assert_eq!((prices.major_version, prices.minor_version), (61, 0));
    assert_eq!(prices.name, "com.acme.Prices");
    assert_eq!(prices.super_class.as_deref(), Some("java.lang.Object"));
    assert!(prices.access.is_public() && !prices.access.is_interface());
    assert_eq!(prices.source_file.as_deref(), Some("Prices.java"));
    let rates = prices.field("RATES").unwrap();
    assert_eq!(rates.descriptor, "Ljava/util/Map;");
    assert!(rates.access.is_private() && rates.access.is_static());
    assert_eq!(
        rates.signature.as_deref(),
        Some("Ljava/util/Map<Ljava/lang/String;Ljava/lang/Double;>;")
    );
    let reset = prices.method("reset", "()V").unwrap();
    assert!(reset.access.is_public() && reset.access.is_static());
    let rates_ref = member("com.acme.Prices", "RATES", "Ljava/util/Map;");
    assert_eq!(
        ops(reset),
        [
            &Op::Invoke {
                kind: InvokeKind::Static,
                method: member("com.acme.Prices", "defaults", "()Ljava/util/Map;"),
                interface: false
            },
            &Op::Field {
                op: FieldOp::PutStatic,
                field: rates_ref.clone()
            },
        ]
    );
    let put = prices.method("put", "(Ljava/lang/String;D)V").unwrap();
    assert!(ops(put).contains(&&Op::Invoke {
        kind: InvokeKind::Interface,
        method: member(
            "java.util.Map",
            "put",
            "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"
        ),
        interface: true
    }));
    let clinit = prices.method("<clinit>", "()V").unwrap();
    assert_eq!(clinit.code.as_ref().unwrap().instructions[1].offset, 3);

    let cache = read("main/com/acme/Cache.class");
    assert_eq!(
        cache.field("hits").unwrap().descriptor,
        "I",
        "a non-final static: no ConstantValue"
    );
    let counter = cache
        .inner_classes
        .iter()
        .find(|i| i.inner == "com.acme.Cache$Counter")
        .unwrap();
    assert_eq!(counter.outer.as_deref(), Some("com.acme.Cache"));
    assert_eq!(counter.simple_name.as_deref(), Some("Counter"));
    assert!(counter.access.is_public() && counter.access.is_static());
    assert!(read("main/com/acme/Cache$1.class").is_local_or_anonymous());
    assert!(!read("main/com/acme/Cache$Hidden.class").is_local_or_anonymous());

    let test = read("test/com/acme/PricesTest.class");
    assert_eq!(
        test.method("setUp", "()V").unwrap().annotations,
        ["org.junit.Before"]
    );
}

#[test]
fn invokedynamic_switches_and_constants() {
    let switchy = read("main/com/acme/Switchy.class");
    for m in &switchy.methods {
        let code = m.code.as_ref().unwrap();
        let offsets: Vec<u32> = code.instructions.iter().map(|i| i.offset).collect();
        assert!(offsets.windows(2).all(|w| w[0] < w[1]), "{}", m.name);
        assert!(offsets.iter().all(|o| *o < code.code_length));
    }
    // javac 17: tableswitch, lookupswitch at several paddings, string switch on hashCode().
    let strings = switchy.method("strings", "(Ljava/lang/String;)I").unwrap();
    assert!(ops(strings).contains(&&Op::Const(Constant::String("alpha".into()))));
    assert!(ops(strings).contains(&&Op::Invoke {
        kind: InvokeKind::Virtual,
        method: member("java.lang.String", "hashCode", "()I"),
        interface: false
    }));
    let concat = switchy
        .method("concat", "(Ljava/lang/String;I)Ljava/lang/String;")
        .unwrap();
    let dynamic: Vec<&MemberRef> = ops(concat)
        .into_iter()
        .filter_map(|op| match op {
            Op::Invoke {
                kind: InvokeKind::Dynamic,
                method,
                ..
            } => Some(method),
            _ => None,
        })
        .collect();
    assert_eq!(dynamic[0].owner, "java.lang.invoke.LambdaMetafactory");
    assert_eq!(dynamic[0].name, "get");
    assert_eq!(dynamic[1].owner, "java.lang.invoke.StringConcatFactory");
    assert!(ops(concat).contains(&&Op::New {
        class: "com.acme.Switchy$Point".into()
    }));
    let clinit = switchy.method("<clinit>", "()V").unwrap();
    let constants: Vec<&Op> = ops(clinit)
        .into_iter()
        .filter(|op| matches!(op, Op::Const(_)))
        .collect();
    assert!(constants.contains(&&Op::Const(Constant::Long(123_456_789_012))));
    assert!(constants.contains(&&Op::Const(Constant::Double(2.5))));
    assert!(constants.contains(&&Op::Const(Constant::Float(1.5))));
    assert!(constants.contains(&&Op::Const(Constant::Class("[Ljava.lang.String;".into()))));
    let padded = switchy.method("padded", "(B)[Ljava/lang/Object;").unwrap();
    let consts: Vec<&Op> = ops(padded)
        .into_iter()
        .filter(|op| matches!(op, Op::Const(_)))
        .collect();
    for c in [
        Constant::Int(300),
        Constant::Int(120),
        Constant::Long(1),
        Constant::Double(2.0),
        Constant::Float(0.0),
    ] {
        assert!(
            consts.contains(&&Op::Const(c.clone())),
            "{c:?} in {consts:?}"
        );
    }
    let point = read("main/com/acme/Switchy$Point.class");
    assert_eq!(
        point.bootstrap_methods[0].method.owner,
        "java.lang.runtime.ObjectMethods"
    );
    assert!(point
        .pool
        .iter()
        .any(|e| matches!(e, PoolEntry::MethodHandle { kind: 1, .. })));
}

#[test]
fn wide_instructions_and_ldc_w() {
    let wide = read("main/com/acme/Wide.class");
    let many = wide.method("many", "()I").unwrap();
    let code = many.code.as_ref().unwrap();
    assert_eq!(code.max_locals, 300);
    let ints: Vec<i32> = code
        .instructions
        .iter()
        .filter_map(|i| match i.op {
            Op::Const(Constant::Int(v)) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(ints.len(), 300);
    assert_eq!(ints[299], 100_299);
    // 300 constant loads, 300 stores, wide iinc, 3 loads, 2 adds, ireturn.
    assert_eq!(code.instruction_count, 300 + 300 + 1 + 3 + 2 + 1);
    assert_eq!(
        ops(wide.method("label", "()Ljava/lang/String;").unwrap()),
        [&Op::Const(Constant::String("after-many-constants".into()))]
    );
}

#[test]
fn module_info_has_module_and_package_entries() {
    let module = read("modinfo/module-info.class");
    assert_eq!(module.name, "module-info");
    assert_eq!(module.super_class, None);
    assert!(module
        .pool
        .iter()
        .any(|e| matches!(e, PoolEntry::Module(_))));
    assert!(module
        .pool
        .iter()
        .any(|e| matches!(e, PoolEntry::Package(_))));
}

#[test]
fn referenced_types_from_pool_and_descriptors() {
    let registry = read("main/com/acme/JobRegistry.class");
    let types = registry.referenced_types();
    for t in [
        "java.util.Map",
        "java.util.HashMap",
        "java.lang.Runnable",
        "java.lang.String",
        "java.lang.Object",
    ] {
        assert!(types.contains(t), "{t} in {types:?}");
    }
    assert!(!types.contains("com.acme.JobRegistry"));
    let switchy = read("main/com/acme/Switchy.class").referenced_types();
    assert!(switchy.contains("java.lang.invoke.LambdaMetafactory"));
    assert!(switchy.contains("java.util.function.Supplier"));
    assert!(switchy.contains("com.acme.Switchy$Point"));
    let test = read("test/com/acme/PricesTest.class").referenced_types();
    assert!(test.contains("org.junit.Before"));
}

/// A class file assembled by hand.
#[derive(Default)]
struct Builder {
    pool: Vec<u8>,
    count: u16,
}

impl Builder {
    fn entry(&mut self, bytes: &[u8], slots: u16) -> u16 {
        self.pool.extend_from_slice(bytes);
        self.count += slots;
        self.count - slots + 1
    }
    fn utf8(&mut self, s: &str) -> u16 {
        self.utf8_raw(s.as_bytes())
    }
    fn utf8_raw(&mut self, bytes: &[u8]) -> u16 {
        let mut b = vec![1];
        b.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
        b.extend_from_slice(bytes);
        self.entry(&b, 1)
    }
    fn two(&mut self, tag: u8, a: u16, b: u16) -> u16 {
        let mut v = vec![tag];
        v.extend_from_slice(&a.to_be_bytes());
        v.extend_from_slice(&b.to_be_bytes());
        self.entry(&v, 1)
    }
    fn one(&mut self, tag: u8, a: u16) -> u16 {
        let mut v = vec![tag];
        v.extend_from_slice(&a.to_be_bytes());
        self.entry(&v, 1)
    }
    fn class(&mut self, name: &str) -> u16 {
        let n = self.utf8(name);
        self.one(7, n)
    }
    fn nat(&mut self, name: &str, descriptor: &str) -> u16 {
        let (n, d) = (self.utf8(name), self.utf8(descriptor));
        self.two(12, n, d)
    }
}

fn u2(v: u16) -> [u8; 2] {
    v.to_be_bytes()
}

/// A Java 25 class `p/Every` with every constant-pool tag and a static method `m()V` whose
/// code has switches at every padding, `wide`, `ldc` of a dynamic constant and `invokedynamic`.
/// Returns the bytes and the expected interesting instructions' offsets.
fn every_tag_class() -> (Vec<u8>, Vec<u32>) {
    let mut b = Builder::default();
    let this = b.class("p/Every");
    let object = b.class("java/lang/Object");
    let bsm_class = b.class("p/Boot");
    let bsm_nat = b.nat("bsm", "()V");
    let bsm_ref = b.two(10, bsm_class, bsm_nat);
    let handle = b.entry(&[15, 6, (bsm_ref >> 8) as u8, bsm_ref as u8], 1);
    let method_type = {
        let d = b.utf8("(I)V");
        b.one(16, d)
    };
    let dyn_nat = b.nat("answer", "I");
    let condy = b.two(17, 0, dyn_nat);
    let indy_nat = b.nat("run", "()Ljava/lang/Runnable;");
    let indy = b.two(18, 0, indy_nat);
    let module = {
        let n = b.utf8("a.mod");
        b.one(19, n)
    };
    let package = {
        let n = b.utf8("p");
        b.one(20, n)
    };
    let long = b.entry(&[5, 0, 0, 0, 1, 0, 0, 0, 2], 2);
    let double = b.entry(&[6, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18], 2);
    let float = b.entry(&[4, 0x3f, 0xc0, 0, 0], 1);
    let text = {
        // "hé\0😀" in modified UTF-8: a two-byte NUL and a surrogate pair.
        let s = b.utf8_raw(&[
            b'h', 0xC3, 0xA9, 0xC0, 0x80, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80,
        ]);
        b.one(8, s)
    };
    let integer = b.entry(&[3, 0xff, 0xff, 0xff, 0xfe], 1);
    let field_nat = b.nat("f", "I");
    let fieldref = b.two(9, this, field_nat);
    let iface = b.two(11, bsm_class, bsm_nat);
    let _ = (module, package, integer, fieldref, iface);
    let m_name = b.utf8("m");
    let m_desc = b.utf8("()V");
    let code_name = b.utf8("Code");
    let bootstrap_name = b.utf8("BootstrapMethods");

    let mut code: Vec<u8> = Vec::new();
    let mut expected = Vec::new();
    for _ in 0..4 {
        // A tableswitch and a lookupswitch at each of the four paddings.
        code.push(0x03); // iconst_0
        expected.push(code.len() as u32 - 1);
        code.push(0xaa);
        while !code.len().is_multiple_of(4) {
            code.push(0);
        }
        for v in [0i32, 1, 2, 0, 0] {
            code.extend_from_slice(&v.to_be_bytes()); // default, low 1, high 2, 2 offsets
        }
        code.push(0x03);
        expected.push(code.len() as u32 - 1);
        code.push(0xab);
        while !code.len().is_multiple_of(4) {
            code.push(0);
        }
        for v in [0i32, 2, -5, 0, 7, 0] {
            code.extend_from_slice(&v.to_be_bytes()); // default, npairs, 2 pairs
        }
        code.push(0x00); // nop: shifts the next round's padding
    }
    code.extend_from_slice(&[0xc4, 0x84, 0x01, 0x00, 0x03, 0xe8]); // wide iinc 256, 1000
    code.extend_from_slice(&[0xc4, 0x15, 0x01, 0x00]); // wide iload 256
    for (op, index) in [
        (0x12u8, condy),
        (0x13, float),
        (0x14, long),
        (0x14, double),
        (0x13, text),
        (0x13, method_type),
        (0x13, handle),
        (0x13, this),
    ] {
        expected.push(code.len() as u32);
        if op == 0x12 {
            code.extend_from_slice(&[op, index as u8]);
        } else {
            code.push(op);
            code.extend_from_slice(&u2(index));
        }
    }
    expected.push(code.len() as u32);
    code.extend_from_slice(&[0xba, (indy >> 8) as u8, indy as u8, 0, 0]);
    for op in [0x01u8, 0x02, 0x0a, 0x0d, 0x0f] {
        expected.push(code.len() as u32);
        code.push(op);
    }
    expected.push(code.len() as u32);
    code.extend_from_slice(&[0x11, 0xff, 0xfe]); // sipush -2
    expected.push(code.len() as u32);
    code.extend_from_slice(&[0x10, 0x80]); // bipush -128
    code.push(0xb1);

    let mut out = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 69];
    out.extend_from_slice(&u2(b.count + 1));
    out.extend_from_slice(&b.pool);
    out.extend_from_slice(&u2(0x0021));
    out.extend_from_slice(&u2(this));
    out.extend_from_slice(&u2(object));
    out.extend_from_slice(&u2(0)); // interfaces
    out.extend_from_slice(&u2(0)); // fields
    out.extend_from_slice(&u2(1)); // methods
    out.extend_from_slice(&u2(0x0009));
    out.extend_from_slice(&u2(m_name));
    out.extend_from_slice(&u2(m_desc));
    out.extend_from_slice(&u2(1));
    out.extend_from_slice(&u2(code_name));
    let mut attr = Vec::new();
    attr.extend_from_slice(&u2(8));
    attr.extend_from_slice(&u2(300));
    attr.extend_from_slice(&(code.len() as u32).to_be_bytes());
    attr.extend_from_slice(&code);
    attr.extend_from_slice(&u2(0)); // exception table
    attr.extend_from_slice(&u2(0)); // attributes
    out.extend_from_slice(&(attr.len() as u32).to_be_bytes());
    out.extend_from_slice(&attr);
    out.extend_from_slice(&u2(1)); // class attributes
    out.extend_from_slice(&u2(bootstrap_name));
    out.extend_from_slice(&6u32.to_be_bytes());
    out.extend_from_slice(&u2(1));
    out.extend_from_slice(&u2(handle));
    out.extend_from_slice(&u2(0));
    (out, expected)
}

#[test]
fn a_java_25_class_with_every_tag() {
    let (bytes, expected) = every_tag_class();
    let class = ClassFile::parse(&bytes, Path::new("Every.class")).unwrap();
    assert_eq!(class.major_version, 69);
    let tags: BTreeSet<&str> = class.pool.iter().map(tag_name).collect();
    assert_eq!(tags.len(), 18, "{tags:?}");
    let m = class.method("m", "()V").unwrap();
    let code = m.code.as_ref().unwrap();
    let offsets: Vec<u32> = code.instructions.iter().map(|i| i.offset).collect();
    assert_eq!(offsets, expected);
    let consts: Vec<&Op> = ops(m);
    assert_eq!(
        consts[8],
        &Op::Const(Constant::Dynamic {
            name: "answer".into(),
            descriptor: "I".into()
        })
    );
    assert_eq!(consts[9], &Op::Const(Constant::Float(1.5)));
    assert_eq!(consts[10], &Op::Const(Constant::Long((1 << 32) + 2)));
    assert_eq!(
        consts[11],
        &Op::Const(Constant::Double(std::f64::consts::PI))
    );
    assert_eq!(
        consts[12],
        &Op::Const(Constant::String("h\u{e9}\u{0}\u{1F600}".into()))
    );
    assert_eq!(consts[13], &Op::Const(Constant::MethodType("(I)V".into())));
    assert!(matches!(
        consts[14],
        Op::Const(Constant::MethodHandle { kind: 6, .. })
    ));
    assert_eq!(consts[15], &Op::Const(Constant::Class("p.Every".into())));
    assert_eq!(
        consts[16],
        &Op::Invoke {
            kind: InvokeKind::Dynamic,
            method: member("p.Boot", "run", "()Ljava/lang/Runnable;"),
            interface: false
        }
    );
    assert_eq!(
        consts[17..],
        [
            &Op::Const(Constant::Null),
            &Op::Const(Constant::Int(-1)),
            &Op::Const(Constant::Long(1)),
            &Op::Const(Constant::Float(2.0)),
            &Op::Const(Constant::Double(1.0)),
            &Op::Const(Constant::Int(-2)),
            &Op::Const(Constant::Int(-128)),
        ]
    );
    // 4 rounds of (iconst, tableswitch, iconst, lookupswitch, nop), wide iinc, wide iload,
    // 8 ldc, invokedynamic, 7 constants, return.
    assert_eq!(code.instruction_count, 20 + 2 + 8 + 1 + 7 + 1);

    let mut newer = bytes.clone();
    newer[7] = 70;
    let e = ClassFile::parse(&newer, Path::new("Newer.class")).unwrap_err();
    assert_eq!(e.code(), "bad-class-file");
    assert!(e.to_string().contains("Newer.class"), "{e}");
    assert!(e.to_string().contains("version 70.0"), "{e}");
}

#[test]
fn malformed_files_are_errors_naming_the_file_never_panics() {
    let e = ClassFile::parse(b"PK\x03\x04", Path::new("x/A.class")).unwrap_err();
    assert_eq!(e.code(), "bad-class-file");
    assert!(e.is_user_error());
    assert_eq!(
        e.to_string(),
        "cannot parse class file x/A.class: not a class file: magic number 0x504B0304, \
         expected 0xCAFEBABE (at byte 0)"
    );
    let prices = std::fs::read(fixture("main/com/acme/Prices.class")).unwrap();
    let (every, _) = every_tag_class();
    for bytes in [&prices, &every] {
        for len in 0..bytes.len() {
            let e = ClassFile::parse(&bytes[..len], Path::new("T.class")).unwrap_err();
            assert!(e
                .to_string()
                .starts_with("cannot parse class file T.class: "));
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(ClassFile::parse(&longer, Path::new("T.class")).is_err());
    }
    let mut rng = StdRng::seed_from_u64(25);
    let switchy = std::fs::read(fixture("main/com/acme/Switchy.class")).unwrap();
    for round in 0..3000 {
        // Flipped bytes of real files: parse or fail, but never panic.
        let mut bytes = if round % 2 == 0 {
            switchy.clone()
        } else {
            every.clone()
        };
        for _ in 0..rng.gen_range(1..4) {
            let i = rng.gen_range(0..bytes.len());
            bytes[i] = rng.gen();
        }
        let _ = ClassFile::parse(&bytes, Path::new("F.class"));
        // Random bytes after a valid header.
        let mut random = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61];
        let n = rng.gen_range(0..200);
        random.extend((0..n).map(|_| rng.gen::<u8>()));
        assert!(ClassFile::parse(&random, Path::new("R.class")).is_err());
    }
}

#[test]
fn class_files_are_listed_sorted() {
    let files = class_files_under(&fixture("main")).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|p| {
            p.strip_prefix(fixture("main"))
                .unwrap()
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(names[0], "com/acme/Boot.class");
    assert_eq!(names.last().unwrap(), "com/acme/internal/Settings.class");
    assert_eq!(names.len(), 16);
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}
