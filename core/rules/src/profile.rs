//! Timing of script calls, as a value: whoever measures (the `bench` command)
//! makes a [`Profile`], hands it to a loaded ruleset's script host, turns it on
//! around what it times and reads the totals. Nothing is process-wide.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Script calls counted and timed while on, from every thread that runs them.
#[derive(Debug, Default)]
pub struct Profile {
    on: AtomicBool,
    calls: AtomicU64,
    nanos: AtomicU64,
}

impl Profile {
    /// A profile, off.
    pub fn new() -> Profile {
        Profile::default()
    }

    /// Turns timing on or off.
    pub fn enable(&self, on: bool) {
        self.on.store(on, Ordering::Relaxed);
    }

    /// True while timing.
    pub fn on(&self) -> bool {
        self.on.load(Ordering::Relaxed)
    }

    /// Counts one call that took `nanos`.
    pub fn add(&self, nanos: u64) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// Script calls and nanoseconds spent in them since the last call.
    pub fn take(&self) -> (u64, u64) {
        (self.calls.swap(0, Ordering::Relaxed), self.nanos.swap(0, Ordering::Relaxed))
    }
}
