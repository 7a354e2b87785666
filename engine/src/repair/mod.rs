//! Repair planning (`odrust:repair`, issue 11; seed `000` section 2, iFixFlakies' patches, and
//! section 3.2, ODRepair's generator): which subset of a cleaner's or state-setter's statements
//! to try next (reusing [`crate::explain::ddmin`]), candidate reset-method calls, and which
//! verified candidate becomes the patch. Java parses, edits, compiles and runs; this folder
//! decides.
//!
//! May use [`crate::model`], [`crate::explain`], [`crate::diagnose`] and [`crate::incremental`]'s
//! class-file reader. Empty for now.
