//! Between game records and sessions: the current game as a record (Copy game, with who
//! plays each seat and the analysis as comments), and the session of an imported record.
//! No interface here: the app's import and export actions call these.

use super::session::{GameConfig, Player, Session};
use halma_ai::analysis::GameAnalysis;
use halma_record::{date_of_unix_time, Record};

/// The current game as a record, with who plays each seat (an engine program by its
/// command line `program`) and today's date.
pub fn record_of(session: &Session, program: &str, unix_time: u64) -> Record {
    let mut record = Record::new(session.game().clone());
    for &seat in session.game().setup().seats() {
        record.players[seat] = Some(session.config().player(seat).recorded(program));
    }
    if let Some(analysis) = session.analysis() {
        record.set_analysis(analysis);
    }
    record.date = Some(date_of_unix_time(unix_time));
    record
}

/// The game of a record with its players (another program's seat is played by a person).
pub fn session_of(record: Record) -> Option<Session> {
    // An analysis in the comments comes with the game, shown at once; a damaged one is told.
    let claims_analysis = record.claims_analysis();
    let analysis = record
        .analysis()
        .and_then(|recorded| GameAnalysis::from_verdicts(&record.game, recorded.quality, recorded.actions));
    let game = record.game;
    let players = record.players.map(|recorded| match recorded.map(Player::try_from) {
        Some(Ok(recorded)) => recorded,
        _ => Player::Human,
    });
    let config = GameConfig { setup: game.setup(), first: game.first_seat(), players };
    let mut session = Session::with_game(config, game).ok()?;
    match analysis {
        Some(analysis) => {
            session.set_analysis(analysis);
        }
        None if claims_analysis => session.note_unreadable_analysis(),
        None => {}
    }
    Some(session)
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_ai::Level;
    use halma_rules::{Seat, Setup, Square};

    #[test]
    fn a_record_round_trip_keeps_the_game_and_its_players() {
        let config = GameConfig {
            setup: Setup::ThreePlayers,
            first: Seat::B,
            players: [Player::Human, Player::Computer(Level::Strong), Player::Human, Player::Human].into(),
        };
        let mut session = Session::new(config);
        let square = |name: &str| name.parse::<Square>().unwrap_or(Square::from_index(0));
        assert!(session.play_route(&[square("b13"), square("c12")]).is_ok());
        let record = record_of(&session, "", 0);
        assert_eq!(record.date.as_deref(), Some("1970.01.01"));
        let back = Record::parse(&record.to_text()).ok().and_then(session_of);
        let back = back.expect("the record reads back");
        assert_eq!(back.game(), session.game());
        assert_eq!(back.config(), session.config());
    }

    #[test]
    fn an_engine_program_is_recorded_by_its_command_and_imported_as_a_person() {
        let config = GameConfig {
            setup: Setup::TwoPlayers,
            first: Seat::A,
            players: [Player::Human, Player::Human, Player::Program, Player::Human].into(),
        };
        let text = record_of(&Session::new(config), " /usr/bin/some-engine --fast ", 0).to_text();
        assert!(text.contains("[C \"Program /usr/bin/some-engine --fast\"]"), "{text}");
        let back = Record::parse(&text).ok().and_then(session_of).expect("the record reads back");
        assert_eq!(back.config().player(Seat::C), Player::Human, "this app's program may not be the record's");
    }

    /// Copy game writes the analysis as comments; importing that record shows it at once.
    #[test]
    fn an_analysed_game_travels_with_its_analysis() {
        use halma_ai::analysis::{self, AnalysisRequest, Quality};
        let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
        let mut session = Session::new(config);
        let square = |name: &str| name.parse::<Square>().unwrap_or(Square::from_index(0));
        for (from, to) in [("e2", "f3"), ("m15", "l14"), ("d2", "d4")] {
            assert!(session.play_route(&[square(from), square(to)]).is_ok());
        }
        let request = AnalysisRequest::new(Quality::QUICK).with_threads(1);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let analysed = analysis::analyse(session.game(), &request, &stop, &mut |_, _| {});
        assert!(session.set_analysis(analysed.unwrap_or_else(|error| panic!("{error}"))));
        let text = record_of(&session, "", 0).to_text();
        assert!(text.contains("{ analysis depth 3 }"), "{text}");
        let back = Record::parse(&text).ok().and_then(session_of);
        assert_eq!(back.as_ref().and_then(Session::analysis), session.analysis());
        // A broken verdict: the game still comes, without an analysis.
        let broken = text.replacen("steps lost", "steps", 1);
        let back = Record::parse(&broken).ok().and_then(session_of);
        assert_eq!(back.as_ref().map(|back| (back.analysis().is_none(), back.game().history().len())), Some((true, 3)));
        // ... and the player hears that its analysis could not be read, never silence.
        assert_eq!(back.map(|back| back.notice()), Some(crate::session::Notice::AnalysisUnreadable));
        let plain = record_of(&Session::new(config), "", 0).to_text();
        let plain = Record::parse(&plain).ok().and_then(session_of);
        assert_eq!(
            plain.map(|plain| plain.notice()),
            Some(crate::session::Notice::None),
            "no analysis, nothing to tell"
        );
    }
}
