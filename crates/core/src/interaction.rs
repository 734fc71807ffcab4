//! What the player is doing on the board before a move is played: the selected piece,
//! the previewed route, the keyboard cursor and the pickers. Pure state, no Slint, so
//! zooming, rotating or resizing never touches it, and it is tested on its own.
//!
//! The rules engine decides every legality question; this only asks it.

use halma_rules::{Bitboard, Game, Move, Square};
use serde::{Deserialize, Serialize};

/// The selection and preview of the local player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interaction {
    /// The keyboard cursor (always on the board).
    pub cursor: Square,
    /// The piece chosen to move.
    pub selected: Option<Square>,
    /// The previewed route: the start square then every landing. Empty: no preview.
    pub route: Vec<Square>,
    /// True when the preview came from a hint (shown as a suggestion).
    pub from_hint: bool,
}

impl Default for Interaction {
    fn default() -> Interaction {
        Interaction { cursor: Square::from_index(0), selected: None, route: Vec::new(), from_hint: false }
    }
}

/// What a tap or Enter did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TapResult {
    Nothing,
    Selected,
    Deselected,
    Previewed,
    Extended,
    CutBack,
    /// Enter on the end square of a confirmable preview: play it.
    Confirm(Vec<Square>),
}

impl Interaction {
    /// True when a route is previewed.
    pub fn has_preview(&self) -> bool {
        self.route.len() >= 2
    }

    /// The previewed move, if any.
    pub fn preview_move(&self) -> Option<Move> {
        self.has_preview().then(|| Move { from: self.route[0], to: self.route[self.route.len() - 1] })
    }

    /// How many jumps the previewed route makes: 0 for a step or when nothing is previewed.
    pub fn preview_jumps(&self) -> usize {
        if !self.has_preview() || halma_rules::Route::new(self.route.clone()).is_step() {
            0
        } else {
            self.route.len() - 1
        }
    }

    /// True when the previewed route is a legal move to play now (the duty may forbid
    /// stopping on some landings of a chain).
    pub fn can_confirm(&self, game: &Game) -> bool {
        self.has_preview() && game.position().check_route(&self.route).is_ok() && !game.is_over()
    }

    /// Drops selection and preview (after a move, undo, new game).
    pub fn clear(&mut self) {
        self.selected = None;
        self.route.clear();
        self.from_hint = false;
    }

    /// Escape / back: drops the preview, else the selection. False when nothing was dropped.
    pub fn cancel(&mut self) -> bool {
        if self.has_preview() {
            self.route.clear();
            self.from_hint = false;
            true
        } else {
            self.selected.take().is_some()
        }
    }

    /// The destinations of the selected piece.
    pub fn destinations(&self, game: &Game) -> Bitboard {
        self.selected.map_or(Bitboard::EMPTY, |from| game.legal_moves().destinations(from))
    }

    /// Squares one more jump can reach from the end of the previewed chain.
    pub fn extensions(&self, game: &Game) -> Bitboard {
        if !self.has_preview() || self.is_step(game) {
            return Bitboard::EMPTY;
        }
        game.position().jump_extensions(&self.route).unwrap_or(Bitboard::EMPTY)
    }

    fn is_step(&self, game: &Game) -> bool {
        self.route.len() == 2 && game.position().step_destinations(self.route[0]).contains(self.route[1])
    }

    /// Pieces the seat to move may move now, in square order.
    pub fn movable_pieces(game: &Game) -> Vec<Square> {
        game.legal_moves().pieces().iter().map(|&(from, _)| from).collect()
    }

    fn select(&mut self, square: Square) -> TapResult {
        self.selected = Some(square);
        self.route.clear();
        self.from_hint = false;
        TapResult::Selected
    }

    fn preview(&mut self, game: &Game, from: Square, to: Square) -> TapResult {
        match game.position().route(Move { from, to }) {
            Some(route) => {
                self.selected = Some(from);
                self.route = route.squares().to_vec();
                self.from_hint = false;
                TapResult::Previewed
            }
            None => TapResult::Nothing,
        }
    }

    /// A tap (or click) on `square`. `can_act` is false while the local player may not
    /// move (computer's turn, animation, game over): then only the cursor follows.
    pub fn tap(&mut self, game: &Game, square: Square, can_act: bool) -> TapResult {
        self.cursor = square;
        if !can_act {
            return TapResult::Nothing;
        }
        let moves = game.legal_moves();
        if self.has_preview() {
            if let Some(index) = self.route.iter().position(|&s| s == square) {
                if index == 0 {
                    self.route.clear();
                    self.from_hint = false;
                    return TapResult::CutBack;
                }
                if index + 1 < self.route.len() {
                    self.route.truncate(index + 1);
                    self.from_hint = false;
                    return TapResult::CutBack;
                }
                return TapResult::Nothing;
            }
            if self.extensions(game).contains(square) {
                self.route.push(square);
                self.from_hint = false;
                return TapResult::Extended;
            }
        }
        if let Some(from) = self.selected {
            if moves.destinations(from).contains(square) {
                return self.preview(game, from, square);
            }
            // The first landing of a chain that may not end there (the home-leaving duty
            // forbids stopping still at home): the chain is built on from it, as from any
            // later landing, and Confirm waits for a landing that may end the move.
            if game.position().jump_extensions(&[from]).is_ok_and(|landings| landings.contains(square)) {
                self.route = vec![from, square];
                self.from_hint = false;
                return TapResult::Previewed;
            }
            if square == from {
                self.clear();
                return TapResult::Deselected;
            }
        }
        if !moves.destinations(square).is_empty() {
            return self.select(square);
        }
        if self.selected.is_some() && !self.has_preview() {
            self.clear();
            return TapResult::Deselected;
        }
        TapResult::Nothing
    }

    /// Enter: confirms a confirmable preview when the cursor is on its end square,
    /// otherwise acts like a tap on the cursor square.
    pub fn enter(&mut self, game: &Game, can_act: bool) -> TapResult {
        if can_act && self.has_preview() && self.route.last() == Some(&self.cursor) && self.can_confirm(game) {
            return TapResult::Confirm(self.route.clone());
        }
        self.tap(game, self.cursor, can_act)
    }

    /// Moves the cursor by a board direction (the view turns screen arrows into these).
    pub fn move_cursor(&mut self, columns: i32, rows: i32) {
        let column = (self.cursor.column() + columns).clamp(0, 15);
        let row = (self.cursor.row() + rows).clamp(0, 15);
        self.cursor = Square::from_coords(column, row).unwrap_or(self.cursor);
    }

    /// Picker: choose the piece at `index` of `movable_pieces`.
    pub fn pick_piece(&mut self, game: &Game, index: usize) -> TapResult {
        match Interaction::movable_pieces(game).get(index) {
            Some(&square) => {
                self.cursor = square;
                self.select(square)
            }
            None => TapResult::Nothing,
        }
    }

    /// The selected piece's destinations with their shortest routes, in square order.
    pub fn destination_routes(&self, game: &Game) -> Vec<Vec<Square>> {
        let Some(from) = self.selected else { return Vec::new() };
        self.destinations(game)
            .squares()
            .filter_map(|to| game.position().route(Move { from, to }).map(|r| r.squares().to_vec()))
            .collect()
    }

    /// Picker: preview the destination at `index` of `destination_routes`.
    pub fn pick_destination(&mut self, game: &Game, index: usize) -> TapResult {
        let Some(from) = self.selected else { return TapResult::Nothing };
        match self.destinations(game).squares().nth(index) {
            Some(to) => {
                self.cursor = to;
                self.preview(game, from, to)
            }
            None => TapResult::Nothing,
        }
    }

    /// Shows a hint as a preview labelled as a suggestion.
    pub fn show_hint(&mut self, game: &Game, route: &[Square]) -> bool {
        // A hint may be the start of a chain whose first landing is still in the home camp
        // (no legal end under the home-leaving duty): shown as a tap would build it.
        let partial_chain = route.len() >= 2 && game.position().jump_extensions(route).is_ok();
        if game.position().check_route(route).is_err() && !partial_chain {
            return false;
        }
        self.selected = route.first().copied();
        self.route = route.to_vec();
        self.from_hint = true;
        if let Some(&end) = route.last() {
            self.cursor = end;
        }
        true
    }

    /// Keeps only what is still valid for `game` (after undo, loading a save, a move by
    /// another seat): a selection of a movable piece and a preview whose hops are legal.
    pub fn revalidate(&mut self, game: &Game, can_act: bool) {
        if !can_act {
            self.clear();
            return;
        }
        let moves = game.legal_moves();
        if let Some(from) = self.selected {
            if moves.destinations(from).is_empty() {
                self.clear();
                return;
            }
        }
        if self.has_preview() {
            let valid_hops = self.selected == Some(self.route[0])
                && (game.position().check_route(&self.route).is_ok()
                    || game.position().jump_extensions(&self.route).is_ok());
            if !valid_hops {
                self.route.clear();
                self.from_hint = false;
            }
        } else if !self.route.is_empty() {
            self.route.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::{parse_hpn, sq, Seat, Setup};

    fn game_from(hpn: &str) -> Game {
        Game::from_position(parse_hpn(hpn).unwrap_or(halma_rules::Position::start(Setup::TwoPlayers, Seat::A)))
    }

    /// A at c3 with pieces to jump on d4, f5 and d3; C far away.
    fn chain_game() -> Game {
        // Row 5: e5? we place B.. only A/C in 2p: A pieces at c3, d4 (own piece), C at f5 and e3.
        game_from("16/16/16/16/16/16/16/16/16/16/16/5C10/3A12/2A1C11/16/15C A 2p 0")
    }

    #[test]
    fn tap_select_preview_and_confirm_a_step() {
        let mut game = Game::new(Setup::TwoPlayers, Seat::A);
        let mut ui = Interaction::default();
        assert_eq!(ui.tap(&game, sq("e2"), true), TapResult::Selected);
        assert_eq!(ui.tap(&game, sq("f3"), true), TapResult::Previewed);
        assert_eq!(ui.route, vec![sq("e2"), sq("f3")]);
        assert_eq!(ui.preview_jumps(), 0, "a step");
        assert!(ui.can_confirm(&game));
        ui.cursor = sq("f3");
        let TapResult::Confirm(route) = ui.enter(&game, true) else { panic!("enter should confirm") };
        assert!(game.play_route(&route).is_ok());
        assert_eq!(game.history().len(), 1);
    }

    #[test]
    fn chains_extend_hop_by_hop_and_cut_back() {
        let game = chain_game();
        let mut ui = Interaction::default();
        assert_eq!(ui.tap(&game, sq("c3"), true), TapResult::Selected);
        // c3 over d4 to e5: one jump.
        assert_eq!(ui.tap(&game, sq("e5"), true), TapResult::Previewed);
        assert_eq!(ui.route, vec![sq("c3"), sq("e5")]);
        assert_eq!(ui.preview_jumps(), 1);
        // From e5 over f5 to g5: extends the chain.
        assert!(ui.extensions(&game).contains(sq("g5")));
        assert_eq!(ui.tap(&game, sq("g5"), true), TapResult::Extended);
        assert_eq!(ui.route, vec![sq("c3"), sq("e5"), sq("g5")]);
        assert_eq!(ui.preview_jumps(), 2);
        // Tapping an earlier landing cuts back.
        assert_eq!(ui.tap(&game, sq("e5"), true), TapResult::CutBack);
        assert_eq!(ui.route, vec![sq("c3"), sq("e5")]);
        // An illegal square does nothing to the preview.
        assert_eq!(ui.tap(&game, sq("h9"), true), TapResult::Nothing);
        assert_eq!(ui.route, vec![sq("c3"), sq("e5")]);
        assert!(ui.cancel());
        assert!(!ui.has_preview());
        assert_eq!(ui.selected, Some(sq("c3")));
        assert!(ui.cancel());
        assert!(!ui.cancel());
    }

    #[test]
    fn a_chain_starts_on_a_landing_where_it_may_not_end() {
        // A's 31st turn with pieces at home: a move must bring one out. b1 jumps c1 to d1,
        // still at home, so no move ends there, then e1 to f1, outside.
        let game = game_from("15C/16/16/16/16/16/16/16/16/16/16/16/5A10/3CC11/16/1AC1A11 A 2p 60");
        assert!(game.position().duty_applies());
        assert!(!game.legal_moves().destinations(sq("b1")).contains(sq("d1")));
        let mut ui = Interaction::default();
        assert_eq!(ui.tap(&game, sq("b1"), true), TapResult::Selected);
        assert_eq!(ui.tap(&game, sq("d1"), true), TapResult::Previewed);
        assert_eq!(ui.route, vec![sq("b1"), sq("d1")]);
        assert!(!ui.can_confirm(&game), "the move may not end at home");
        ui.revalidate(&game, true);
        assert_eq!(ui.route, vec![sq("b1"), sq("d1")], "a landing to build on is kept");
        assert_eq!(ui.tap(&game, sq("f1"), true), TapResult::Extended);
        assert_eq!(ui.route, vec![sq("b1"), sq("d1"), sq("f1")]);
        assert!(ui.can_confirm(&game));
        // A square no jump reaches is still no landing: the selection goes.
        assert_eq!(ui.tap(&game, sq("b1"), true), TapResult::CutBack);
        assert_eq!(ui.tap(&game, sq("h1"), true), TapResult::Deselected);
    }

    #[test]
    fn nothing_happens_when_the_player_may_not_act() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let mut ui = Interaction::default();
        assert_eq!(ui.tap(&game, sq("e2"), false), TapResult::Nothing);
        assert_eq!(ui.selected, None);
        assert_eq!(ui.cursor, sq("e2"));
        // Opponent pieces are not selectable.
        assert_eq!(ui.tap(&game, sq("p16"), true), TapResult::Nothing);
        assert_eq!(ui.selected, None);
    }

    #[test]
    fn pickers_preview_like_taps() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let mut ui = Interaction::default();
        let pieces = Interaction::movable_pieces(&game);
        let index = pieces.iter().position(|&s| s == sq("c1")).unwrap_or(usize::MAX);
        assert_eq!(ui.pick_piece(&game, index), TapResult::Selected);
        let routes = ui.destination_routes(&game);
        assert_eq!(routes, vec![vec![sq("c1"), sq("e3")]]);
        assert_eq!(ui.pick_destination(&game, 0), TapResult::Previewed);
        assert_eq!(ui.route, vec![sq("c1"), sq("e3")]);
        assert_eq!(ui.pick_destination(&game, 5), TapResult::Nothing);
        assert_eq!(ui.pick_piece(&game, 99), TapResult::Nothing);
    }

    #[test]
    fn cursor_stays_on_the_board_and_enter_selects() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let mut ui = Interaction::default();
        ui.move_cursor(-1, -1);
        assert_eq!(ui.cursor, sq("a1"));
        ui.move_cursor(3, 1);
        assert_eq!(ui.cursor, sq("d2"));
        assert_eq!(ui.enter(&game, true), TapResult::Selected);
        ui.move_cursor(0, 2);
        assert_eq!(ui.enter(&game, true), TapResult::Previewed);
        assert_eq!(ui.route, vec![sq("d2"), sq("d4")]);
        let TapResult::Confirm(route) = ui.enter(&game, true) else { panic!("should confirm") };
        assert_eq!(route, vec![sq("d2"), sq("d4")]);
    }

    #[test]
    fn revalidate_drops_what_no_longer_fits() {
        let mut game = Game::new(Setup::TwoPlayers, Seat::A);
        let mut ui = Interaction::default();
        ui.tap(&game, sq("e2"), true);
        ui.tap(&game, sq("f3"), true);
        let kept = ui.clone();
        ui.revalidate(&game, true);
        assert_eq!(ui, kept);
        assert!(game.play_text("e2-f3").is_ok());
        ui.revalidate(&game, false);
        assert_eq!(ui.selected, None);
        assert!(!ui.has_preview());
    }
}
