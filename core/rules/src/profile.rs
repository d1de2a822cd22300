//! Timing of script calls, as a value: whoever measures (the `bench` command)
//! makes a [`Profile`], hands it to a loaded ruleset's script host, turns it on
//! around what it times and reads the totals, in all and hook by hook.
//! Nothing is process-wide.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What a profile calls the time a game spends offering a ruleset's own
/// actions at a decision, their hooks' calls included (both games' label).
pub const OFFERING: &str = "offering the ruleset's own actions (their hooks included)";

/// Script calls counted and timed while on, from every thread that runs them.
#[derive(Debug, Default)]
pub struct Profile {
    on: AtomicBool,
    calls: AtomicU64,
    nanos: AtomicU64,
    /// Per hook and owner (the script host's numbers), what it cost.
    hooks: Mutex<BTreeMap<(usize, usize), HookTally>>,
    /// Per piece of a game's own work a ruleset's content causes (the
    /// offering of its own actions), its nanoseconds, its hooks' included.
    work: Mutex<BTreeMap<&'static str, u64>>,
}

/// What one owner's hook cost while a profile was on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HookTally {
    /// Times its script ran.
    pub runs: u64,
    /// Times its answer was remembered from a call that read the same (no script ran).
    pub remembered: u64,
    /// Nanoseconds its runs took.
    pub nanos: u64,
    /// Calls answered through a row of what the hook read (written, looked
    /// up, and kept when it ran): found or not, each is one of `runs` or
    /// `remembered`.
    pub rows: u64,
    /// Nanoseconds those rows took to write, look up and keep, its runs not
    /// counted: the price of remembering, which a hook asked often pays even
    /// when it never runs.
    pub row_nanos: u64,
}

impl HookTally {
    /// Every nanosecond the hook cost: its runs and its rows.
    pub fn all_nanos(&self) -> u64 {
        self.nanos + self.row_nanos
    }
}

/// One owner's hook in a profile, in words: what `bench --ruleset` lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookRow {
    /// The hook (`on_price`).
    pub hook: String,
    /// Whose script it is (`building type garden`, `action reserve`).
    pub owner: String,
    /// What it reads of `ctx` (`table.building_display`, `seat`); empty when it
    /// takes `ctx` whole or passes it on (it may read anything).
    pub reads: Vec<String>,
    /// Whether its answer can be remembered against what it read.
    pub rememberable: bool,
    /// Its runs, remembered answers and time.
    pub tally: HookTally,
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

    /// Counts one run of `owner`'s `hook` that took `nanos` (and the call in all).
    pub fn add_run(&self, hook: usize, owner: usize, nanos: u64) {
        self.add(nanos);
        let mut hooks = self.hooks.lock().unwrap_or_else(|e| e.into_inner());
        let t = hooks.entry((hook, owner)).or_default();
        t.runs += 1;
        t.nanos += nanos;
    }

    /// Counts one answer of `owner`'s `hook` given from memory, while on.
    #[cold]
    pub fn add_remembered_if_on(&self, hook: usize, owner: usize) {
        if self.on() {
            self.add_remembered(hook, owner);
        }
    }

    /// Counts one answer of `owner`'s `hook` given from memory.
    pub fn add_remembered(&self, hook: usize, owner: usize) {
        let mut hooks = self.hooks.lock().unwrap_or_else(|e| e.into_inner());
        hooks.entry((hook, owner)).or_default().remembered += 1;
    }

    /// Counts one call of `owner`'s `hook` answered through a row of what it
    /// read, whose writing, lookup and keeping took `nanos` (a run not counted).
    pub fn add_row(&self, hook: usize, owner: usize, nanos: u64) {
        let mut hooks = self.hooks.lock().unwrap_or_else(|e| e.into_inner());
        let t = hooks.entry((hook, owner)).or_default();
        t.rows += 1;
        t.row_nanos += nanos;
    }

    /// Counts `nanos` of the game's own work named `what`.
    pub fn add_work(&self, what: &'static str, nanos: u64) {
        *self.work.lock().unwrap_or_else(|e| e.into_inner()).entry(what).or_default() += nanos;
    }

    /// Each piece of the game's own work and its nanoseconds since the last call.
    pub fn take_work(&self) -> Vec<(&'static str, u64)> {
        std::mem::take(&mut *self.work.lock().unwrap_or_else(|e| e.into_inner())).into_iter().collect()
    }

    /// Script calls and nanoseconds spent in them since the last call.
    pub fn take(&self) -> (u64, u64) {
        (self.calls.swap(0, Ordering::Relaxed), self.nanos.swap(0, Ordering::Relaxed))
    }

    /// Each hook and owner's tally since the last call (the script host's numbers).
    pub fn take_hooks(&self) -> Vec<((usize, usize), HookTally)> {
        std::mem::take(&mut *self.hooks.lock().unwrap_or_else(|e| e.into_inner())).into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_remembered_answers_add_up_per_hook() {
        let p = Profile::new();
        p.add_run(2, 0, 100);
        p.add_run(2, 0, 50);
        p.add_remembered(2, 0);
        p.add_row(2, 0, 20);
        p.add_run(1, 3, 7);
        assert_eq!(p.take(), (3, 157), "a row is not a run");
        let hooks = p.take_hooks();
        assert_eq!(
            hooks,
            vec![
                ((1, 3), HookTally { runs: 1, remembered: 0, nanos: 7, rows: 0, row_nanos: 0 }),
                ((2, 0), HookTally { runs: 2, remembered: 1, nanos: 150, rows: 1, row_nanos: 20 }),
            ]
        );
        assert_eq!(hooks[1].1.all_nanos(), 170);
        p.add_work("offering", 5);
        p.add_work("offering", 6);
        assert_eq!(p.take_work(), vec![("offering", 11)]);
        assert!(p.take_work().is_empty(), "taken");
        assert!(p.take_hooks().is_empty(), "taken");
    }
}
