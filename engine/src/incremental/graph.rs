//! The class-level dependency graph (petgraph): a node per class, an edge `A -> B` when class
//! `A` names class `B` anywhere ([`ClassFile::referenced_types`](crate::jvm::classfile::ClassFile::referenced_types)),
//! and the transitive closure from one class with one shortest path to each class it reaches.
//!
//! Deterministic: nodes are numbered in name order, and the breadth-first search visits a node's
//! successors in name order, so among shortest paths the one taken is the same on every run.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use petgraph::graph::{DiGraph, NodeIndex};

/// A directed graph of classes (dotted binary names).
#[derive(Debug, Default)]
pub struct ClassGraph {
    graph: DiGraph<String, ()>,
    index: HashMap<String, NodeIndex>,
    /// Each node's successors, sorted by name.
    successors: Vec<Vec<NodeIndex>>,
}

impl ClassGraph {
    /// The graph of `edges` (class → the classes it references). Every class named, as a key or
    /// as a target, is a node; edges from a class to itself are dropped.
    pub fn new(edges: &BTreeMap<String, BTreeSet<String>>) -> ClassGraph {
        let names: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
        let mut graph = DiGraph::with_capacity(names.len(), 0);
        let mut index = HashMap::with_capacity(names.len());
        for name in names {
            index.insert(name.clone(), graph.add_node(name.clone()));
        }
        for (from, targets) in edges {
            for to in targets {
                if from != to {
                    graph.add_edge(index[from], index[to], ());
                }
            }
        }
        // Names were added in order, so a node's index order is its name order.
        let successors = graph
            .node_indices()
            .map(|n| {
                let mut next: Vec<NodeIndex> = graph.neighbors(n).collect();
                next.sort();
                next.dedup();
                next
            })
            .collect();
        ClassGraph {
            graph,
            index,
            successors,
        }
    }

    /// How many classes the graph has.
    pub fn len(&self) -> usize {
        self.graph.node_count()
    }

    /// Whether the graph has no class.
    pub fn is_empty(&self) -> bool {
        self.graph.node_count() == 0
    }

    /// Whether `class` is a node.
    pub fn contains(&self, class: &str) -> bool {
        self.index.contains_key(class)
    }

    /// Everything `from` reaches (itself included), each with a shortest path; empty when `from`
    /// is not a node.
    pub fn reach(&self, from: &str) -> Reach<'_> {
        self.reach_from(&[from])
    }

    /// Everything any of `starts` reaches (those that are nodes included), each with a shortest
    /// path from one of them; starts that are not nodes are left out.
    pub fn reach_from(&self, starts: &[&str]) -> Reach<'_> {
        self.reach_avoiding(starts, |_| false)
    }

    /// What `starts` reach without entering a node for which `stop` holds (the starts are
    /// entered whatever `stop` says).
    pub fn reach_avoiding(&self, starts: &[&str], stop: impl Fn(&str) -> bool) -> Reach<'_> {
        let mut parent = HashMap::new();
        let mut queue = VecDeque::new();
        for start in starts {
            if let Some(&start) = self.index.get(*start) {
                if parent.insert(start, start).is_none() {
                    queue.push_back(start);
                }
            }
        }
        {
            while let Some(node) = queue.pop_front() {
                for &next in &self.successors[node.index()] {
                    if stop(self.graph[next].as_str()) {
                        continue;
                    }
                    if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(next) {
                        e.insert(node);
                        queue.push_back(next);
                    }
                }
            }
        }
        Reach {
            graph: self,
            parent,
        }
    }
}

/// The classes one class reaches, with a shortest path to each ([`ClassGraph::reach`]).
#[derive(Debug)]
pub struct Reach<'g> {
    graph: &'g ClassGraph,
    /// Each reached node and the node it was reached from (the start is its own parent).
    parent: HashMap<NodeIndex, NodeIndex>,
}

impl Reach<'_> {
    /// Whether `class` is reached.
    pub fn contains(&self, class: &str) -> bool {
        self.graph
            .index
            .get(class)
            .is_some_and(|n| self.parent.contains_key(n))
    }

    /// The reached classes, sorted by name.
    pub fn classes(&self) -> Vec<&str> {
        let mut nodes: Vec<NodeIndex> = self.parent.keys().copied().collect();
        nodes.sort();
        nodes
            .into_iter()
            .map(|n| self.graph.graph[n].as_str())
            .collect()
    }

    /// How many classes are reached (the start included).
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether nothing is reached (the start is not a node).
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// A shortest path from the start to `class`, both included; `None` when not reached.
    pub fn path(&self, class: &str) -> Option<Vec<&str>> {
        let mut node = *self.graph.index.get(class)?;
        let mut path = vec![self.graph.graph[node].as_str()];
        loop {
            let parent = *self.parent.get(&node)?;
            if parent == node {
                break;
            }
            path.push(self.graph.graph[parent].as_str());
            node = parent;
        }
        path.reverse();
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &[&str])]) -> ClassGraph {
        ClassGraph::new(
            &edges
                .iter()
                .map(|(from, to)| (from.to_string(), to.iter().map(|t| t.to_string()).collect()))
                .collect(),
        )
    }

    #[test]
    fn closure_with_shortest_paths() {
        let g = graph(&[
            ("T", &["A", "Z"]),
            ("A", &["B", "T"]),
            ("B", &["X"]),
            ("Z", &["Y"]),
            ("Y", &["B"]),
            ("Lone", &[]),
        ]);
        assert_eq!(g.len(), 7);
        let r = g.reach("T");
        assert_eq!(r.classes(), ["A", "B", "T", "X", "Y", "Z"]);
        assert_eq!(r.len(), 6);
        assert_eq!(r.path("X").unwrap(), ["T", "A", "B", "X"]);
        assert_eq!(r.path("Y").unwrap(), ["T", "Z", "Y"]);
        assert_eq!(r.path("T").unwrap(), ["T"]);
        assert!(r.path("Lone").is_none() && !r.contains("Lone"));
        assert!(r.path("Nowhere").is_none());
        assert!(g.reach("Nowhere").is_empty());
        assert_eq!(g.reach("X").classes(), ["X"]);
    }

    #[test]
    fn a_reach_can_avoid_nodes() {
        let g = graph(&[
            ("T", &["A", "S"]),
            ("A", &["B"]),
            ("S", &["C", "B"]),
            ("C", &["D"]),
        ]);
        // S is not entered, so what only S leads to is not reached; B is, through A.
        let r = g.reach_avoiding(&["T"], |n| n == "S");
        assert_eq!(r.classes(), ["A", "B", "T"]);
        // A start is entered whatever the predicate says.
        let r = g.reach_avoiding(&["S"], |n| n == "S" || n == "D");
        assert_eq!(r.classes(), ["B", "C", "S"]);
    }

    #[test]
    fn ties_break_by_name() {
        // Two shortest paths to X: through M and through C; C comes first.
        let g = graph(&[("T", &["M", "C"]), ("M", &["X"]), ("C", &["X"])]);
        assert_eq!(g.reach("T").path("X").unwrap(), ["T", "C", "X"]);
    }

    #[test]
    fn cycles_terminate() {
        let g = graph(&[("A", &["B"]), ("B", &["C"]), ("C", &["A", "C"])]);
        assert_eq!(g.reach("B").classes(), ["A", "B", "C"]);
        assert_eq!(g.reach("B").path("A").unwrap(), ["B", "C", "A"]);
    }
}

#[cfg(test)]
#[path = "graph_tests.rs"]
mod fixture_tests;
