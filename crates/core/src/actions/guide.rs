//! The first-game guide's actions (#39 item 5): opening it (at a newcomer's first start,
//! or from the menu), its board and action-bar events run on the guide's own session
//! (covering the live game for the one action, as the Train page's do: `boards`), and Skip, Esc, Back and
//! Done, which end it for good. While it runs the live game is left as it was: nothing of
//! it thinks, moves or is reviewed, and it is saved as ever (unchanged); the guide's game
//! is never saved, so quitting in the middle loses nothing.

use super::{act, Event};
use crate::boards::Cover;
use crate::effects::Effects;
use crate::guide::{Guide, Seen};
use crate::state::{AppState, Facts};

/// Opens the guide over the game page at its first step (again from the start if it runs).
pub(super) fn open(state: &mut AppState) -> Effects {
    state.animation = None;
    state.touch.forget();
    state.ui.set_menu_open(false);
    state.ui.open_guide();
    state.guide = Some(Guide::new());
    // The live game's seat and the hint stop thinking; the seat starts again at the end.
    Effects { stop_search: true, ..Effects::redraw() }
}

/// At the start: a newcomer (no saved game, the guide never seen or skipped, nothing
/// wrong with the saves) gets the guide. A player with a saved game never has it forced
/// on them, whatever the settings say (a settings file from before the guide has none).
pub(super) fn at_start(state: &mut AppState, saved_game: bool) -> Effects {
    let newcomer = !saved_game && !state.settings.guide_seen && state.messages.load_problems.is_empty();
    if state.offer_guide && newcomer {
        open(state)
    } else {
        Effects::none()
    }
}

/// Skip, Esc, Back or Done: the guide ends and opens by itself no more; the page shows
/// the live game as it was (the new-game screen if there is none yet).
pub(super) fn close(state: &mut AppState) -> Effects {
    if state.guide.take().is_none() {
        return Effects::none();
    }
    state.animation = None;
    state.touch.forget();
    state.ui.set_menu_open(false);
    state.ui.close_guide();
    state.settings.guide_seen = true;
    Effects::saved()
}

/// An event while the guide runs.
pub(super) fn on_event(state: &mut AppState, facts: &Facts, event: Event) -> Effects {
    use Event::*;
    match event {
        Escape | Back | SkipGuide | FinishGuide => close(state),
        OpenGuide => open(state),
        // The board and the action bar play the guide's game.
        Tap { .. } | TouchTap { .. } | Arrow { .. } | Enter | Confirm | Cancel | Redo => on_board(state, facts, event),
        TouchHold { .. } | TouchHoldEnded => on_board(state, facts, event),
        // The guide's own undo, whatever the live game is (a game by message keeps its
        // friend's moves from undo).
        Undo => on_guide_game(state, super::play::undo),
        PickPiece(_) | PickDestination(_) => on_board(state, facts, event),
        Zoom { .. } | ZoomFit | Rotate { .. } | Panned { .. } | ViewportResized { .. } | Pinch { .. } => {
            on_board(state, facts, event)
        }
        GestureEnded => on_board(state, facts, event),
        // Nothing of the live game starts or answers meanwhile: a search that ends now
        // is dropped (the seat to move thinks again once the guide ends).
        SearchFinished(_) | Hint | OfferDraw | AnswerDraw(_) | AnswerQuestion(_) | RetryComputer => Effects::none(),
        StartProgram | PlayProgramSeat | ReviewStep(_) | ReviewAt(_) | ShowPosition(_) => Effects::none(),
        Analyse | SetSummaryOpen(_) => Effects::none(),
        // Another page, or the game replaced, set up or copied: the guide ends, then it
        // happens.
        Restored(_) | Begin(_) | ShowPage(_) | GoBack | SetUp | Start | Resume | Restart | NewGame => {
            close(state).and(act(state, facts, event))
        }
        CopyGame { .. } | OpenImport | Import { .. } | OpenTrain { .. } | TrainDaily { .. } | PractiseMistakes => {
            close(state).and(act(state, facts, event))
        }
        // Anything else as ever (time passing, the menu, the settings, what background jobs
        // report); then the guide looks again (the menu step, the end of a move shown).
        other => {
            let effects = act(state, facts, other);
            observe(state);
            effects
        }
    }
}

/// A board or action-bar event: the ordinary action on the guide's session; then the
/// guide looks at what it did.
fn on_board(state: &mut AppState, facts: &Facts, event: Event) -> Effects {
    on_guide_game(state, |state| act(state, facts, event))
}

/// `action` on the guide's session, covering the live game for that action (`boards`).
fn on_guide_game(state: &mut AppState, action: impl FnOnce(&mut AppState) -> Effects) -> Effects {
    let Some(mut guide) = state.guide.take() else { return Effects::none() };
    let effects = state.on_covering_board(Cover::Guide, guide.session_mut(), action);
    state.guide = Some(guide);
    observe(state);
    effects.and(Effects::redraw())
}

/// The guide looks at its session (and the menu, and the move being shown).
fn observe(state: &mut AppState) {
    let seen = Seen { menu_open: state.ui.menu_open(), animating: state.animation.is_some() };
    if let Some(guide) = &mut state.guide {
        guide.observe(seen);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::update;
    use crate::effects::Save;
    use crate::guide::Step;
    use crate::interface::Page;
    use crate::saving::Started;
    use crate::session::{GameConfig, Session};
    use crate::storage::{document_text, SESSION};
    use halma_rules::{sq, Square};

    fn send(state: &mut AppState, event: Event) -> Effects {
        update(state, &Facts::default(), event)
    }

    /// A tap on `square` of the board as shown (the guide's game while the guide runs).
    fn tap(state: &mut AppState, square: Square) -> Effects {
        let session = state.guide.as_ref().map_or(&state.session, Guide::session);
        let (x, y) = session.view().display_cell(square);
        send(state, Event::Tap { x, y })
    }

    /// Lets the move being shown arrive, hop by hop.
    fn arrive(state: &mut AppState) {
        while state.animation.is_some() {
            send(state, Event::AnimationStep);
        }
    }

    fn step(state: &AppState) -> Option<Step> {
        state.guide.as_ref().map(Guide::step)
    }

    /// A game in progress with a piece selected, as saved.
    fn playing() -> (AppState, String) {
        let mut state = AppState::default();
        send(&mut state, Event::Begin(Box::new(Session::new(GameConfig::default()))));
        send(&mut state, Event::Tap { x: 4, y: 14 });
        assert_eq!(state.session.interaction().selected, Some(sq("e2")));
        let saved = document_text(SESSION, &state.session).unwrap_or_default();
        (state, saved)
    }

    fn started(session: Option<Session>) -> Event {
        Event::Restored(Box::new(Started { session, ..Started::default() }))
    }

    #[test]
    fn a_newcomer_gets_the_guide_at_the_start_a_player_with_a_game_does_not() {
        let mut state = AppState::default();
        send(&mut state, started(None));
        assert_eq!((step(&state), state.ui.page()), (Some(Step::Select), Page::Game), "over the game page");
        // A settings file from before the guide (no field: not seen), with a saved game.
        let mut state = AppState::default();
        send(&mut state, started(Some(Session::new(GameConfig::default()))));
        assert_eq!((step(&state), state.ui.page()), (None, Page::Game));
        // Seen or skipped once: never again by itself.
        let mut state = AppState::default();
        let settings = crate::settings::Settings { guide_seen: true, ..Default::default() };
        send(&mut state, Event::Restored(Box::new(Started { settings, ..Started::default() })));
        assert_eq!((step(&state), state.ui.page()), (None, Page::NewGame));
        // Tests and tools that start on fresh folders.
        let mut state = AppState { offer_guide: false, ..AppState::default() };
        send(&mut state, started(None));
        assert_eq!(step(&state), None);
    }

    /// The whole guide through the actions, as a newcomer does it; the live game, its
    /// selection and its save are the same at the end.
    #[test]
    fn the_guide_plays_its_own_game_and_leaves_the_live_one_as_it_was() {
        let (mut state, saved) = playing();
        let effects = send(&mut state, Event::OpenGuide);
        assert!(effects.stop_search, "the live game's seat stops thinking");
        assert_eq!((step(&state), state.ui.page(), state.ui.menu_open()), (Some(Step::Select), Page::Game, false));
        tap(&mut state, sq("b2"));
        assert_eq!(step(&state), Some(Step::PreviewStep));
        tap(&mut state, sq("c3"));
        assert_eq!(step(&state), Some(Step::Confirm));
        let effects = send(&mut state, Event::Confirm);
        assert!(effects.animate && !effects.stop_search);
        assert_eq!(step(&state), Some(Step::Jump));
        arrive(&mut state);
        tap(&mut state, sq("c3"));
        tap(&mut state, sq("e5"));
        assert_eq!(step(&state), Some(Step::Chain));
        tap(&mut state, sq("g5"));
        assert_eq!(step(&state), Some(Step::CutBack));
        tap(&mut state, sq("e5"));
        assert_eq!(step(&state), Some(Step::CutBack), "the cut chain is shown, to be confirmed");
        send(&mut state, Event::Confirm);
        arrive(&mut state);
        assert_eq!(step(&state), Some(Step::Goal));
        tap(&mut state, sq("m13"));
        tap(&mut state, sq("n14"));
        send(&mut state, Event::Confirm);
        arrive(&mut state);
        assert_eq!(step(&state), Some(Step::Undo));
        send(&mut state, Event::Hint);
        assert_eq!(step(&state), Some(Step::Undo), "Hint does nothing here");
        send(&mut state, Event::Undo);
        assert_eq!(step(&state), Some(Step::Menu));
        send(&mut state, Event::SetMenuOpen(true));
        assert_eq!(step(&state), Some(Step::Menu));
        send(&mut state, Event::SetMenuOpen(false));
        assert_eq!(step(&state), Some(Step::Done));
        let effects = send(&mut state, Event::FinishGuide);
        assert_eq!(effects.save, Save::Now, "the settings remember it");
        assert!(state.guide.is_none() && state.settings.guide_seen && !state.ui.menu_open());
        assert_eq!(state.ui.page(), Page::Game);
        assert_eq!(document_text(SESSION, &state.session).unwrap_or_default(), saved, "the live game as it was");
        assert_eq!(state.session.interaction().selected, Some(sq("e2")), "its selection too");
    }

    #[test]
    fn skip_esc_and_back_end_it_at_any_step_and_nothing_else_does_by_accident() {
        for leave in [Event::SkipGuide, Event::Escape, Event::Back] {
            let (mut state, saved) = playing();
            send(&mut state, Event::OpenGuide);
            tap(&mut state, sq("d2"));
            tap(&mut state, sq("e3"));
            assert_eq!(step(&state), Some(Step::Confirm));
            let effects = send(&mut state, leave);
            assert!(!effects.let_system_close, "Back ends the guide, not the app");
            assert!(state.guide.is_none() && state.settings.guide_seen);
            assert_eq!(document_text(SESSION, &state.session).unwrap_or_default(), saved);
        }
        // Review, a draw offer, the analysis: nothing of the live game from the guide.
        let (mut state, saved) = playing();
        send(&mut state, Event::OpenGuide);
        for event in
            [Event::OfferDraw, Event::ReviewStep(crate::interface::ReviewStep::Back), Event::Analyse, Event::Hint]
        {
            assert_eq!(send(&mut state, event), Effects::none());
        }
        assert_eq!((step(&state), state.ui.in_review()), (Some(Step::Select), false));
        // Another page ends it first.
        send(&mut state, Event::ShowPage(Page::Rules));
        assert_eq!((state.guide.is_some(), state.ui.page()), (false, Page::Rules));
        assert_eq!(document_text(SESSION, &state.session).unwrap_or_default(), saved);
    }

    #[test]
    fn without_a_game_the_guide_ends_on_the_new_game_screen() {
        let mut state = AppState::default();
        send(&mut state, started(None));
        assert_eq!(state.ui.page(), Page::Game);
        assert!(!state.ui.has_game(), "the guide's game is not a game to resume");
        send(&mut state, Event::SkipGuide);
        assert_eq!(state.ui.page(), Page::NewGame);
    }

    #[test]
    fn the_view_changes_on_the_guides_board_only() {
        let (mut state, _) = playing();
        let view = *state.session.view();
        send(&mut state, Event::OpenGuide);
        send(&mut state, Event::Zoom { zoom_in: true, anchor_x: 0.5, anchor_y: 0.5 });
        assert_eq!(*state.session.view(), view);
        let zoomed = state.guide.as_ref().map(|guide| guide.session().view().zoom);
        assert!(zoomed.is_some_and(|zoom| zoom > 1.0));
    }
}
