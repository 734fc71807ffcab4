//! The game around the moves: wins in every format, passes, threefold repetition,
//! draw offers, undo/redo (with the grouping used against computer seats) and saving.

use halma_test_support as common;

use common::reference::{self, RefPosition, RefSetup};
use common::{game_with, long_game, sq};
use halma_engine::protocol::status_line;
use halma_rules::{
    write_hpn, Action, DrawOffer, DrawReason, Game, GameError, IllegalMove, LoadError, Outcome, Position, Seat,
    SeatSet, Setup, VoteResult, MAX_ACTIONS,
};

/// The camp in `corner`'s corner for an army of `size`, without the `missing` squares,
/// as names.
fn camp_without(corner: char, size: usize, missing: &[&str]) -> String {
    let missing: Vec<_> = missing.iter().map(|m| reference::sq(m)).collect();
    let mut squares: Vec<_> = reference::camp(corner, size).into_iter().filter(|q| !missing.contains(q)).collect();
    squares.sort();
    squares.iter().map(|&q| reference::name(q)).collect::<Vec<_>>().join(" ")
}

/// Spare pieces for the seats that only need to be present, away from every camp.
fn bystander(seat: char) -> &'static str {
    match seat {
        'A' => "g7",
        'B' => "h8",
        'C' => "i9",
        _ => "j10",
    }
}

fn status(game: &Game) -> String {
    status_line(game)
}

#[test]
fn every_format_is_won_by_the_move_that_fills_the_target_camp() {
    // (setup, mover, camp corner, camp size, square left free, where the last piece
    // stands, the move that fills the camp, status afterwards)
    let cases = [
        (RefSetup::TwoPlayers, 'A', 'C', 19, "l16", "k16", "k16-l16", "status win A"),
        (RefSetup::TwoPlayers, 'C', 'A', 19, "e1", "f1", "f1-e1", "status win C"),
        (RefSetup::ThreePlayers, 'A', 'C', 19, "p12", "p11", "p11-p12", "status win A"),
        (RefSetup::ThreePlayers, 'B', 'D', 13, "m1", "l1", "l1-m1", "status win B"),
        (RefSetup::ThreePlayers, 'C', 'A', 19, "a5", "a6", "a6-a5", "status win C"),
        (RefSetup::FourOne, 'A', 'C', 13, "m16", "l16", "l16-m16", "status win A,C"),
        (RefSetup::FourOne, 'B', 'D', 13, "p4", "p5", "p5-p4", "status win B,D"),
        (RefSetup::FourOne, 'C', 'A', 13, "d1", "f1", "f1-d1", "status win A,C"),
        (RefSetup::FourOne, 'D', 'B', 13, "d16", "e16", "e16-d16", "status win B,D"),
    ];
    for (setup, mover, corner, size, missing, last, winning_move, expected) in cases {
        let army = format!("{} {last}", camp_without(corner, size, &[missing]));
        let mut pieces: Vec<(char, &str)> = vec![(mover, army.as_str())];
        for seat in setup.seats().into_iter().filter(|&seat| seat != mover) {
            pieces.push((seat, bystander(seat)));
        }
        if winning_move == "f1-d1" {
            // A piece to jump over: the last piece arrives with a jump.
            pieces.push(('B', "e1"));
        }
        let mut game = game_with(setup, mover, 0, &pieces);
        assert_eq!(status(&game), format!("status ongoing {mover}"), "{setup:?} {mover}");
        assert_eq!(game.play_text(winning_move), Ok(()), "{setup:?} {mover} {winning_move}");
        assert_eq!(status(&game), expected, "{setup:?} {mover}");
        assert!(game.legal_moves().is_empty() && !game.must_pass());
        assert_eq!(game.perft(1), 0);
        assert_eq!(game.perft(0), 1);
        // The reference model sees the same winners.
        let reference = RefPosition::from_pieces(setup, mover, 0, &pieces);
        let (from, to) = winning_move.split_once('-').expect("a two-square move");
        let after = reference.play((reference::sq(from), reference::sq(to)));
        assert_eq!(after.status(&[]), expected);
    }
}

#[test]
fn a_finished_game_refuses_actions_and_undo_reopens_it() {
    let army = format!("{} k16", camp_without('C', 19, &["l16"]));
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 0, &[('A', army.as_str()), ('C', "h8")]);
    assert_eq!(game.play_text("k16-l16"), Ok(()));
    assert_eq!(game.outcome(), Outcome::Win(SeatSet::single(Seat::A)));
    let finished = game.clone();
    assert_eq!(game.play_text("h8-h9"), Err(GameError::GameOver));
    assert_eq!(game.pass(), Err(GameError::GameOver));
    assert_eq!(game.offer_draw(), Err(GameError::GameOver));
    assert_eq!(game, finished);
    assert!(game.undo());
    assert_eq!(game.outcome(), Outcome::Ongoing);
    assert_eq!(game.to_move(), Seat::A);
    assert!(game.redo());
    assert_eq!(game, finished);
}

/// 4p-both: A's army fills C's camp; C's army fills A's camp but for d1, its last
/// piece on e1.
fn four_both_a_arrived(to_move: char) -> Game {
    let a_army = camp_without('C', 13, &[]);
    let c_army = format!("{} e1", camp_without('A', 13, &["d1"]));
    game_with(RefSetup::FourBoth, to_move, 0, &[('A', &a_army), ('C', &c_army), ('B', "h8"), ('D', "i9")])
}

#[test]
fn four_player_both_armies_needs_both_partners_home() {
    let game = four_both_a_arrived('A');
    assert_eq!(status(&game), "status ongoing A");
    // The same placement in 4p-one is already won by the team.
    let a_army = camp_without('C', 13, &[]);
    let c_army = format!("{} e1", camp_without('A', 13, &["d1"]));
    let one = game_with(RefSetup::FourOne, 'A', 0, &[('A', &a_army), ('C', &c_army), ('B', "h8"), ('D', "i9")]);
    assert_eq!(status(&one), "status win A,C");
    // The finished seat A moves its partner's pieces, and may finish the team's game.
    let mut game = four_both_a_arrived('A');
    assert_eq!(game.position().army_to_move(), Seat::C);
    assert!(game.legal_moves().iter().all(|mv| game.position().piece_at(mv.from) == Some(Seat::C)));
    assert_eq!(
        game.play_text("m16-l16"),
        Err(GameError::Illegal(IllegalMove::NoPieceToMove(sq("m16")))),
        "its own finished army stays put"
    );
    assert_eq!(game.play_text("e1-d1"), Ok(()));
    assert_eq!(status(&game), "status win A,C");
    // C itself can finish too.
    let mut game = four_both_a_arrived('C');
    assert_eq!(game.position().army_to_move(), Seat::C);
    assert_eq!(game.play_text("e1-d1"), Ok(()));
    assert_eq!(game.outcome(), Outcome::Win(SeatSet::team(Seat::A, Seat::C)));
    // B and D move their own pieces.
    let game = four_both_a_arrived('B');
    assert_eq!(game.legal_moves().count(), 8);
}

#[test]
fn a_finished_seat_passes_when_its_partner_cannot_move() {
    // A has arrived; C's only piece, on a1, is walled in by B's pieces.
    let a_army = camp_without('C', 13, &[]);
    let pieces = [('A', a_army.as_str()), ('C', "a1"), ('B', "a2 b1 b2 a3 c1 c3"), ('D', "j10")];
    let mut game = game_with(RefSetup::FourBoth, 'A', 0, &pieces);
    assert!(game.must_pass());
    assert_eq!(game.perft(1), 1);
    assert_eq!(game.pass(), Ok(()));
    assert_eq!(game.to_move(), Seat::B);
    assert_eq!(game.history(), &[Action::Pass]);
}

#[test]
fn a_seat_without_moves_passes_and_only_then() {
    let pieces = [('A', "a1"), ('C', "a2 b1 b2 a3 c1 c3")];
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert!(game.must_pass());
    assert!(game.legal_moves().is_empty());
    assert_eq!(status(&game), "status ongoing A");
    assert_eq!(game.play_text("a1-a2"), Err(GameError::Illegal(IllegalMove::Occupied(sq("a2")))));
    // A pass counts as one move: perft 2 is C's move count after the pass.
    let reference = RefPosition::from_pieces(RefSetup::TwoPlayers, 'A', 0, &pieces);
    let c_moves = reference.pass().legal_moves().len() as u64;
    assert_eq!(game.perft(1), 1);
    assert_eq!(game.perft(2), c_moves);
    assert_eq!(game.perft(3), reference.perft(&mut vec![reference.key()], 3));
    assert_eq!(game.play_forced_passes(), 1);
    assert_eq!(game.history(), &[Action::Pass]);
    assert_eq!(game.to_move(), Seat::C);
    assert_eq!(game.position().plies(), 1);
    assert!(!game.must_pass());
    assert_eq!(game.pass(), Err(GameError::Illegal(IllegalMove::PassWithMoves)));
    assert_eq!(game.play_text("pass"), Err(GameError::Illegal(IllegalMove::PassWithMoves)));
    assert_eq!(Game::new(Setup::TwoPlayers, Seat::A).pass(), Err(GameError::Illegal(IllegalMove::PassWithMoves)));
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 0, &[('A', "h8"), ('C', "h12")]);
    for (i, mv) in ["h8-h9", "h12-h13", "h9-h8", "h13-h12", "h8-h9", "h12-h13", "h9-h8"].iter().enumerate() {
        assert_eq!(game.play_text(mv), Ok(()), "move {i}");
        assert_eq!(game.outcome(), Outcome::Ongoing, "move {i}");
    }
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.play_text("h13-h12"), Ok(()));
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
    assert_eq!(status(&game), "status draw repetition");
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.perft(1), 0);
    assert_eq!(game.play_text("h8-h9"), Err(GameError::GameOver));
    assert!(game.undo());
    assert_eq!(game.outcome(), Outcome::Ongoing);
}

#[test]
fn repetition_is_counted_through_undo_and_redo() {
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 0, &[('A', "h8"), ('C', "h12")]);
    let cycle = ["h8-h9", "h12-h13", "h9-h8", "h13-h12"];
    for mv in cycle.iter().chain(&cycle) {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
    // Each undo forgets one occurrence of the position it leaves.
    let counts: Vec<usize> = (0..8).map(|_| (game.undo(), game.repetition_count()).1).collect();
    assert_eq!(counts, [2, 2, 2, 2, 1, 1, 1, 1]);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    // Redo counts them again, up to the draw (after which redo stops).
    let counts: Vec<usize> = (0..8).map(|_| (game.redo(), game.repetition_count()).1).collect();
    assert_eq!(counts, [1, 1, 1, 2, 2, 2, 2, 3]);
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
    assert!(!game.redo());
    // Back to the start and another way: the start placement is counted afresh.
    while game.undo() {}
    assert_eq!(game.repetition_count(), 1);
    for mv in ["h8-g8", "h12-h13", "g8-h8", "h13-h12"] {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.redo_list().count(), 0);
    for mv in cycle {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
    // A loaded save counts its history as the game did.
    let loaded = Game::from_json(&game.to_json());
    assert_eq!(loaded.as_ref().map(Game::repetition_count), Ok(3));
    assert_eq!(loaded, Ok(game));
}

#[test]
fn passes_count_toward_repetition() {
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 0, &[('A', "a1"), ('C', "a2 b1 b2 a3 c1 c3 h8")]);
    for (i, mv) in ["pass", "h8-h9", "pass", "h9-h8", "pass", "h8-h9", "pass"].iter().enumerate() {
        assert_eq!(game.play_text(mv), Ok(()), "action {i}");
        assert_eq!(game.outcome(), Outcome::Ongoing, "action {i}");
    }
    assert_eq!(game.play_text("h9-h8"), Ok(()));
    assert_eq!(status(&game), "status draw repetition");
}

#[test]
fn the_same_placement_with_another_seat_to_move_is_another_position() {
    // A walks a triangle (3 moves) while C goes back and forth (2 moves): the start
    // placement comes back with C to move.
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 0, &[('A', "h8"), ('C', "h12")]);
    let start = *game.position();
    for mv in ["h8-h9", "h12-h13", "h9-g9", "h13-h12", "g9-h8"] {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    let cycle = ["h12-h13", "h8-h9", "h13-h12", "h9-h8"];
    for mv in cycle {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    // The placement has now occurred three times (once with A to move, twice with C).
    assert_eq!(game.position().pieces(Seat::A), start.pieces(Seat::A));
    assert_eq!(game.position().pieces(Seat::C), start.pieces(Seat::C));
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    for mv in &cycle[..3] {
        assert_eq!(game.play_text(mv), Ok(()));
        assert_eq!(game.outcome(), Outcome::Ongoing);
    }
    // Perft sees the draw one move ahead: of A's 8 moves, h9-h8 ends the game.
    let mut history = vec![];
    let mut replay = RefPosition::from_pieces(RefSetup::TwoPlayers, 'A', 0, &[('A', "h8"), ('C', "h12")]);
    history.push(replay.key());
    for action in game.history() {
        let route: Vec<_> = action.to_string().split('-').map(reference::sq).collect();
        replay = replay.play((route[0], route[route.len() - 1]));
        history.push(replay.key());
    }
    assert_eq!(game.perft(2), 7 * 8);
    assert_eq!(replay.perft(&mut history, 2), 7 * 8);
    assert_eq!(game.play_text(cycle[3]), Ok(()));
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
}

#[test]
fn a_draw_is_agreed_when_every_other_seat_accepts_in_turn_order() {
    let mut game = Game::new(Setup::ThreePlayers, Seat::A);
    let before = game.clone();
    assert!(game.can_offer_draw());
    assert_eq!(game.offer_draw(), Ok(DrawOffer { offerer: Seat::A, accepted: SeatSet::EMPTY, awaiting: Seat::B }));
    assert_eq!(game.answer_draw(Seat::C, true), Err(GameError::NotYourVote { expected: Seat::B }));
    assert_eq!(game.play_text("e1-f1"), Err(GameError::OfferPending));
    assert_eq!(game.pass(), Err(GameError::OfferPending));
    assert_eq!(game.answer_draw(Seat::B, true), Ok(VoteResult::Next(Seat::C)));
    assert_eq!(game.pending_offer().map(|o| o.accepted), Some(SeatSet::single(Seat::B)));
    // Votes change no position, history or repetition count.
    assert_eq!(game.position(), before.position());
    assert_eq!(game.history(), before.history());
    assert_eq!(game.repetition_count(), 1);
    assert_eq!(game.answer_draw(Seat::C, true), Ok(VoteResult::Agreed));
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Agreement));
    assert_eq!(status(&game), "status draw agreement");
    assert_eq!(game.position(), before.position());
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.answer_draw(Seat::A, true), Err(GameError::NoOffer));
    // Undo cancels the agreement; there is no move to take back.
    assert!(game.undo());
    assert_eq!(game.outcome(), Outcome::Ongoing);
    assert_eq!(game.position(), before.position());
    assert!(game.history().is_empty());
}

#[test]
fn the_first_refusal_hands_the_turn_back_and_one_offer_per_turn() {
    let mut game = Game::new(Setup::FourPlayersOneArmy, Seat::A);
    assert_eq!(game.offer_draw().map(|o| o.awaiting), Ok(Seat::B));
    assert_eq!(game.answer_draw(Seat::B, true), Ok(VoteResult::Next(Seat::C)));
    assert_eq!(game.answer_draw(Seat::C, false), Ok(VoteResult::Refused));
    assert_eq!(game.pending_offer(), None);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    assert_eq!(game.to_move(), Seat::A);
    assert_eq!(game.answer_draw(Seat::D, true), Err(GameError::NoOffer));
    assert!(!game.can_offer_draw());
    assert_eq!(game.offer_draw(), Err(GameError::AlreadyOffered));
    assert_eq!(game.play_text("d1-e1"), Ok(()));
    // Next turn, next seat may offer; the second voter refusing ends it at once.
    assert_eq!(game.offer_draw().map(|o| (o.offerer, o.awaiting)), Ok((Seat::B, Seat::C)));
    assert_eq!(game.answer_draw(Seat::C, false), Ok(VoteResult::Refused));
    assert_eq!(game.to_move(), Seat::B);
    assert_eq!(game.history().len(), 1);
    // Two players: the single vote decides.
    let mut two = Game::new(Setup::TwoPlayers, Seat::C);
    assert_eq!(two.offer_draw().map(|o| o.awaiting), Ok(Seat::A));
    assert_eq!(two.answer_draw(Seat::A, true), Ok(VoteResult::Agreed));
    assert_eq!(two.outcome(), Outcome::Draw(DrawReason::Agreement));
}

#[test]
fn undo_passes_over_offers() {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    assert_eq!(game.play_text("e1-f1"), Ok(()));
    let after_move = game.clone();
    assert_eq!(game.offer_draw().map(|o| o.offerer), Ok(Seat::C));
    // Undo withdraws the pending offer and takes back the last real action.
    assert!(game.undo());
    assert_eq!(game.pending_offer(), None);
    assert!(game.history().is_empty());
    assert_eq!(game.to_move(), Seat::A);
    assert!(game.redo());
    assert_eq!(game.position(), after_move.position());
    assert_eq!(game.history(), after_move.history());
    // After the move is redone, C may offer again.
    assert!(game.can_offer_draw());
}

#[test]
fn undo_and_redo_walk_the_history_and_a_new_move_drops_the_redo_list() {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    let start = game.clone();
    assert!(!game.undo());
    assert!(!game.redo());
    for mv in ["e1-f1", "l16-k16", "d2-e3"] {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    let three = game.clone();
    assert!(game.undo() && game.undo());
    assert_eq!(game.history().len(), 1);
    let redo: Vec<String> = game.redo_list().map(ToString::to_string).collect();
    assert_eq!(redo, ["l16-k16", "d2-e3"]);
    assert!(game.redo() && game.redo());
    assert_eq!(game, three);
    assert!(!game.redo());
    assert!(game.undo() && game.undo() && game.undo());
    assert_eq!(game.position(), start.position());
    assert!(!game.undo());
    assert!(game.redo());
    assert_eq!(game.play_text("m14-l13"), Ok(()));
    assert_eq!(game.redo_list().count(), 0);
    assert!(!game.redo());
}

#[test]
fn undo_for_the_human_seats_takes_back_the_computer_replies_too() {
    // A human (A) against the computer (C).
    let human = SeatSet::single(Seat::A);
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    assert!(!game.undo_for(human), "nothing to undo yet");
    for mv in ["e1-f1", "l16-k16", "d2-e3", "k16-j15"] {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    assert!(game.undo_for(human));
    assert_eq!(game.history().iter().map(ToString::to_string).collect::<Vec<_>>(), ["e1-f1", "l16-k16"]);
    assert_eq!(game.to_move(), Seat::A);
    assert_eq!(game.redo_list().map(ToString::to_string).collect::<Vec<_>>(), ["d2-e3", "k16-j15"]);
    assert!(game.undo_for(human));
    assert!(game.history().is_empty());
    assert!(!game.undo_for(human));
    // Before the computer has answered, only the human move goes.
    for mv in ["e1-f1", "l16-k16", "d2-e3"] {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    assert!(game.undo_for(human));
    assert_eq!(game.history().len(), 2);
    // Three players, A and C human, B the computer: back to before C's last move.
    let humans = SeatSet::team(Seat::A, Seat::C);
    let mut game = Game::new(Setup::ThreePlayers, Seat::A);
    for mv in ["e1-f1", "a13-b12", "l16-k16", "f1-g1", "b12-c11"] {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    assert!(game.undo_for(humans));
    assert_eq!(game.history().len(), 3);
    assert_eq!(game.to_move(), Seat::A);
    // Computer seats only: undo_for finds nothing of theirs to take back first.
    let mut game = Game::new(Setup::TwoPlayers, Seat::C);
    assert_eq!(game.play_text("l16-k16"), Ok(()));
    assert!(!game.undo_for(human));
}

fn saved_game() -> Game {
    let mut game = Game::new(Setup::ThreePlayers, Seat::B);
    for mv in ["a13-b12", "l16-k16", "e1-f1", "b12-c11", "k16-j15"] {
        assert_eq!(game.play_text(mv), Ok(()));
    }
    assert!(game.undo() && game.undo());
    assert_eq!(game.offer_draw().map(|o| o.offerer), Ok(Seat::B));
    assert_eq!(game.answer_draw(Seat::C, true), Ok(VoteResult::Next(Seat::A)));
    game
}

#[test]
fn a_saved_game_loads_back_identical() {
    let game = saved_game();
    let json = game.to_json();
    assert_eq!(Game::from_json(&json), Ok(game.clone()));
    // An HPN start, a pass, and an agreed draw.
    let mut from_hpn = game_with(RefSetup::TwoPlayers, 'A', 7, &[('A', "a1"), ('C', "a2 b1 b2 a3 c1 c3 h8")]);
    assert_eq!(from_hpn.play_text("pass"), Ok(()));
    assert_eq!(from_hpn.offer_draw().map(|o| o.awaiting), Ok(Seat::A));
    assert_eq!(from_hpn.answer_draw(Seat::A, true), Ok(VoteResult::Agreed));
    let loaded = Game::from_json(&from_hpn.to_json());
    assert_eq!(loaded, Ok(from_hpn.clone()));
    assert_eq!(loaded.map(|g| g.outcome()), Ok(Outcome::Draw(DrawReason::Agreement)));
}

#[test]
fn every_malformed_save_is_refused() {
    let json = saved_game().to_json();
    let value: serde_json::Value = serde_json::from_str(&json).expect("own save is JSON");
    let edit = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut copy = value.clone();
        change(&mut copy);
        copy.to_string()
    };
    let bad = [
        ("not JSON", "{ nope".to_string()),
        ("empty", String::new()),
        ("wrong format", edit(&|v| v["format"] = "chess-game".into())),
        ("newer version", edit(&|v| v["version"] = 2.into())),
        ("unknown setup", edit(&|v| v["setup"] = "5p".into())),
        ("first seat not in play", edit(&|v| v["first"] = "D".into())),
        ("illegal move", edit(&|v| v["moves"][1] = "l16-l15".into())),
        ("malformed move", edit(&|v| v["moves"][0] = "a13-".into())),
        ("bad redo", edit(&|v| v["redo"][0] = "a1-a2".into())),
        ("redo not replayable in order", edit(&|v| v["redo"] = serde_json::json!(["k16-j15", "b12-c11"]))),
        ("offer by a seat not to move", edit(&|v| v["offer"]["offerer"] = "A".into())),
        ("votes out of order", edit(&|v| v["offer"]["accepted"] = serde_json::json!([]))),
        ("awaited seat is the offerer", edit(&|v| v["offer"]["awaiting"] = "B".into())),
        ("seat not in play", edit(&|v| v["offer"]["awaiting"] = "D".into())),
        ("offer and agreed draw", edit(&|v| v["agreed_draw"] = true.into())),
        (
            "start of another setup",
            edit(&|v| v["start"] = write_hpn(&Position::start(Setup::TwoPlayers, Seat::B)).into()),
        ),
        ("malformed start", edit(&|v| v["start"] = "16/16 A 2p 0".into())),
        ("moves not a list", edit(&|v| v["moves"] = serde_json::Value::Null)),
        (
            "moves missing",
            edit(&|v| {
                if let Some(fields) = v.as_object_mut() {
                    fields.remove("moves");
                }
            }),
        ),
    ];
    for (why, text) in bad {
        assert!(Game::from_json(&text).is_err(), "accepted a save with {why}: {text}");
    }
    // The untouched save still loads (the edits above are what breaks them).
    assert!(Game::from_json(&edit(&|_| ())).is_ok());
}

#[test]
fn a_game_holds_at_most_max_actions() {
    let mut game = long_game(MAX_ACTIONS, 25);
    let too_many = Err(GameError::TooManyActions { limit: MAX_ACTIONS });
    let Some(mv) = game.legal_moves().iter().next() else { panic!("no legal move at the cap") };
    assert_eq!(game.play_move(mv).map(|_| ()), too_many);
    assert_eq!(game.play_text("pass"), too_many);
    assert_eq!(
        game.play_move(mv).map(|_| ()).map_err(|e| e.to_string()),
        Err("the game already holds the most actions allowed (20000)".to_string())
    );
    assert_eq!(game.history().len(), MAX_ACTIONS);
    // Undo makes room; redo fills it again; a new move may replace the undone one.
    assert!(game.undo());
    assert!(game.redo());
    assert!(game.undo());
    let Some(other) = game.legal_moves().iter().next() else { panic!("no legal move") };
    assert!(game.play_move(other).is_ok());
    assert_eq!(game.history().len(), MAX_ACTIONS);

    // A save at the cap loads; one action more, in the history or the redo list, is refused.
    let json = game.to_json();
    assert_eq!(Game::from_json(&json).as_ref(), Ok(&game));
    let value: serde_json::Value = serde_json::from_str(&json).expect("own save is JSON");
    let mut over = value.clone();
    if let Some(moves) = over["moves"].as_array_mut() {
        moves.push("pass".into());
    }
    let error = Game::from_json(&over.to_string());
    assert_eq!(error, Err(LoadError::TooManyActions { actions: MAX_ACTIONS + 1, limit: MAX_ACTIONS }));
    assert_eq!(error.map_err(|e| e.to_string()), Err("20001 moves, more than the 20000 a game may hold".to_string()));
    let mut over = value;
    over["redo"] = serde_json::json!(["pass"]);
    assert_eq!(
        Game::from_json(&over.to_string()),
        Err(LoadError::TooManyActions { actions: MAX_ACTIONS + 1, limit: MAX_ACTIONS })
    );
}
