//! Cards moving: drawing (reshuffling the discard pile when the deck runs
//! out), taking from a hand.

use super::{DREW, Game, n_cards};
use crate::cards::CardIdx;
use crate::hooks::EventFacts;
use crate::rng;
use engine_play::seen::Seen;

impl Game {
    /// Draws the top card, reshuffling the discard pile into a new draw pile when empty.
    #[inline]
    pub(crate) fn draw(&mut self) -> Option<CardIdx> {
        if self.deck.is_empty() && !self.reshuffle() {
            return None;
        }
        self.deck.pop()
    }

    /// The discard pile shuffled into a new draw pile (the piles swap buffers,
    /// so neither is grown again); false when there is nothing to shuffle.
    #[inline(never)]
    fn reshuffle(&mut self) -> bool {
        if self.discard.is_empty() {
            return false;
        }
        std::mem::swap(&mut self.deck, &mut self.discard);
        rng::shuffle(&mut self.rng, &mut self.deck);
        self.event(None, |_| "the discard pile is shuffled into a new draw pile".into());
        true
    }

    /// Draws up to `n` cards into a hand for a rule of the game (`why`: the
    /// `drew` event's, such as "sold"); returns how many were drawn.
    pub(crate) fn draw_to_hand(&mut self, seat: usize, n: i32, why: &'static str) -> i32 {
        self.draw_for(seat, n, None, why)
    }

    /// Draws up to `n` cards into a hand because of the building `cause` (a well,
    /// a market hall…); returns how many were drawn.
    pub(crate) fn draw_from(&mut self, seat: usize, n: i32, cause: Option<CardIdx>) -> i32 {
        self.draw_for(seat, n, cause, "building")
    }

    fn draw_for(&mut self, seat: usize, n: i32, cause: Option<CardIdx>, why: &'static str) -> i32 {
        let mut drawn = 0;
        for _ in 0..n.max(0) {
            match self.draw() {
                Some(c) => {
                    self.players[seat].hand.push(c);
                    self.players[seat].gained += 1;
                    drawn += 1;
                }
                None => break,
            }
        }
        if drawn > 0 {
            // Drawn cards go to the hand unseen by the others: they learn the count.
            self.secret_event(seat, cause, |g| {
                let hand = &g.players[seat].hand;
                let ids = g.ids(&hand[hand.len() - drawn as usize..]);
                let head = match cause {
                    Some(c) => format!("seat {seat}: {} gives {}", g.name_of(c), n_cards(drawn)),
                    None => format!("seat {seat} draws {}", n_cards(drawn)),
                };
                (format!("{head}: {ids}"), head)
            });
            self.publish(DREW, |_| EventFacts { n: drawn, why, by: cause, ..EventFacts::new("drew", seat) });
        }
        drawn
    }

    /// Draws up to `n` cards face up to wait for a decision (councillor, gold mine);
    /// returns how many were drawn.
    pub(crate) fn draw_to_limbo(&mut self, n: i32) -> i32 {
        let mut drawn = 0;
        while drawn < n {
            let Some(c) = self.draw() else { break };
            self.limbo.push(c);
            drawn += 1;
        }
        drawn
    }

    /// Removes one card of a type from a hand.
    pub(crate) fn take_from_hand(&mut self, seat: usize, card: CardIdx) -> CardIdx {
        let hand = &mut self.players[seat].hand;
        let i = hand.iter().position(|&c| c == card).expect("legal action names a card in hand");
        hand.swap_remove(i)
    }

    /// Distinct card types in a list, in first-seen order.
    /// (An iterator, not a list: a builder turn and the bot's builder gain walk it once.)
    pub(crate) fn distinct(cards: impl IntoIterator<Item = CardIdx>) -> impl Iterator<Item = CardIdx> {
        let mut seen = Seen::default();
        cards.into_iter().filter(move |&c| seen.insert(usize::from(c)))
    }
}
