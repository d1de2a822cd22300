//! The sizes every ruleset stays within: the lowest layer, so that the
//! notation and the rules both read them.

/// The most players a ruleset may allow: a sanity bound, far above San Juan's 4.
pub const MAX_PLAYERS: i64 = 12;
