//! Checksums over the committed fixtures (`tests/fixtures/incremental/checksum`, javac 17 `-g`).

use std::path::{Path, PathBuf};

use super::*;

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/incremental")
        .join(path)
}

fn calc(version: &str) -> (Vec<u8>, String) {
    let path = fixture(&format!("checksum/{version}/com/acme/sum/Calc.class"));
    let bytes = std::fs::read(&path).unwrap();
    let sum = class_checksum(&bytes, &path).unwrap();
    (bytes, sum)
}

#[test]
fn stable_across_line_numbers_blank_lines_and_local_names() {
    let (a_bytes, a) = calc("a");
    let (b_bytes, b) = calc("b");
    // The two compiles really differ: in their bytes, their debug tables, and the layout of
    // their constant pools (b has fewer entries, so later indices moved).
    assert_ne!(a_bytes, b_bytes);
    let pa = ClassFile::parse(&a_bytes, Path::new("a")).unwrap().pool;
    let pb = ClassFile::parse(&b_bytes, Path::new("b")).unwrap().pool;
    assert!(pa.len() > pb.len(), "{} vs {}", pa.len(), pb.len());
    assert_eq!(a.len(), 64);
    assert!(a
        .bytes()
        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert_eq!(a, b);
}

#[test]
fn a_real_change_changes_the_checksum() {
    let (_, a) = calc("a");
    let (_, c) = calc("c");
    assert_ne!(a, c);
}

#[test]
fn checksum_is_deterministic_and_differs_between_classes() {
    let (_, a) = calc("a");
    assert_eq!(a, calc("a").1);
    let other = fixture("module/main/com/acme/Report.class");
    let bytes = std::fs::read(&other).unwrap();
    assert_ne!(class_checksum(&bytes, &other).unwrap(), a);
}

#[test]
fn every_fixture_class_checksums() {
    // Annotations of every kind, type annotations, records, sealed classes, enums, lambdas.
    for dir in ["refs/classes", "module/main", "module/test"] {
        for file in crate::jvm::classfile::class_files_under(&fixture(dir)).unwrap() {
            let bytes = std::fs::read(&file).unwrap();
            class_checksum(&bytes, &file).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn a_flipped_code_byte_changes_the_checksum() {
    let (bytes, a) = calc("a");
    // `iconst_2` (0x05) of `value * 2` becomes `iconst_3` (0x06): a one-byte change in the code.
    let class = ClassFile::parse(&bytes, Path::new("a")).unwrap();
    assert!(class.method("add", "(I)V").is_some());
    let (_, c) = calc("c");
    let position = bytes
        .windows(3)
        .position(|w| w == [0x1b, 0x05, 0x68]) // iload_1, iconst_2, imul
        .expect("value * 2 in the code");
    let mut changed = bytes.clone();
    changed[position + 1] = 0x06;
    let sum = class_checksum(&changed, Path::new("x")).unwrap();
    assert_ne!(sum, a);
    assert_eq!(sum, c, "the same change as the recompiled c/");
}

#[test]
fn malformed_bytes_are_an_error_not_a_panic() {
    let (bytes, _) = calc("a");
    let err = class_checksum(&bytes[..bytes.len() / 2], Path::new("half.class")).unwrap_err();
    assert_eq!(err.code(), "bad-class-file");
    assert!(err.to_string().contains("half.class"), "{err}");
}

#[test]
fn a_file_that_is_no_zip_is_checksummed_by_its_bytes() {
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    let dir = std::env::temp_dir().join(format!("odrust-checksum-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jar = dir.join("x.jar");
    std::fs::write(&jar, b"abc").unwrap();
    assert_eq!(jar_checksum(&jar).unwrap(), sha256_hex(b"abc"));
    let err = jar_checksum(&dir.join("missing.jar")).unwrap_err();
    assert_eq!(err.code(), "io");
    assert!(err.to_string().contains("missing.jar"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A zip's central directory and end record (what `jar_checksum` reads): entries of
/// (name, CRC-32, size, modification time), in this order.
fn zip(entries: &[(&str, u32, u32, u16)]) -> Vec<u8> {
    let mut central = Vec::new();
    for (name, crc, size, time) in entries {
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&[20, 0, 20, 0, 0, 0, 8, 0]); // made by, needed, flags, deflate
        central.extend_from_slice(&time.to_le_bytes());
        central.extend_from_slice(&0x5b21u16.to_le_bytes()); // date
        central.extend_from_slice(&crc.to_le_bytes());
        central.extend_from_slice(&(size / 2).to_le_bytes()); // compressed size
        central.extend_from_slice(&size.to_le_bytes());
        central.extend_from_slice(&(name.len() as u16).to_le_bytes());
        central.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        central.extend_from_slice(name.as_bytes());
    }
    let mut out = b"PK-local-headers-not-read".to_vec();
    let offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&offset.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

#[test]
fn a_rebuilt_jar_with_the_same_entries_has_the_same_checksum() {
    let dir = std::env::temp_dir().join(format!("odrust-jar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sum = |bytes: Vec<u8>| {
        let jar = dir.join("kit.jar");
        std::fs::write(&jar, bytes).unwrap();
        jar_checksum(&jar).unwrap()
    };
    let built = sum(zip(&[
        ("META-INF/", 0, 0, 1),
        ("META-INF/MANIFEST.MF", 0x1111, 80, 1),
        ("com/acme/Kit.class", 0xabcd_0001, 900, 1),
        ("com/acme/kit.properties", 0x2222, 12, 1),
        ("META-INF/maven/com.acme/kit/pom.properties", 0x3333, 60, 1),
        ("META-INF/INDEX.LIST", 0x6666, 40, 1),
        ("META-INF/LICENSE", 0x7777, 11000, 1),
        ("META-INF/NOTICE.txt", 0x8888, 170, 1),
        ("META-INF/DEPENDENCIES", 0x9999, 4000, 1),
    ]));
    // rebuilt: other times, another entry order, another manifest and pom.properties, another
    // package index and other legal files (the project's root LICENSE changed)
    let rebuilt = sum(zip(&[
        ("com/acme/kit.properties", 0x2222, 12, 9),
        ("com/acme/Kit.class", 0xabcd_0001, 900, 9),
        ("META-INF/MANIFEST.MF", 0x4444, 81, 9),
        ("META-INF/maven/com.acme/kit/pom.properties", 0x5555, 61, 9),
        ("META-INF/INDEX.LIST", 0x6667, 52, 9),
        ("META-INF/LICENSE", 0x7778, 11060, 9),
        ("META-INF/NOTICE.txt", 0x8889, 171, 9),
        ("META-INF/DEPENDENCIES", 0x999a, 4010, 9),
    ]));
    assert_eq!(built, rebuilt);
    assert_ne!(
        built,
        sha256_hex(&zip(&[("com/acme/Kit.class", 0xabcd_0001, 900, 1)]))
    );
    // a class that changed, a resource that changed, an entry more: another checksum
    let class_changed = sum(zip(&[
        ("com/acme/Kit.class", 0xabcd_0002, 900, 1),
        ("com/acme/kit.properties", 0x2222, 12, 1),
    ]));
    let resource_changed = sum(zip(&[
        ("com/acme/Kit.class", 0xabcd_0001, 900, 1),
        ("com/acme/kit.properties", 0x2222, 13, 1),
    ]));
    let more = sum(zip(&[
        ("com/acme/Kit.class", 0xabcd_0001, 900, 1),
        ("com/acme/kit.properties", 0x2222, 12, 1),
        ("com/acme/Extra.class", 0x7777, 300, 1),
    ]));
    for other in [&class_changed, &resource_changed, &more] {
        assert_ne!(&built, other);
    }
    // a zip whose central directory is cut off falls back to the bytes
    let mut cut = zip(&[("com/acme/Kit.class", 0xabcd_0001, 900, 1)]);
    let n = cut.len();
    cut[n - 6..n - 2].copy_from_slice(&9999u32.to_le_bytes()); // the directory's offset: nowhere
    let bytes = cut.clone();
    assert_eq!(sum(cut), sha256_hex(&bytes));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A whole zip (local headers, data, central directory, end record) of `(name, bytes, deflate)`;
/// selection's tests build their jars with it too.
pub(crate) fn full_zip(entries: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, bytes, deflate) in entries {
        let data = if *deflate {
            miniz_oxide::deflate::compress_to_vec(bytes, 6)
        } else {
            bytes.to_vec()
        };
        let method: u16 = if *deflate { 8 } else { 0 };
        let offset = out.len() as u32;
        let sizes = |v: &mut Vec<u8>| {
            v.extend_from_slice(&0u32.to_le_bytes()); // CRC-32: not read
            v.extend_from_slice(&(data.len() as u32).to_le_bytes());
            v.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            v.extend_from_slice(&(name.len() as u16).to_le_bytes());
        };
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&[20, 0, 0, 0]);
        out.extend_from_slice(&method.to_le_bytes());
        out.extend_from_slice(&[0, 0, 0, 0]); // time, date
        sizes(&mut out);
        out.extend_from_slice(&[3, 0]); // an extra field of 3 bytes, skipped
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&[0xca, 0xfe, 0x00]);
        out.extend_from_slice(&data);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&[20, 0, 20, 0, 0, 0]);
        central.extend_from_slice(&method.to_le_bytes());
        central.extend_from_slice(&[0, 0, 0, 0]);
        sizes(&mut central);
        central.extend_from_slice(&[0; 12]); // extra, comment, disk, attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let at = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&at.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

#[test]
fn jar_classes_reads_stored_and_deflated_class_entries_only() {
    let dir = std::env::temp_dir().join(format!("odrust-jar-classes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, a_sum) = calc("a");
    let (c, _) = calc("c");
    let jar = dir.join("kit.jar");
    std::fs::write(
        &jar,
        full_zip(&[
            ("com/acme/sum/Calc.class", &a, true),
            ("com/acme/Other.class", &c, false),
            ("META-INF/versions/11/com/acme/sum/Calc.class", &c, true),
            ("module-info.class", &c, false),
            ("com/acme/kit.properties", b"x=1", true),
        ]),
    )
    .unwrap();
    let classes = jar_classes(&jar).unwrap().expect("a zip this reads");
    let names: Vec<&str> = classes.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["com/acme/sum/Calc.class", "com/acme/Other.class"]);
    assert_eq!(classes[0].1, a, "deflated entry inflated");
    assert_eq!(classes[1].1, c, "stored entry as is");
    assert_eq!(class_checksum(&classes[0].1, &jar).unwrap(), a_sum);
    // a truncated entry: its classes are unknown, not guessed
    let mut cut = full_zip(&[("com/acme/sum/Calc.class", &a, true)]);
    let data_at = 30 + 3 + "com/acme/sum/Calc.class".len() + 5;
    cut.drain(data_at..data_at + 20);
    std::fs::write(&jar, &cut).unwrap();
    assert!(jar_classes(&jar).unwrap().is_none());
    std::fs::write(&jar, b"not a zip").unwrap();
    assert!(jar_classes(&jar).unwrap().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}
