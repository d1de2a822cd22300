//! The games this binary plays.

/// The display name of a game id.
pub fn title(game: &str) -> Option<&'static str> {
    match game {
        "san-juan" => Some("San Juan"),
        _ => None,
    }
}
