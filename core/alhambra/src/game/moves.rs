//! The `move` effect: one card from any zone to any zone it may go.
//!
//! Money zones: a seat's `hand`, the `money_display`, the `money_deck` (its
//! top), the `discard` pile. Building zones: a collector's `buildings`, the
//! `building_display` (by slot), the `building_deck` (its top), the
//! `neutral` collector's, a seat's `reserve` (buildings set aside face up to
//! buy later). `out` is out of the game, for either. The card is
//! named by its id (a money card, a building card or a building type), or
//! by its place: `"building"` or `"money"` with `slot` (a display slot,
//! counted from 1) or from a deck (its top card), and `"drawn"` (the building card that
//! `on_building_drawn` hears). A card that is not where the effect says is
//! no error: nothing moves, and the log says so. Every move takes the card
//! out of one place and puts it in one other, so the census holds.

use std::sync::Arc;

use engine_script::results::as_int_in;
use rhai::{Dynamic, Map};

use super::scripts::{Heard, Listener};
use super::{Draw, Game, n_cards};
use crate::ruleset::{BuildingIdx, Money};

/// A zone of the `move` effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Zone {
    Hand(usize),
    MoneyDisplay,
    MoneyDeck,
    Discard,
    Buildings(usize),
    BuildingDisplay,
    BuildingDeck,
    Neutral,
    Reserve(usize),
    Out,
}

impl Zone {
    fn holds_money(self) -> bool {
        matches!(self, Zone::Hand(_) | Zone::MoneyDisplay | Zone::MoneyDeck | Zone::Discard | Zone::Out)
    }

    fn holds_buildings(self) -> bool {
        matches!(
            self,
            Zone::Buildings(_)
                | Zone::BuildingDisplay
                | Zone::BuildingDeck
                | Zone::Neutral
                | Zone::Reserve(_)
                | Zone::Out
        )
    }

    fn name(self) -> String {
        match self {
            Zone::Hand(s) => format!("seat {s}'s hand"),
            Zone::MoneyDisplay => "the money display".into(),
            Zone::MoneyDeck => "the money deck".into(),
            Zone::Discard => "the discard pile".into(),
            Zone::Buildings(s) => format!("seat {s}'s buildings"),
            Zone::BuildingDisplay => "the building display".into(),
            Zone::BuildingDeck => "the building deck".into(),
            Zone::Neutral => "the neutral collector's buildings".into(),
            Zone::Reserve(s) => format!("seat {s}'s reserve"),
            Zone::Out => "out of the game".into(),
        }
    }
}

/// The card a `move` names.
#[derive(Clone, Debug)]
enum Named {
    /// A money card by id.
    Money(Money),
    /// A building card by id, or the last bought of a type (`kind`).
    Building { id: String, kind: bool },
    /// Whatever building card lies at the place given (`"building"`).
    AnyBuilding,
    /// Whatever money card lies at the place given (`"money"`).
    AnyMoney,
    /// The building card being drawn (`"drawn"`).
    Drawn,
}

/// The keys a `move` map may hold, found in one pass over it (looked up
/// one by one, they cost more than the move: an exchange is two moves).
#[derive(Default)]
struct MoveKeys<'m> {
    what: Option<&'m Dynamic>,
    from: Option<&'m Dynamic>,
    to: Option<&'m Dynamic>,
    seat: Option<&'m Dynamic>,
    from_seat: Option<&'m Dynamic>,
    to_seat: Option<&'m Dynamic>,
    slot: Option<&'m Dynamic>,
    to_slot: Option<&'m Dynamic>,
    at: Option<&'m Dynamic>,
    in_place_of: Option<&'m Dynamic>,
}

impl<'m> MoveKeys<'m> {
    fn of(map: &'m Map) -> Self {
        let mut keys = MoveKeys::default();
        for (k, v) in map {
            let place = match k.as_str() {
                "move" => &mut keys.what,
                "from" => &mut keys.from,
                "to" => &mut keys.to,
                "seat" => &mut keys.seat,
                "from_seat" => &mut keys.from_seat,
                "to_seat" => &mut keys.to_seat,
                "slot" => &mut keys.slot,
                "to_slot" => &mut keys.to_slot,
                "at" => &mut keys.at,
                "in_place_of" => &mut keys.in_place_of,
                _ => continue,
            };
            *place = Some(v);
        }
        keys
    }
}

/// A card taken out of its zone.
#[derive(Clone, Copy, Debug)]
enum Card {
    Money(Money),
    Building(BuildingIdx),
}

impl Game {
    /// Applies `#{ move: …, from: …, to: … }` for the card `l` (whose seat is the default of every seat key).
    pub(super) fn move_card(&mut self, l: &Listener, map: &Map, by: &str) -> Result<(), String> {
        let rs = Arc::clone(&self.rs);
        let keys = MoveKeys::of(map);
        let what = keys.what.expect("a move map has `move`");
        let what = what
            .as_immutable_string_ref()
            .map_err(|t| format!("`move` is a {t}; write a card id, \"building\", \"money\" or \"drawn\""))?;
        let named = match what.as_str() {
            "building" => Named::AnyBuilding,
            "money" => Named::AnyMoney,
            "drawn" => Named::Drawn,
            // The card whose hook this is: a money card just taken or paid, or the building.
            "self" => match l.card {
                Heard::Money(m) => Named::Money(m),
                Heard::Building(b, ..) => Named::Building { id: rs.building(b).id.clone(), kind: false },
                _ => return Err("`move: \"self\"`: only a card's own script has a card to move".into()),
            },
            w => {
                if let Ok(m) = rs.lookup_money(w) {
                    Named::Money(m)
                } else if rs.lookup_building(w).is_ok() {
                    Named::Building { id: w.to_owned(), kind: false }
                } else if rs.lookup_type(w).is_some() {
                    Named::Building { id: w.to_owned(), kind: true }
                } else {
                    return Err(format!(
                        "`move: \"{w}\"` names no card: write a money card id (`denar3`), a building card id \
                         (`garden10`), a building type (`garden`), \"building\" or \"money\" (with `slot` or from a \
                         deck), \"drawn\" or \"self\""
                    ));
                }
            }
        };
        let seats = self.players.len();
        // A zone's seat: its own key (`to_seat`, `from_seat`), else `seat`, else the card's.
        let seat = |own: (&str, Option<&Dynamic>)| -> Result<usize, String> {
            match [own, ("seat", keys.seat)].into_iter().find_map(|(k, v)| Some((k, v?))) {
                Some((k, v)) => as_int_in(v.clone(), Some((0, seats as i64 - 1)))
                    .map(|s| s as usize)
                    .map_err(|e| format!("key `{k}` {e} (a seat, 0 to {})", seats - 1)),
                None => Ok(l.seat),
            }
        };
        let slot = |(key, v): (&str, Option<&Dynamic>)| -> Result<Option<usize>, String> {
            let n = self.building_display.len().max(self.rs.rules.money_display);
            v.map(|v| {
                as_int_in(v.clone(), Some((1, n as i64)))
                    .map(|s| s as usize - 1)
                    .map_err(|e| format!("`{key}` {e} (a display slot, from 1)"))
            })
            .transpose()
        };
        let zone = |(key, v): (&str, Option<&Dynamic>),
                    own: (&str, Option<&Dynamic>)|
         -> Result<Option<Zone>, String> {
            let Some(v) = v else { return Ok(None) };
            let w = v.as_immutable_string_ref().map_err(|t| format!("`{key}` is a {t}; write a zone name"))?;
            Ok(Some(match w.as_str() {
                "hand" => Zone::Hand(seat(own)?),
                "money_display" => Zone::MoneyDisplay,
                "money_deck" => Zone::MoneyDeck,
                "discard" => Zone::Discard,
                "buildings" | "alhambra" => Zone::Buildings(seat(own)?),
                "building_display" => Zone::BuildingDisplay,
                "building_deck" => Zone::BuildingDeck,
                "neutral" if self.neutral.is_some() => Zone::Neutral,
                "neutral" => return Err(format!("`{key}: \"neutral\"`: only two players have a neutral collector")),
                "reserve" => Zone::Reserve(seat(own)?),
                "out" => Zone::Out,
                w => {
                    return Err(format!("`{key}: \"{w}\"` is not a zone; zones: {}", crate::hooks::ZONES.join(", ")));
                }
            }))
        };
        let to =
            zone(("to", keys.to), ("to_seat", keys.to_seat))?.ok_or("`move` needs `to`: the zone the card goes to")?;
        let from = zone(("from", keys.from), ("from_seat", keys.from_seat))?;
        let (from_slot, to_slot) = (slot(("slot", keys.slot))?, slot(("to_slot", keys.to_slot))?);
        let bottom = match keys.at.map(|v| v.as_immutable_string_ref()) {
            None => false,
            Some(Ok(w)) if w.as_str() == "top" => false,
            Some(Ok(w)) if w.as_str() == "bottom" => true,
            Some(_) => return Err("`at` is \"top\" or \"bottom\" (of a deck)".into()),
        };
        let money = match &named {
            Named::Money(_) | Named::AnyMoney => true,
            Named::Building { .. } | Named::AnyBuilding | Named::Drawn => false,
        };
        let fits = |z: Zone| if money { z.holds_money() } else { z.holds_buildings() };
        let kind = if money { "a money card" } else { "a building card" };
        if !fits(to) {
            return Err(format!("{kind} cannot go to {}", to.name()));
        }
        if let (Zone::BuildingDisplay, Some(k)) = (to, to_slot)
            && let Some(there) = self.building_display.get(k).copied().flatten()
            && !(from == Some(Zone::BuildingDisplay) && from_slot == Some(k))
        {
            return Err(format!(
                "`to_slot: {}`: the slot holds {}; move a building only into an empty slot",
                k + 1,
                rs.building(there).id
            ));
        }
        if to == Zone::BuildingDisplay && to_slot.is_some_and(|k| k >= self.building_display.len()) {
            return Err(format!("`to_slot`: the building display has slots 1 to {}", self.building_display.len()));
        }
        self.history = None;
        let card = if let Named::Drawn = named {
            if from.is_some_and(|f| f != Zone::BuildingDeck) {
                return Err("`move: \"drawn\"` moves the card being drawn: give no `from`".into());
            }
            let Some(b) = self.drawn.take() else {
                if !self.drawing {
                    return Err("`move: \"drawn\"` works only in on_building_drawn (no card is being drawn)".into());
                }
                // Another card's hook moved it first.
                self.event(None, |_| format!("{by}: the card drawn is gone already"));
                return Ok(());
            };
            Card::Building(b)
        } else {
            let from = from.ok_or("`move` needs `from`: the zone the card leaves")?;
            if !fits(from) || from == Zone::Out {
                return Err(format!("{kind} cannot be moved from {}", from.name()));
            }
            match self.take_out(&named, from, from_slot)? {
                Some(card) => card,
                None => {
                    let seat = l.seat;
                    self.event(Some(seat), |_| format!("{by}: no {} in {} to move", *what, from.name()));
                    return Ok(());
                }
            }
        };
        // `in_place_of`: where that card lies on the money display, or where this hook's moves took it from.
        let to_slot = match keys.in_place_of {
            None => to_slot,
            Some(_) if to != Zone::MoneyDisplay => {
                return Err("`in_place_of` puts a card on the money display where another lies (or lay)".into());
            }
            Some(v) => {
                let id = super::asks::card_id(v.clone())?;
                let here = self.money_display.iter().position(|&m| self.rs.money_str(m) == id.as_str());
                let was =
                    self.vacated.iter().rev().find(|(m, _)| self.rs.money_str(*m) == id.as_str()).map(|&(_, i)| i);
                here.or(was).or(to_slot)
            }
        };
        if let (Card::Money(m), Some(Zone::MoneyDisplay)) = (card, from) {
            self.vacated.push((m, self.last_display_index));
        }
        self.put(card, to, to_slot, bottom);
        self.log_move(by, card, from, to);
        Ok(())
    }

    /// Takes the named card out of `from`, if it is there.
    fn take_out(&mut self, named: &Named, from: Zone, slot: Option<usize>) -> Result<Option<Card>, String> {
        let rs = Arc::clone(&self.rs);
        let is = |b: BuildingIdx| match named {
            Named::Building { id, kind: false } => rs.building(b).id == *id,
            Named::Building { id, kind: true } => rs.types[rs.building(b).kind as usize].id == *id,
            _ => true,
        };
        let money_is = |m: Money| match named {
            Named::Money(x) => *x == m,
            _ => true,
        };
        Ok(match from {
            Zone::Hand(s) => {
                if let Named::AnyMoney = named {
                    return Err("`move: \"money\"` from a hand: name the card (a chosen card's id)".into());
                }
                let p = &mut self.players[s];
                p.hand().iter().position(|&m| money_is(m)).map(|i| Card::Money(p.lose_money_at(i)))
            }
            Zone::MoneyDisplay => {
                let i = match (named, slot) {
                    (_, Some(k)) => (k < self.money_display.len() && money_is(self.money_display[k])).then_some(k),
                    (Named::AnyMoney, None) => {
                        return Err("`move: \"money\"` from the money display needs `slot`".into());
                    }
                    _ => self.money_display.iter().position(|&m| money_is(m)),
                };
                if let Some(i) = i {
                    self.last_display_index = i;
                }
                i.map(|i| Card::Money(self.money_display.remove(i)))
            }
            Zone::MoneyDeck => match self.deck.last() {
                Some(&Draw::Money(m)) if money_is(m) => {
                    self.deck.pop();
                    Some(Card::Money(m))
                }
                _ => None,
            },
            Zone::Discard => match named {
                Named::AnyMoney => self.discard.pop().map(Card::Money),
                _ => self.discard.iter().rposition(|&m| money_is(m)).map(|i| Card::Money(self.discard.remove(i))),
            },
            Zone::Buildings(_) | Zone::Neutral => {
                let p = match from {
                    Zone::Buildings(s) => &mut self.players[s],
                    _ => self.neutral.as_mut().expect("checked: two players"),
                };
                p.buildings.iter().rposition(|&b| is(b)).map(|i| {
                    let (b, turn, exact) = p.remove_building_at(&rs, i);
                    self.history = Some((turn, exact));
                    Card::Building(b)
                })
            }
            Zone::BuildingDisplay => {
                let i = match (named, slot) {
                    (_, Some(k)) => self.building_display.get(k).copied().flatten().filter(|&b| is(b)).map(|_| k),
                    (Named::AnyBuilding, None) => {
                        return Err("`move: \"building\"` from the building display needs `slot`".into());
                    }
                    _ => self.building_display.iter().position(|b| b.is_some_and(is)),
                };
                i.and_then(|i| self.building_display[i].take()).map(Card::Building)
            }
            Zone::Reserve(s) => match self.reserves.get_mut(s) {
                Some(reserve) => match (named, slot) {
                    (Named::AnyBuilding, None) => reserve.pop().map(Card::Building),
                    _ => reserve.iter().rposition(|&b| is(b)).map(|i| Card::Building(reserve.remove(i))),
                },
                None => None,
            },
            Zone::BuildingDeck => match self.building_deck.last() {
                Some(&b) if is(b) => {
                    self.building_deck.pop();
                    Some(Card::Building(b))
                }
                _ => None,
            },
            Zone::Out => None,
        })
    }

    /// Puts a card taken out into `to` (a display slot when given, else the
    /// display's end or first empty slot, else the building deck's top).
    fn put(&mut self, card: Card, to: Zone, slot: Option<usize>, bottom: bool) {
        let rs = Arc::clone(&self.rs);
        let turn = self.turns;
        match (card, to) {
            (Card::Money(m), Zone::Hand(s)) => self.players[s].gain_money(m),
            (Card::Money(m), Zone::MoneyDisplay) => {
                let at = slot.unwrap_or(self.money_display.len()).min(self.money_display.len());
                self.money_display.insert(at, m);
            }
            // The deck's top card is the last element.
            (Card::Money(m), Zone::MoneyDeck) if bottom => self.deck.insert(0, Draw::Money(m)),
            (Card::Money(m), Zone::MoneyDeck) => self.deck.push(Draw::Money(m)),
            (Card::Money(m), Zone::Discard) => self.discard.push(m),
            (Card::Money(m), _) => self.out.push(m),
            // A building from another collector keeps its history (when and how it was bought).
            (Card::Building(b), Zone::Buildings(s)) => {
                let (turn, exact) = self.history.take().unwrap_or((turn, false));
                self.players[s].add_building_with(&rs, b, turn, exact)
            }
            (Card::Building(b), Zone::Neutral) => {
                let (turn, exact) = self.history.take().unwrap_or((turn, false));
                self.neutral.as_mut().expect("checked: two players").add_building_with(&rs, b, turn, exact)
            }
            (Card::Building(b), Zone::BuildingDisplay) => {
                // An occupied slot was refused before the card left its place.
                let free = match slot {
                    Some(k) => Some(k),
                    None => self.building_display.iter().position(Option::is_none),
                };
                match free {
                    Some(k) => self.building_display[k] = Some(b),
                    None => self.building_deck.push(b),
                }
            }
            (Card::Building(b), Zone::Reserve(s)) => {
                if self.reserves.len() <= s {
                    self.reserves.resize(self.players.len(), Vec::new());
                }
                self.history = None; // a reserve holds no history: bought from it, a building is new
                self.reserves[s].push(b);
            }
            (Card::Building(b), Zone::BuildingDeck) if bottom => self.building_deck.insert(0, b),
            (Card::Building(b), Zone::BuildingDeck) => self.building_deck.push(b),
            (Card::Building(b), _) => self.set_aside.push(b),
        }
    }

    /// The log line of a move: a card leaving a hand is named only to that hand's seat.
    fn log_move(&mut self, by: &str, card: Card, from: Option<Zone>, to: Zone) {
        // A bot's game logs nothing: its texts are not even made.
        if !self.journal.logging() {
            return;
        }
        let from_text = from.map_or_else(|| "the building deck (drawn)".to_owned(), Zone::name);
        let id = match card {
            Card::Money(m) => self.rs.money_id(m),
            Card::Building(b) => self.rs.building(b).id.clone(),
        };
        let text = format!("{by}: {id} moves from {from_text} to {}", to.name());
        let secret: Vec<usize> = [from, Some(to)]
            .into_iter()
            .flatten()
            .filter_map(|z| if let Zone::Hand(s) = z { Some(s) } else { None })
            .collect();
        match from {
            Some(Zone::Hand(s)) => {
                let public = format!("{by}: {} moves from {from_text} to {}", n_cards(1), to.name());
                self.private_event(Some(s), &secret, || public, |_| text);
            }
            _ => self.event(None, |_| text),
        }
    }
}
