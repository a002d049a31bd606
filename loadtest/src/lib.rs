//! The load generator as a library: the binary (`src/main.rs`) parses its
//! flags into a [`run::Plan`] and prints the [`report::Report`]; a test can
//! run the same [`run::run_with`] in-process and read the report's figures,
//! watching the run through a [`run::Probe`] (to stop a node mid-run).

pub mod error;
pub mod link;
pub mod recorder;
pub mod report;
pub mod run;
pub mod signup;
pub mod socket;
pub mod storm;
pub mod target;
