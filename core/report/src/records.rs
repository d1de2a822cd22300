//! Reading record lines, checking what their types cannot, and merging the
//! shards of one study: the only way records enter a report.

use engine_play::sim::GameRecord;

/// Why records could not be read or merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// A line that is not a game record.
    #[error("{file}:{line}: not a game record: {message}")]
    Parse {
        /// The file (or other source) name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// A line that is a record by its types but not one a game can have written.
    #[error(
        "{file}:{line}: not a valid game record: {message}; give the unchanged records `simulate --json-lines` wrote"
    )]
    Invalid {
        /// The file (or other source) name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The same game (run seed, index) twice.
    #[error(
        "game {index} of run seed {run_seed} appears twice ({files}); \
         were the same shard or overlapping --seed-start ranges given?"
    )]
    Duplicate {
        /// Run seed of the game.
        run_seed: u64,
        /// Index of the game.
        index: u64,
        /// Where the two copies came from.
        files: String,
    },
    /// Records of two rulesets in one set.
    #[error(
        "records of different rulesets cannot be merged: `{first}` ({first_file}) and `{second}` ({second_file}); \
         compare the two sets instead"
    )]
    MixedRulesets {
        /// The first ruleset seen.
        first: String,
        /// Where it came from.
        first_file: String,
        /// The other ruleset.
        second: String,
        /// Where it came from.
        second_file: String,
    },
    /// Records under one ruleset id whose rules differ (a copied tree that kept the id).
    #[error(
        "records of ruleset `{ruleset}` were played with different content: fingerprint {first} ({first_file}) \
         and {second} ({second_file}); give a changed ruleset an id of its own, or pass --allow-mixed to merge anyway"
    )]
    MixedContent {
        /// The ruleset id both carry.
        ruleset: String,
        /// The first fingerprint seen.
        first: String,
        /// Where it came from.
        first_file: String,
        /// The other fingerprint.
        second: String,
        /// Where it came from.
        second_file: String,
    },
}

/// Records read from one source (a shard file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// The file or other source name, for error messages.
    pub source: String,
    /// Its records, in file order.
    pub records: Vec<GameRecord>,
    /// The line of each record in the file (empty: one record per line).
    pub lines: Vec<usize>,
}

impl Shard {
    /// Reads a shard from JSON-lines text; each record is validated ([`validate`]) for any game.
    pub fn parse(text: &str, source: &str) -> Result<Shard, ReportError> {
        Self::read(text, source, None)
    }

    /// [`Shard::parse`], also refusing a record of a game not in `games`.
    pub fn parse_for(text: &str, source: &str, games: &[&str]) -> Result<Shard, ReportError> {
        Self::read(text, source, Some(games))
    }

    fn read(text: &str, source: &str, games: Option<&[&str]>) -> Result<Shard, ReportError> {
        let mut reader = ShardReader::new(source, games);
        for line in text.lines() {
            reader.line(line)?;
        }
        Ok(reader.finish())
    }

    /// `file:line` of record `i`, for messages.
    fn at(&self, i: usize) -> String {
        format!("{}:{}", self.source, self.lines.get(i).copied().unwrap_or(i + 1))
    }
}

/// A shard read one line at a time, as the caller reads its file: the file's
/// text is never held whole, and each card id is kept once, shared by every
/// record that names it (a record names some sixty), which more than halves
/// the memory of a large record set.
pub struct ShardReader<'g> {
    source: String,
    games: Option<&'g [&'g str]>,
    records: Vec<GameRecord>,
    lines: Vec<usize>,
    line: usize,
    ids: std::collections::HashSet<std::sync::Arc<str>>,
    check: Option<RecordCheck<'g>>,
}

/// What the caller knows of records that this crate cannot (the games' card
/// ids, the bots' names): a refusal's message, which the reader locates.
pub type RecordCheck<'g> = Box<dyn FnMut(&GameRecord) -> Result<(), String> + 'g>;

impl<'g> ShardReader<'g> {
    /// A reader for the source named `source`; with `games`, a record of another game is refused.
    pub fn new(source: &str, games: Option<&'g [&'g str]>) -> Self {
        ShardReader {
            source: source.to_owned(),
            games,
            records: Vec::new(),
            lines: Vec::new(),
            line: 0,
            ids: Default::default(),
            check: None,
        }
    }

    /// Also refuses a record that `check` refuses (after every check of [`validate`]),
    /// at its file and line.
    pub fn with_check(mut self, check: RecordCheck<'g>) -> Self {
        self.check = Some(check);
        self
    }

    /// Points `text` at the one copy of its string that the set's records share.
    fn intern(&mut self, text: &mut std::sync::Arc<str>) {
        match self.ids.get(text) {
            Some(shared) => *text = std::sync::Arc::clone(shared),
            None => {
                self.ids.insert(std::sync::Arc::clone(text));
            }
        }
    }

    /// Reads the file's next line (blank lines are skipped, but counted).
    pub fn line(&mut self, text: &str) -> Result<(), ReportError> {
        self.line += 1;
        if text.trim().is_empty() {
            return Ok(());
        }
        let (file, line) = (&self.source, self.line);
        let mut record = serde_json::from_str::<GameRecord>(text).map_err(|e| {
            // serde_json ends its message with " at line 1 column N"; the line is ours.
            let full = e.to_string();
            let bare = full.rsplit_once(" at line ").map_or(full.as_str(), |(m, _)| m);
            ReportError::Parse { file: file.clone(), line, message: format!("{bare} (column {})", e.column()) }
        })?;
        validate(&record).map_err(|message| ReportError::Invalid { file: file.clone(), line, message })?;
        if let Some(games) = self.games
            && !record.game.is_empty()
            && !games.contains(&record.game.as_str())
        {
            return Err(ReportError::Invalid {
                file: file.clone(),
                line,
                message: format!("unknown game `{}` (games: {})", clip(&record.game), games.join(", ")),
            });
        }
        if let Some(check) = &mut self.check {
            check(&record).map_err(|message| ReportError::Invalid { file: file.clone(), line, message })?;
        }
        for holdings in &mut record.buildings {
            for b in holdings.iter_mut() {
                self.intern(&mut b.id);
                if let Some(kind) = &mut b.kind {
                    self.intern(kind);
                }
            }
            // The reader grew each list by doubling: a quarter of a record was spare room.
            holdings.shrink_to_fit();
        }
        self.records.push(record);
        self.lines.push(line);
        Ok(())
    }

    /// The shard read so far.
    pub fn finish(self) -> Shard {
        Shard { source: self.source, records: self.records, lines: self.lines }
    }
}

/// The most players a record may have.
pub const MAX_RECORD_PLAYERS: usize = 64;
/// The most rounds a record may have.
pub const MAX_RECORD_ROUNDS: u32 = 1_000_000;
/// The range of a final score.
pub const RECORD_SCORES: std::ops::RangeInclusive<i32> = -1000..=1_000_000;

/// A text from a record, cut short for a message.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect::<String>().escape_debug().to_string();
    if text.chars().nth(40).is_some() {
        out.push_str("...");
    }
    out
}

/// A text a record names (ruleset id, bot): short, one line, printable.
fn check_name(what: &str, text: &str) -> Result<(), String> {
    if text.trim().is_empty() || text.chars().any(char::is_control) || text.chars().nth(200).is_some() {
        return Err(format!(
            "{what} `{}` is empty, longer than 200 characters or holds a control character",
            clip(text)
        ));
    }
    Ok(())
}

/// Checks what a record's types cannot: a known version, a game for version 2,
/// 2 to [`MAX_RECORD_PLAYERS`] seats with a score, bot and holdings each, winners
/// among the seats and holding the top score, scores and rounds in range, and
/// scores by round (when present) a row per round ending on the final scores.
pub fn validate(r: &GameRecord) -> Result<(), String> {
    use engine_play::sim::RECORD_VERSION;
    if r.version == 0 || r.version > RECORD_VERSION {
        return Err(format!("record version {} is not one this program reads (1 to {RECORD_VERSION})", r.version));
    }
    if r.version >= 2 && r.game.is_empty() {
        return Err(format!("a version-{} record names its game", r.version));
    }
    if !r.game.is_empty() {
        check_name("game", &r.game)?;
    }
    check_name("ruleset", &r.ruleset)?;
    if r.fingerprint.len() > 64 || !r.fingerprint.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("fingerprint `{}` is not a hexadecimal digest", clip(&r.fingerprint)));
    }
    let players = r.bots.len();
    if !(2..=MAX_RECORD_PLAYERS).contains(&players) {
        return Err(format!("{players} seat(s) in `bots`: a game has 2 to {MAX_RECORD_PLAYERS}"));
    }
    for b in &r.bots {
        check_name("bot", b)?;
    }
    if r.scores.len() != players {
        return Err(format!("{} scores for {players} seats", r.scores.len()));
    }
    if !r.buildings.is_empty() && r.buildings.len() != players {
        return Err(format!("{} holdings in `buildings` for {players} seats", r.buildings.len()));
    }
    if let Some(s) = r.scores.iter().find(|s| !RECORD_SCORES.contains(s)) {
        return Err(format!("score {s} is outside {} to {}", RECORD_SCORES.start(), RECORD_SCORES.end()));
    }
    if r.rounds > MAX_RECORD_ROUNDS {
        return Err(format!("{} rounds: a game has at most {MAX_RECORD_ROUNDS}", r.rounds));
    }
    if r.winners.is_empty() {
        return Err("no winner: every game has one".into());
    }
    let top = r.scores.iter().max().copied().unwrap_or_default();
    for (i, &w) in r.winners.iter().enumerate() {
        if w >= players {
            return Err(format!("winner seat {w} of a {players}-player game (seats are 0 to {})", players - 1));
        }
        if r.winners[..i].contains(&w) {
            return Err(format!("winner seat {w} is listed twice"));
        }
        if r.scores[w] != top {
            return Err(format!("winner seat {w} scored {}, less than the top score {top}", r.scores[w]));
        }
    }
    if !r.score_by_round.is_empty() {
        if r.score_by_round.len() != r.rounds as usize {
            return Err(format!(
                "{} rows in `score_by_round` for a {}-round game (one a round)",
                r.score_by_round.len(),
                r.rounds
            ));
        }
        for (i, row) in r.score_by_round.iter().enumerate() {
            if row.len() != players {
                return Err(format!(
                    "round {} of `score_by_round` has {} scores for {players} seats",
                    i + 1,
                    row.len()
                ));
            }
            if let Some(s) = row.iter().find(|s| !RECORD_SCORES.contains(s)) {
                return Err(format!(
                    "score {s} in `score_by_round` is outside {} to {}",
                    RECORD_SCORES.start(),
                    RECORD_SCORES.end()
                ));
            }
        }
        if r.score_by_round.last() != Some(&r.scores) {
            return Err("the last row of `score_by_round` is not the final `scores`".into());
        }
    }
    for holdings in &r.buildings {
        for b in holdings {
            check_name("building", &b.id)?;
            if let Some(kind) = &b.kind {
                check_name("building type", kind)?;
            }
            if b.round > r.rounds {
                return Err(format!(
                    "building `{}` built in round {} of a {}-round game",
                    clip(&b.id),
                    b.round,
                    r.rounds
                ));
            }
        }
    }
    Ok(())
}

/// Reads one `GameRecord` per non-blank line. An error names the source,
/// the line and the column.
pub fn parse_json_lines(text: &str, source_name: &str) -> Result<Vec<GameRecord>, ReportError> {
    Ok(Shard::parse(text, source_name)?.records)
}

/// Merges shards: concatenates them, sorts by (run seed, index) and rejects
/// a game that appears twice, records of more than one ruleset, and records of
/// one ruleset id played with different content.
pub fn merge(shards: Vec<Shard>) -> Result<Vec<GameRecord>, ReportError> {
    merge_with(shards, false)
}

/// [`merge`], optionally accepting one id with different content (`--allow-mixed`).
pub fn merge_with(shards: Vec<Shard>, allow_mixed: bool) -> Result<Vec<GameRecord>, ReportError> {
    // (record, shard, index in the shard)
    let mut tagged: Vec<(&GameRecord, usize, usize)> = Vec::new();
    let mut first: Option<(&str, usize, usize)> = None;
    let mut first_print: Option<(&str, usize, usize)> = None;
    for (k, shard) in shards.iter().enumerate() {
        for (i, r) in shard.records.iter().enumerate() {
            match first {
                None => first = Some((&r.ruleset, k, i)),
                Some((rs, fk, fi)) if rs != r.ruleset => {
                    return Err(ReportError::MixedRulesets {
                        first: rs.to_owned(),
                        first_file: shards[fk].at(fi),
                        second: r.ruleset.clone(),
                        second_file: shard.at(i),
                    });
                }
                Some(_) => {}
            }
            // Records written before fingerprints existed carry none: nothing to compare.
            if !allow_mixed && !r.fingerprint.is_empty() {
                match first_print {
                    None => first_print = Some((&r.fingerprint, k, i)),
                    Some((fp, fk, fi)) if fp != r.fingerprint => {
                        return Err(ReportError::MixedContent {
                            ruleset: r.ruleset.clone(),
                            first: fp.to_owned(),
                            first_file: shards[fk].at(fi),
                            second: r.fingerprint.clone(),
                            second_file: shard.at(i),
                        });
                    }
                    Some(_) => {}
                }
            }
            tagged.push((r, k, i));
        }
    }
    tagged.sort_by_key(|(r, k, i)| (r.run_seed, r.index, *k, *i));
    for w in tagged.windows(2) {
        let ((a, ka, ia), (b, kb, ib)) = (w[0], w[1]);
        if (a.run_seed, a.index) == (b.run_seed, b.index) {
            let files = format!("at {} and at {}", shards[ka].at(ia), shards[kb].at(ib));
            return Err(ReportError::Duplicate { run_seed: a.run_seed, index: a.index, files });
        }
    }
    // The records move into the merged order: a copy of each would double a large set's memory.
    let order: Vec<(usize, usize)> = tagged.into_iter().map(|(_, k, i)| (k, i)).collect();
    let mut slots: Vec<Vec<Option<GameRecord>>> =
        shards.into_iter().map(|s| s.records.into_iter().map(Some).collect()).collect();
    Ok(order.into_iter().filter_map(|(k, i)| slots[k][i].take()).collect())
}
