//! Embeds `cards/toy` so the built-in ruleset works from any directory.
fn main() {
    engine_embed::embed("toy");
}
