//! Embeds `cards/alhambra` and `scripts/alhambra` so the built-in ruleset works from any directory.
fn main() {
    engine_embed::embed("alhambra");
}
