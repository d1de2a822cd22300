//! The `sanjuan` binary as a user runs it: every command and its output
//! (`commands`), bad input of every kind refused with file and line
//! (`hardening`, `hostile`), balance reports (`report`), the JSON Schemas
//! (`schema`) and the tuner (`tune`). One test binary;
//! `common` runs the built program.

mod commands;
mod common;
mod hardening;
mod hostile;
mod report;
mod schema;
mod tune;
