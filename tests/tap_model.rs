//! The tap model of issue 39 (docs/TOUCH.md): how often a phone player's move takes no
//! more taps than the exact-tap path, with each tap drawn from a Gaussian around the
//! centre of the square aimed at, before snapping (the square under the finger) and
//! after (`app::tap_target`).
//!
//! Games: 20 played by the built-in computer at Beginner (each seat searched one ply,
//! seeded, so the same games every run) in every setup, and the recorded Strong game of
//! tests/data. Each move the game made is the intended move of a person who taps through
//! the app's own `Session::tap`, sees the result and taps again when it is not what they
//! meant, and presses Confirm (a 48 dp button, never missed) once the preview shows it.
//! Two persons: one who looks after every tap, one who taps the destination as soon as
//! some piece shows selected (what joint decoding, `TapMemory`, is for).
//! The exact-tap path of a move is piece, destination, Confirm: three taps.
//!
//! `cargo test --no-default-features --test tap_model -- --nocapture` prints the table.

use halma::ai::{self, Level, SearchRequest};
use halma::app::session::{GameConfig, Player, Session};
use halma::app::tap_target::{self, BoardPoint, Pointer, SnapParams, TapMemory};
use halma::app::view::BoardView;
use halma::record::Record;
use halma::rules::{Action, Game, Move, Seat, Setup, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A game's plies are cut here: the model needs moves, not finished games.
const MAX_PLIES: usize = 320;
/// Taps after which a move is given up (played outright so that the game goes on; it
/// counts as off the exact-tap path, and is never a confirmed move).
const GIVE_UP: u32 = 40;
/// The exact-tap path: the piece, the destination, Confirm.
const EXACT_TAPS: u32 = 3;

/// A board on a phone: the square size of the 16×16 board unzoomed.
#[derive(Clone, Copy)]
struct Layout {
    name: &'static str,
    square_dp: f32,
}

/// 360 × 640 dp upright: the board is 352 dp wide. Sideways (640 × 360): 344 dp high.
const LAYOUTS: [Layout; 2] = [
    Layout { name: "upright 360×640", square_dp: 352.0 / 16.0 },
    Layout { name: "sideways 640×360", square_dp: 344.0 / 16.0 },
];

const SIGMAS: [f32; 3] = [6.0, 10.0, 14.0];

/// The share of moves on the exact-tap path that snapping must keep at σ = 10 dp, for
/// each person (they measure 75.5/74.4 % Careful and 78.2/78.2 % Rhythm, upright and
/// sideways; the taps are seeded, so the figures are exact; docs/TOUCH.md has them).
const SIGMA_10_FLOOR_CAREFUL: f64 = 74.0;
const SIGMA_10_FLOOR_RHYTHM: f64 = 78.0;

/// How the person at the board looks at what a tap did.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Person {
    /// Looks after every tap: a wrong piece selected is mended before the destination
    /// is tapped.
    Careful,
    /// Taps the piece, and once a piece shows selected taps the destination without
    /// checking which piece it is; looks at the preview (as everyone must before
    /// Confirm) and from then on mends carefully.
    Rhythm,
}

/// How a tap becomes a square.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Today: the square under the finger.
    Before,
    /// `tap_target` with these weights.
    After(SnapParams),
}

/// A recorded game: its setup, first seat and actions.
struct Played {
    setup: Setup,
    first: Seat,
    actions: Vec<Action>,
}

fn generated(setup: Setup, seed: u64) -> Played {
    let first = setup.seats()[seed as usize % setup.seats().len()];
    let mut game = Game::new(setup, first);
    let stop = AtomicBool::new(false);
    while !game.is_over() && game.history().len() < MAX_PLIES {
        let request =
            SearchRequest::new(Level::Beginner).with_depth(1).with_seed(seed * 10_000 + game.history().len() as u64);
        let Some(action) = ai::choose_action(&game, &request, &stop) else { break };
        assert!(game.play_action(&action).is_ok(), "the computer's action is legal");
    }
    Played { setup, first, actions: game.history().to_vec() }
}

fn games() -> Vec<Played> {
    let mut games = Vec::new();
    let setups = [
        (Setup::TwoPlayers, 8),
        (Setup::ThreePlayers, 4),
        (Setup::FourPlayersOneArmy, 4),
        (Setup::FourPlayersBothArmies, 4),
    ];
    for (setup, count) in setups {
        for seed in 0..count {
            games.push(generated(setup, 39_000 + seed));
        }
    }
    let record = Record::parse(include_str!("data/analysis-typical-2p.txt"));
    let Ok(record) = record else { panic!("the recorded game parses: {record:?}") };
    games.push(Played {
        setup: record.game.setup(),
        first: record.game.first_seat(),
        actions: record.game.history().to_vec(),
    });
    games
}

/// A standard normal draw (Box–Muller), from the seeded generator.
fn normal(rng: &mut StdRng) -> f32 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random::<f64>();
    ((-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()) as f32
}

/// Where a tap aimed at `square`'s centre lands.
fn tap_point(view: &BoardView, square: Square, size: f32, sigma: f32, rng: &mut StdRng) -> BoardPoint {
    let (column, row) = view.display_cell(square);
    BoardPoint {
        x: (column as f32 + 0.5) * size + sigma * normal(rng),
        y: (row as f32 + 0.5) * size + sigma * normal(rng),
    }
}

/// The square under the point, as the board's touch area finds it (off the board: none).
fn under(view: &BoardView, point: BoardPoint, size: f32) -> Option<Square> {
    let (x, y) = ((point.x / size).floor(), (point.y / size).floor());
    if !(0.0..16.0).contains(&x) || !(0.0..16.0).contains(&y) {
        return None;
    }
    view.square_at(x as i32, y as i32)
}

#[derive(Default, Clone, Copy)]
struct Tally {
    moves: u64,
    /// Moves done in no more taps than the exact-tap path.
    on_path: u64,
    taps: u64,
    /// Moves given up after GIVE_UP taps.
    failed: u64,
    /// A confirmed move that was not the intended one.
    wrong: u64,
    /// Taps that resolved as ambiguous (only a preview or selection followed).
    ambiguous: u64,
}

impl Tally {
    fn rate(&self) -> f64 {
        100.0 * self.on_path as f64 / self.moves.max(1) as f64
    }
}

/// The person at the board makes `intended`: taps the piece until it is selected, the
/// destination until the preview ends there, then Confirm.
#[allow(clippy::too_many_arguments)]
fn make_move(
    session: &mut Session,
    intended: Move,
    layout: Layout,
    sigma: f32,
    mode: Mode,
    person: Person,
    rng: &mut StdRng,
    tally: &mut Tally,
) {
    let view = *session.view();
    let plies = session.game().history().len();
    let mut taps = 0;
    let mut memory = TapMemory::default();
    // The Rhythm person has tapped a destination once and looks carefully since.
    let mut looked = person == Person::Careful;
    loop {
        let ui = session.interaction();
        if ui.selected == Some(intended.from) && ui.has_preview() && ui.route.last() == Some(&intended.to) {
            taps += 1;
            let played = session.confirm();
            let Ok(Action::Move(route)) = played else { panic!("Confirm plays the preview: {played:?}") };
            if route.as_move() != intended {
                tally.wrong += 1;
            }
            break;
        }
        if taps >= GIVE_UP {
            tally.failed += 1;
            let route = session.game().position().route(intended);
            let Some(route) = route else { panic!("{intended:?} has a route") };
            assert!(session.play_route(route.squares()).is_ok());
            break;
        }
        let blind = !looked && ui.selected.is_some() && !ui.has_preview();
        let aim = if ui.selected == Some(intended.from) || blind { intended.to } else { intended.from };
        if aim == intended.to {
            looked = true;
        }
        let point = tap_point(&view, aim, layout.square_dp, sigma, rng);
        taps += 1;
        let selected_before = session.interaction().selected;
        match mode {
            Mode::Before => {
                if let Some(square) = under(&view, point, layout.square_dp) {
                    session.tap(square);
                }
            }
            // The board's touch area sees taps on the board only: one off it is lost.
            Mode::After(params) if under(&view, point, layout.square_dp).is_some() => {
                let target = tap_target::tap_target(
                    session.game(),
                    session.interaction(),
                    session.human_can_act(),
                    &view,
                    Pointer::Touch,
                    point,
                    layout.square_dp,
                    &params,
                    &memory,
                );
                if matches!(target, Some(t) if matches!(t.snap, tap_target::Snap::Ambiguous { .. })) {
                    tally.ambiguous += 1;
                }
                if let Some(target) = target {
                    target.apply(session);
                }
                memory.after_tap(
                    session.game(),
                    selected_before,
                    session.interaction(),
                    &view,
                    Pointer::Touch,
                    point,
                    layout.square_dp,
                );
            }
            Mode::After(_) => memory.forget(),
        }
        assert_eq!(session.game().history().len(), plies, "a tap never plays a move");
    }
    tally.moves += 1;
    tally.taps += u64::from(taps);
    if taps <= EXACT_TAPS {
        tally.on_path += 1;
    }
}

fn replay(games: &[Played], layout: Layout, sigma: f32, mode: Mode, person: Person, seed: u64) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    for played in games {
        let config = GameConfig { setup: played.setup, first: played.first, players: [Player::Human; 4] };
        let session = Session::with_game(config, Game::new(played.setup, played.first));
        let Ok(mut session) = session else { panic!("a session for the game") };
        while let Some(action) = played.actions.get(session.game().history().len()) {
            if session.game().is_over() {
                break;
            }
            match action {
                Action::Pass => assert!(session.play_action(&Action::Pass).is_ok()),
                Action::Move(route) => {
                    make_move(&mut session, route.as_move(), layout, sigma, mode, person, &mut rng, &mut tally)
                }
            }
        }
    }
    tally
}

#[test]
fn taps_land_where_the_finger_meant() {
    let started = Instant::now();
    let games = games();
    let moves: usize = games.iter().map(|g| g.actions.iter().filter(|a| matches!(a, Action::Move(_))).count()).sum();
    println!("{} games, {moves} moves, generated in {:.1} s", games.len(), started.elapsed().as_secs_f64());

    // The exact-tap path really is three taps: with σ = 0 every move takes exactly that.
    for person in [Person::Careful, Person::Rhythm] {
        let exact = replay(&games, LAYOUTS[0], 0.0, Mode::Before, person, 1);
        assert_eq!((exact.on_path, exact.taps, exact.wrong), (exact.moves, EXACT_TAPS as u64 * exact.moves, 0));
    }

    let mut failures = Vec::new();
    for person in [Person::Careful, Person::Rhythm] {
        println!("\nperson: {person:?}");
        println!("| board | σ (dp) | before | distance only | each tap alone | joint | taps per move, before → joint | ambiguous taps | moves given up, before → joint |");
        println!("|---|---|---|---|---|---|---|---|---|");
        for layout in LAYOUTS {
            for sigma in SIGMAS {
                let seed = 39 + sigma as u64;
                let before = replay(&games, layout, sigma, Mode::Before, person, seed);
                let nearest = replay(&games, layout, sigma, Mode::After(SnapParams::DISTANCE_ONLY), person, seed);
                let single = replay(&games, layout, sigma, Mode::After(SnapParams::SINGLE), person, seed);
                let after = replay(&games, layout, sigma, Mode::After(SnapParams::DEFAULT), person, seed);
                println!(
                    "| {} | {sigma} | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.2} → {:.2} | {:.1} % | {} → {} |",
                    layout.name,
                    before.rate(),
                    nearest.rate(),
                    single.rate(),
                    after.rate(),
                    before.taps as f64 / before.moves as f64,
                    after.taps as f64 / after.moves as f64,
                    100.0 * after.ambiguous as f64 / after.taps.max(1) as f64,
                    before.failed,
                    after.failed,
                );
                for (name, tally) in
                    [("before", before), ("distance only", nearest), ("single", single), ("joint", after)]
                {
                    if tally.wrong != 0 {
                        failures.push(format!(
                            "{person:?} {} σ {sigma} {name}: {} wrong moves confirmed",
                            layout.name, tally.wrong
                        ));
                    }
                }
                if after.rate() <= before.rate() + 10.0 || after.taps >= before.taps {
                    failures.push(format!("{person:?} {} σ {sigma}: snapping does not help enough", layout.name));
                }
                // Issue 39 asks for 97 %; the tap alone does not carry that much (docs/TOUCH.md,
                // "Limits"). This guards what snapping reaches today against regressions.
                let floor = match person {
                    Person::Careful => SIGMA_10_FLOOR_CAREFUL,
                    Person::Rhythm => SIGMA_10_FLOOR_RHYTHM,
                };
                if sigma == 10.0 && after.rate() < floor {
                    failures.push(format!("{person:?} {} σ 10: {:.2} % < {floor} %", layout.name, after.rate()));
                }
            }
        }
    }
    println!("in {:.1} s", started.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{failures:#?}");
}
