//! The games a front end offers, and which one a ruleset or a file is for.
//! The list itself is the binary's (one line per game); everything that reads
//! it is here, so no front end matches on a game.

use std::path::Path;
use std::sync::Arc;

use engine_rules::files::{Builtins, Source};

use crate::any::{AnyRules, Kind, words};

/// The games, the default one first.
#[derive(Clone)]
pub struct Registry {
    kinds: Vec<&'static dyn Kind>,
}

impl Registry {
    /// A registry of `kinds`; the first is the default (files that name no game are its).
    pub fn new(kinds: Vec<&'static dyn Kind>) -> Registry {
        assert!(!kinds.is_empty(), "a registry holds at least one game");
        Registry { kinds }
    }

    /// Every game, the default first.
    pub fn kinds(&self) -> &[&'static dyn Kind] {
        &self.kinds
    }

    /// The default game.
    pub fn default_kind(&self) -> &'static dyn Kind {
        self.kinds[0]
    }

    /// The game with this id.
    pub fn by_id(&self, id: &str) -> Option<&'static dyn Kind> {
        self.kinds.iter().copied().find(|k| k.id() == id)
    }

    fn builtins(&self) -> Vec<&'static Builtins> {
        self.kinds.iter().map(|k| k.builtins()).collect()
    }

    /// The game a ruleset (an id or a path) is for.
    pub fn of_ruleset(&self, spec: &str) -> Result<&'static dyn Kind, String> {
        let lib = engine_rules::chain::game_of(spec, &self.builtins()).map_err(|e| e.to_string())?;
        Ok(self.by_id(lib.game).unwrap_or(self.default_kind()))
    }

    /// Loads a ruleset of whichever game it is for.
    pub fn load(&self, spec: &str) -> Result<Arc<dyn AnyRules>, String> {
        self.of_ruleset(spec)?.load(spec, None).map_err(words)
    }

    /// The game of a scenario or saved-game file: that of the ruleset it names
    /// (relative to the file), or the default game.
    pub fn of_file(&self, path: &Path) -> Result<&'static dyn Kind, String> {
        let source = Source::Disk(path.to_path_buf());
        // The game's own reader reports a file that does not read.
        let Ok(text) = source.read() else { return Ok(self.default_kind()) };
        // A file TOML cannot read as a whole (a number past i64, which serde reads
        // as u64 anyway) still names its ruleset on a line of its own.
        let table = text.parse::<toml::Table>().ok().or_else(|| {
            text.lines()
                .find(|l| l.trim_start().starts_with("ruleset") && l.contains('='))
                .and_then(|l| l.parse::<toml::Table>().ok())
        });
        let Some(spec) = table.as_ref().and_then(|t| t.get("ruleset")).and_then(|r| r.as_str()) else {
            return Ok(self.default_kind());
        };
        if spec.ends_with(".toml") || spec.contains('/') {
            let named = engine_rules::chain::named_path(&source, spec).map_err(|e| e.to_string())?;
            return self.of_ruleset(&named.to_string());
        }
        self.of_ruleset(spec)
    }

    /// The display name of a game id.
    pub fn title(&self, id: &str) -> Option<&'static str> {
        self.by_id(id).map(|k| k.title())
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.kinds.iter().map(|k| k.id())).finish()
    }
}
