//! What a game's documentation tests share: whether a page names a key as
//! code, the complete examples a page shows, and the keys a JSON state holds.
//! Each game's tests hold its pages to its code with these.

use std::collections::BTreeSet;

/// True when `text` names `key` as code: `` `key` ``, or the key opening a code
/// span as a TOML table (`` `[key]` ``, `` `[[key]]` ``, `` `[key.<id>]` ``), a
/// path (`` `key.x` ``) or a call (`` `key(x)` ``). A plain word in a sentence
/// does not count, so a key is documented where a designer would look it up.
pub fn mentions(text: &str, key: &str) -> bool {
    text.match_indices(key).any(|(at, _)| {
        let before = &text[..at];
        let after = text[at + key.len()..].chars().next();
        ["`", "`[", "`[["].iter().any(|open| before.ends_with(open)) && matches!(after, Some('`' | ']' | '.' | '('))
    })
}

/// The fenced TOML blocks of a page that contain `holding` (a whole example:
/// a scenario's seat tables), without the indent of their fence.
pub fn toml_blocks(text: &str, holding: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        match &mut current {
            None if trimmed.starts_with("```toml") => current = Some((line.len() - trimmed.len(), String::new())),
            None => {}
            Some((_, block)) if trimmed.starts_with("```") => {
                if block.contains(holding) {
                    blocks.push(std::mem::take(block));
                }
                current = None;
            }
            Some((indent, block)) => {
                block.push_str(line.get(*indent..).unwrap_or(line.trim_start()));
                block.push('\n');
            }
        }
    }
    blocks
}

/// Object keys of a JSON value, all levels down, into `out`; below a key in
/// `opaque` (a map keyed by card ids or a script's names) none are taken.
pub fn json_keys(value: &serde_json::Value, opaque: &[&str], out: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone());
                if !opaque.contains(&k.as_str()) {
                    json_keys(v, opaque, out);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| json_keys(v, opaque, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_counts_only_as_code() {
        assert!(mentions("| `max_seats` | integer |", "max_seats"));
        assert!(mentions("the `[rules]` table", "rules"));
        assert!(mentions("`count_of(k)`", "count_of"));
        assert!(!mentions("the seat limit is max_seats", "max_seats"));
        assert!(!mentions("`least_max_seats`", "max_seats"));
    }

    #[test]
    fn blocks_lose_their_fence_indent() {
        let page = "text\n  ```toml\n  a = 1\n  [[seat]]\n  ```\n```toml\nb = 2\n```\n";
        assert_eq!(toml_blocks(page, "[[seat]]"), vec!["a = 1\n[[seat]]\n".to_owned()]);
    }
}

/// The markers around a block of a page that a test writes from the code:
/// `<!-- NAME: generated -->` opens it and `<!-- NAME: end -->` closes it.
fn markers(name: &str) -> (String, String) {
    (format!("<!-- {name}: generated -->\n"), format!("<!-- {name}: end -->"))
}

/// The generated block `name` of a page: the text between its markers, or
/// `None` when the page has no such block.
pub fn generated_block<'a>(page: &'a str, name: &str) -> Option<&'a str> {
    let (open, close) = markers(name);
    let start = page.find(&open)? + open.len();
    let end = start + page[start..].find(&close)?;
    Some(&page[start..end])
}

/// The page with its generated block `name` replaced by `body` (the page as
/// it was when it has no such block): what a test writes when asked to bless
/// a change of the code's order into the docs.
pub fn with_generated_block(page: &str, name: &str, body: &str) -> String {
    let Some(old) = generated_block(page, name) else { return page.to_owned() };
    let start = old.as_ptr() as usize - page.as_ptr() as usize;
    format!("{}{body}{}", &page[..start], &page[start + old.len()..])
}

#[cfg(test)]
mod generated_tests {
    use super::*;

    #[test]
    fn a_generated_block_is_read_and_replaced_between_its_markers() {
        let page = "intro\n<!-- order: generated -->\nold\n<!-- order: end -->\nafter\n";
        assert_eq!(generated_block(page, "order"), Some("old\n"));
        assert_eq!(generated_block(page, "other"), None);
        let new = with_generated_block(page, "order", "a\nb\n");
        assert_eq!(new, "intro\n<!-- order: generated -->\na\nb\n<!-- order: end -->\nafter\n");
        assert_eq!(with_generated_block(page, "other", "x"), page);
    }
}
