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
fn jar_checksum_is_sha256_of_its_bytes() {
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    let dir = std::env::temp_dir().join(format!("odrust-checksum-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jar = dir.join("x.jar");
    std::fs::write(&jar, b"abc").unwrap();
    assert_eq!(file_checksum(&jar).unwrap(), sha256_hex(b"abc"));
    let err = file_checksum(&dir.join("missing.jar")).unwrap_err();
    assert_eq!(err.code(), "io");
    assert!(err.to_string().contains("missing.jar"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
