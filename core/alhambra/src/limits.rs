//! The sizes every ruleset stays within: fixed arrays are sized by them, and
//! the lowest layer holds them so that the scripts and the rules both read them.

/// Most seats any ruleset may allow.
pub const MAX_PLAYERS: usize = 8;
/// Most currencies (a player's sums per currency are a fixed array).
pub const MAX_CURRENCIES: usize = 8;
/// Most building types (a collector's counts per type are a fixed array).
pub const MAX_TYPES: usize = 8;
