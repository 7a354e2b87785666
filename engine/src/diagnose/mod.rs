//! Polluted-state diagnosis (`odrust:diagnose`, issue 12; seed `000` section 3.1, ODRepair's
//! debugger): the diff of two heap-state XML captures taken before a victim (quick-xml), and the
//! restore experiments that confirm which static field the polluter changed.
//!
//! May use [`crate::model`] and [`crate::explain`]. Empty for now.
