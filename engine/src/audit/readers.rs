//! Which tests read a static field. Another test class reads `C.f` when a class it reaches in the
//! class-dependency graph of the module's class files has a `getstatic` of `C.f` (a read that names
//! a subclass as the field's owner is not matched). Used to rank latent polluters: a field no other
//! test class reads is a polluter with no victim to come. Inside the polluter's own class, another
//! test reads it when its own method has a `getstatic` of it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::incremental::graph::ClassGraph;
use crate::jvm::bytecode::{FieldOp, Op};
use crate::jvm::classfile::{class_files_under, ClassFile};

/// The class files of some directories, as what each class reads and names.
#[derive(Debug, Default)]
pub struct Readers {
    /// Class → the static fields it reads (`owner.name`).
    reads: BTreeMap<String, BTreeSet<String>>,
    /// `Class#method` → the static fields the method itself reads.
    method_reads: BTreeMap<String, BTreeSet<String>>,
    /// Class → the static fields its per-test setup (`@Before`, `@BeforeEach`, JUnit 3's
    /// `setUp()`) writes.
    setup_writes: BTreeMap<String, BTreeSet<String>>,
    /// Class → the classes of the directories it names.
    edges: BTreeMap<String, BTreeSet<String>>,
}

impl Readers {
    /// Reads every class file under `dirs` (unreadable ones are left out).
    pub fn read(dirs: &[PathBuf]) -> Readers {
        let mut r = Readers::default();
        for dir in dirs {
            if !dir.is_dir() {
                continue;
            }
            let Ok(files) = class_files_under(dir) else {
                continue;
            };
            for file in files {
                let Ok(class) = ClassFile::read(&file) else {
                    continue;
                };
                let reads = r.reads.entry(class.name.clone()).or_default();
                for method in &class.methods {
                    let setup = method.annotations.iter().any(|a| {
                        a == "org.junit.Before" || a == "org.junit.jupiter.api.BeforeEach"
                    }) || (method.name == "setUp" && method.descriptor == "()V");
                    if setup {
                        let writes = r.setup_writes.entry(class.name.clone()).or_default();
                        for ins in method.code.iter().flat_map(|c| c.instructions.iter()) {
                            if let Op::Field {
                                op: FieldOp::PutStatic,
                                field,
                            } = &ins.op
                            {
                                writes.insert(format!("{}.{}", field.owner, field.name));
                            }
                        }
                    }
                    let own = r
                        .method_reads
                        .entry(format!("{}#{}", class.name, method.name))
                        .or_default();
                    for ins in method.code.iter().flat_map(|c| c.instructions.iter()) {
                        if let Op::Field {
                            op: FieldOp::GetStatic,
                            field,
                        } = &ins.op
                        {
                            let name = format!("{}.{}", field.owner, field.name);
                            own.insert(name.clone());
                            reads.insert(name);
                        }
                    }
                }
                r.edges
                    .entry(class.name.clone())
                    .or_default()
                    .extend(class.referenced_types());
            }
        }
        let known: BTreeSet<String> = r.edges.keys().cloned().collect();
        for targets in r.edges.values_mut() {
            targets.retain(|t| known.contains(t));
        }
        r
    }

    /// Which of `tests` (`Class#method` ids of one class, invocations and parameters left off by
    /// the caller) read `field` in their own method's code.
    pub fn tests_reading(&self, tests: &[String], field: &str) -> Vec<String> {
        tests
            .iter()
            .filter(|t| {
                self.method_reads
                    .get(t.as_str())
                    .is_some_and(|r| r.contains(field))
            })
            .cloned()
            .collect()
    }

    /// Whether `class`'s per-test setup writes `field` (so each of its tests gets it anew).
    pub fn set_before_each_test(&self, class: &str, field: &str) -> bool {
        self.setup_writes
            .get(class)
            .is_some_and(|w| w.contains(field))
    }

    /// Whether `class` is one of the classes read.
    pub fn knows(&self, class: &str) -> bool {
        self.edges.contains_key(class)
    }

    /// For each of `fields`, the classes of `test_classes` that read it.
    pub fn readers(
        &self,
        test_classes: &[String],
        fields: &BTreeSet<String>,
    ) -> BTreeMap<String, Vec<String>> {
        let graph = ClassGraph::new(&self.edges);
        let mut out: BTreeMap<String, Vec<String>> =
            fields.iter().map(|f| (f.clone(), Vec::new())).collect();
        for test in test_classes {
            if !graph.contains(test) {
                continue;
            }
            let reach = graph.reach(test);
            let mut read: BTreeSet<&str> = BTreeSet::new();
            for class in reach.classes() {
                if let Some(r) = self.reads.get(class) {
                    read.extend(r.iter().map(String::as_str));
                }
            }
            for (field, readers) in out.iter_mut() {
                if read.contains(field.as_str()) {
                    readers.push(test.clone());
                }
            }
        }
        out
    }
}
