//! The engine's integration tests: one test binary, a module per capability (ripgrep's layout;
//! `autotests = false` in Cargo.toml keeps these files from becoming binaries of their own).
//! Tests of one module's internals live beside their code instead.

mod cli;
mod detect;
mod detect_failing;
mod detect_rare;
mod explain;
mod explain_shared;
mod layout;
mod orders;
mod protocol;
mod schedule;
mod support;
