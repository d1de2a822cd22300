//! Embeds `cards/san-juan` and `scripts/san-juan` so the built-in rulesets work from any directory.
fn main() {
    engine_embed::embed("san-juan");
}
