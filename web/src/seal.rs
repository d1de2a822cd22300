//! Sealed downloads. A game in progress is downloaded sealed: the seed and
//! every action (which would tell every hand and the deck's order) are
//! encrypted and authenticated with the server's key (ChaCha20-Poly1305), so
//! the file can only be continued at the server that sealed it (or one given
//! the same `--key-file`), by the seats its downloader held. What is in the
//! clear is what the players all know: ruleset, seats, the number of actions.
//! Its length tells nothing more: the sealed text is padded to a length set
//! by the number of entries alone (see [`padded_len`]), so downloading after
//! every move does not tell the length of another seat's hidden answers.

use base64::Engine;
use chacha20poly1305::aead::Aead;
use chacha20poly1305::{ChaCha20Poly1305, Key, KeyInit, Nonce};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::table::Table;

/// The format of a sealed file.
pub const SEALED_VERSION: i64 = 1;

/// A new random key.
pub fn fresh_key() -> [u8; 32] {
    let mut key = [0u8; 32];
    rand::rng().fill_bytes(&mut key);
    key
}

/// Reads a key written as 64 hexadecimal digits.
pub fn parse_key(text: &str) -> Result<[u8; 32], String> {
    let hex = text.trim();
    if hex.len() != 64 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err("a key is 64 hexadecimal digits on one line".into());
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())?;
    }
    Ok(key)
}

/// A key as 64 hexadecimal digits.
pub fn key_text(key: &[u8; 32]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes of padded text besides the entries: the head (ruleset, seats, seed) fits in it.
const PAD_BASE: usize = 8 * 1024;

/// Bytes of padded text per saved entry: more than any answer's notation takes.
const PAD_PER_ENTRY: usize = 160;

/// Texts longer than their entries' room (a very long game of very long
/// notation) are padded to a multiple of this, which says little.
const PAD_STEP: usize = 4 * 1024;

/// The length a sealed text of `len` bytes with `entries` entries is padded
/// to: a function of the public entry count alone whenever the text fits its
/// room, as every game's notation does.
pub fn padded_len(len: usize, entries: usize) -> usize {
    len.max(PAD_BASE + entries * PAD_PER_ENTRY).next_multiple_of(PAD_STEP)
}

/// What the seal hides.
#[derive(Serialize, Deserialize)]
struct Inside {
    uid: String,
    holders: Vec<usize>,
    saved: String,
}

/// A sealed file opened: the saved game, whose seats its downloader held, and the game's uid.
pub struct Opened {
    /// The saved game (seed and actions).
    pub saved: String,
    /// The seats the downloader held.
    pub holders: Vec<usize>,
    /// The game's id at the table it came from.
    pub uid: String,
}

/// The sealed download of table `t` for the seats `holders`, as TOML.
pub fn close(key: &[u8; 32], t: &Table, holders: &[usize]) -> String {
    let inside = Inside { uid: t.uid.clone(), holders: holders.to_vec(), saved: t.save() };
    let mut plain = serde_json::to_vec(&inside).unwrap_or_default();
    // JSON reads past trailing spaces: the padding needs no length of its own.
    plain.resize(padded_len(plain.len(), t.saved_len()), b' ');
    let mut nonce = [0u8; 12];
    rand::rng().fill_bytes(&mut nonce);
    let cipher = ChaCha20Poly1305::new(Key::from_slice(key));
    let sealed = cipher.encrypt(Nonce::from_slice(&nonce), plain.as_slice()).unwrap_or_default();
    let mut data = nonce.to_vec();
    data.extend(sealed);
    let mut doc = toml::Table::new();
    doc.insert("sealed".into(), SEALED_VERSION.into());
    doc.insert("ruleset".into(), t.ruleset.clone().into());
    doc.insert("seats".into(), toml::Value::Array(t.seats.iter().map(|s| s.clone().into()).collect()));
    doc.insert("holders".into(), toml::Value::Array(holders.iter().map(|&h| toml::Value::Integer(h as i64)).collect()));
    doc.insert("entries".into(), (t.saved_len() as i64).into());
    doc.insert("data".into(), base64::engine::general_purpose::STANDARD.encode(data).into());
    format!(
        "# A game in progress at a `sanjuan serve` table, sealed by that server: upload it there\n\
         # (on its first page) to continue. What the players may not see stays hidden until the game ends.\n{}",
        toml::to_string(&doc).unwrap_or_default()
    )
}

/// Opens a sealed file (its TOML already read).
pub fn open(key: &[u8; 32], doc: &toml::Table) -> Result<Opened, String> {
    match doc.get("sealed").and_then(toml::Value::as_integer) {
        Some(SEALED_VERSION) => {}
        _ => return Err(format!("a sealed game of an unknown format: this server reads `sealed = {SEALED_VERSION}`")),
    }
    let data = doc
        .get("data")
        .and_then(toml::Value::as_str)
        .and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok())
        .filter(|d| d.len() > 12)
        .ok_or("a sealed game without its `data`: the file was cut or changed")?;
    let (nonce, sealed) = data.split_at(12);
    let cipher = ChaCha20Poly1305::new(Key::from_slice(key));
    let plain = cipher.decrypt(Nonce::from_slice(nonce), sealed).map_err(|_| {
        "this sealed game was sealed by another server (or changed since): continue it at the server it came \
         from, or start that server with the same --key-file"
            .to_owned()
    })?;
    let inside: Inside =
        serde_json::from_slice(&plain).map_err(|e| format!("a sealed game that does not read: {e}"))?;
    Ok(Opened { saved: inside.saved, holders: inside.holders, uid: inside.uid })
}
