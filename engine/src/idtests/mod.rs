//! Implementation-dependent tests (`odrust:detect-id`, issue 17; seed `003`, NonDex and DexFix):
//! the plan of shuffle seeds and clean runs, the bisection that pins the shuffled call site, the
//! classification, and the choice of a DexFix repair strategy.
//!
//! May use [`crate::model`] and [`crate::explain::ddmin`]. Empty for now.
