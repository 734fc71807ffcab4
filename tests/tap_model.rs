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

use halma_ai::{Level, SearchRequest};
use halma_core::session::{GameConfig, Player, Session};
use halma_core::tap_target::{self, BoardPoint, Pointer, SnapParams, TapMemory};
use halma_core::view::BoardView;
use halma_record::Record;
use halma_rules::{Action, Game, Move, Seat, Setup, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A game's plies are cut here: the model needs moves, not finished games.
const MAX_PLIES: usize = 320;
/// Taps after which a move is given up (played outright so that the game goes on; it
/// counts as off the exact-tap path, and is never a confirmed move).
const GIVE_UP: u32 = 20;
/// The exact-tap path: the piece, the destination, Confirm.
const EXACT_TAPS: u32 = 3;

/// A board on a phone: the square size of the 16×16 board unzoomed.
#[derive(Clone, Copy)]
struct Layout {
    name: &'static str,
    square_dp: f32,
}

/// A 360 × 640 dp phone. Issue 39 counts a 352 dp board upright (22 dp squares). The app
/// (ui/game-page.slint) leaves the panel below it at least 300 dp upright, so its board
/// is at most 640 − 300 − 3 · 8 = 316 dp; sideways the panel beside it keeps 370 dp, so
/// the board is 640 − 370 − 3 · 8 = 246 dp (15.4 dp squares), not the window's height.
const LAYOUTS: [Layout; 3] = [
    Layout { name: "upright 352 dp (issue)", square_dp: 352.0 / 16.0 },
    Layout { name: "upright 316 dp (app)", square_dp: 316.0 / 16.0 },
    Layout { name: "sideways 246 dp (app)", square_dp: 246.0 / 16.0 },
];

const SIGMAS: [f32; 3] = [6.0, 10.0, 14.0];

/// Issue 39's target: the share of moves on the exact-tap path at σ = 10 dp on the
/// upright phone. Reached with the loupe; blind taps are held to floors just under what
/// they measure (the taps are seeded, so the figures are exact; docs/TOUCH.md has them
/// and why blind taps cannot reach the target).
const TARGET: f64 = 97.0;
const SIGMA_10_FLOOR_CAREFUL: f64 = 85.0;
const SIGMA_10_FLOOR_RHYTHM: f64 = 88.5;

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
    /// Careful, and rests the finger before lifting it: the loupe shows the square the
    /// tap will choose, and when it is not the one meant the finger slides toward the
    /// one meant (at most [`SLIDES`] times) before it lifts. Still one tap.
    Loupe,
}

/// How often a finger resting on the board slides to mend the loupe's choice.
const SLIDES: u32 = 3;

/// Where a finger at `point` ends after sliding toward `aim`'s centre, as the loupe shows
/// them both enlarged: a visually guided short movement, off by 2 dp plus a fifth of its
/// length (each way, one standard deviation).
fn slide(view: &BoardView, point: BoardPoint, aim: Square, size: f32, rng: &mut StdRng) -> BoardPoint {
    let (column, row) = view.display_cell(aim);
    let (x, y) = ((column as f32 + 0.5) * size, (row as f32 + 0.5) * size);
    let spread = 2.0 + 0.2 * ((x - point.x).powi(2) + (y - point.y).powi(2)).sqrt();
    BoardPoint { x: x + spread * normal(rng), y: y + spread * normal(rng) }
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

/// A game of the built-in computer at Beginner, each seat searched one ply.
fn generated(setup: Setup, seed: u64) -> Played {
    generated_at(setup, seed, Level::Beginner, 1)
}

/// Games the decoder was not developed on: other levels and seeds (TAP_HELDOUT=1).
fn held_out_games() -> Vec<Played> {
    let mut games = Vec::new();
    let setups = [
        (Setup::TwoPlayers, 6),
        (Setup::ThreePlayers, 3),
        (Setup::FourPlayersOneArmy, 3),
        (Setup::FourPlayersBothArmies, 3),
    ];
    for (setup, count) in setups {
        for seed in 0..count {
            let level = if seed % 2 == 0 { Level::Casual } else { Level::Strong };
            games.push(generated_at(setup, 71_000 + seed, level, 2));
        }
    }
    games
}

fn generated_at(setup: Setup, seed: u64, level: Level, depth: u32) -> Played {
    let first = setup.seats()[seed as usize % setup.seats().len()];
    let mut game = Game::new(setup, first);
    let stop = AtomicBool::new(false);
    while !game.is_over() && game.history().len() < MAX_PLIES {
        let request =
            SearchRequest::new(level).with_depth(depth).with_seed(seed * 10_000 + game.history().len() as u64);
        let Some(action) = halma_ai::choose_action(&game, &request, &stop) else { break };
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

/// The app's board takes touches this far beyond its edges (the gap around it,
/// ui/board.slint): a tap that misses an edge square by a little still counts.
const TOUCH_MARGIN_DP: f32 = 8.0;

/// Whether the board's touch area gets a tap at `point`.
fn received(point: BoardPoint, size: f32) -> bool {
    let range = -TOUCH_MARGIN_DP..=16.0 * size + TOUCH_MARGIN_DP;
    range.contains(&point.x) && range.contains(&point.y)
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
    /// Taps off the board.
    lost: u64,
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
    let mut looked = person != Person::Rhythm;
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
        let mut point = tap_point(&view, aim, layout.square_dp, sigma, rng);
        if let (Person::Loupe, Mode::After(params)) = (person, mode) {
            // The loupe shows what `tap_target` would choose for the resting finger.
            for _ in 0..SLIDES {
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
                let meant = target.is_some_and(|t| t.square == aim && t.piece.is_none_or(|p| p == intended.from));
                if meant && received(point, layout.square_dp) {
                    break;
                }
                point = slide(&view, point, aim, layout.square_dp, rng);
            }
        }
        taps += 1;
        let selected_before = session.interaction().selected;
        match mode {
            Mode::Before => {
                if let Some(square) = under(&view, point, layout.square_dp) {
                    session.tap(square);
                }
            }
            // The board's touch area sees taps on the board only: one off it is lost.
            Mode::After(params) if received(point, layout.square_dp) => {
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
            Mode::After(_) => {
                tally.lost += 1;
                memory.forget()
            }
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
        let config = GameConfig { setup: played.setup, first: played.first, players: [Player::Human; 4].into() };
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
    for person in [Person::Careful, Person::Rhythm, Person::Loupe] {
        for mode in [Mode::Before, Mode::After(SnapParams::DEFAULT)] {
            let exact = replay(&games, LAYOUTS[0], 0.0, mode, person, 1);
            assert_eq!((exact.on_path, exact.taps, exact.wrong), (exact.moves, EXACT_TAPS as u64 * exact.moves, 0));
        }
    }

    let mut failures = Vec::new();
    let mut before_by_layout: Vec<(&str, f32, Person, Tally)> = Vec::new();
    for person in [Person::Rhythm, Person::Careful, Person::Loupe] {
        println!("\nperson: {person:?}");
        println!("| board | σ (dp) | before | distance only | each tap alone | joint | taps per move, before → joint | ambiguous taps | moves given up, before → joint |");
        println!("|---|---|---|---|---|---|---|---|---|");
        for layout in LAYOUTS {
            for sigma in SIGMAS {
                let seed = 39 + sigma as u64;
                // Without snapping there is no loupe: the Loupe person taps as the careful
                // one. Distance only and each tap alone are measured on the issue's board.
                let blind = if person == Person::Loupe { Person::Careful } else { person };
                let before = match before_by_layout
                    .iter()
                    .find(|(l, s, p, _)| *l == layout.name && *s == sigma && *p == blind)
                {
                    Some(&(_, _, _, tally)) => tally,
                    None => replay(&games, layout, sigma, Mode::Before, blind, seed),
                };
                before_by_layout.push((layout.name, sigma, blind, before));
                let issue_board = layout.name == LAYOUTS[0].name;
                let measure =
                    |params| issue_board.then(|| replay(&games, layout, sigma, Mode::After(params), person, seed));
                let nearest = measure(SnapParams::DISTANCE_ONLY);
                let single = measure(SnapParams::SINGLE);
                let after = replay(&games, layout, sigma, Mode::After(SnapParams::DEFAULT), person, seed);
                let rate = |tally: Option<Tally>| tally.map_or("–".to_string(), |t| format!("{:.1} %", t.rate()));
                println!(
                    "| {} | {sigma} | {:.1} % | {} | {} | {:.1} % | {:.2} → {:.2} | {:.1} % | {} → {} |",
                    layout.name,
                    before.rate(),
                    rate(nearest),
                    rate(single),
                    after.rate(),
                    before.taps as f64 / before.moves as f64,
                    after.taps as f64 / after.moves as f64,
                    100.0 * after.ambiguous as f64 / after.taps.max(1) as f64,
                    before.failed,
                    after.failed,
                );
                for (name, tally) in
                    [("before", Some(before)), ("distance only", nearest), ("single", single), ("joint", Some(after))]
                {
                    let Some(tally) = tally else { continue };
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
                if sigma == 10.0 && layout.name == LAYOUTS[0].name {
                    let floor = match person {
                        Person::Careful => SIGMA_10_FLOOR_CAREFUL,
                        Person::Rhythm => SIGMA_10_FLOOR_RHYTHM,
                        Person::Loupe => TARGET,
                    };
                    if after.rate() < floor {
                        failures.push(format!("{person:?} {} σ 10: {:.2} % < {floor} %", layout.name, after.rate()));
                    }
                }
            }
        }
    }
    println!("in {:.1} s", started.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A player who builds a chain hop by hop taps the piece, then each landing in turn, at
/// the middle of its square: the preview grows along exactly that chain, on every board
/// size, by finger and by mouse, and no tap plays a move.
#[test]
fn a_chain_tapped_landing_by_landing_previews_that_chain() {
    let games = games();
    let mut chains = 0;
    for played in &games {
        let config = GameConfig { setup: played.setup, first: played.first, players: [Player::Human; 4].into() };
        let session = Session::with_game(config, Game::new(played.setup, played.first));
        let Ok(mut session) = session else { panic!("a session for the game") };
        for action in &played.actions {
            if session.game().is_over() {
                break;
            }
            if let Action::Move(route) = action {
                if route.squares().len() > 2 {
                    chains += 1;
                    for (layout, pointer) in
                        [(LAYOUTS[0], Pointer::Touch), (LAYOUTS[2], Pointer::Touch), (LAYOUTS[0], Pointer::Mouse)]
                    {
                        let mut trial = session.clone();
                        let view = *trial.view();
                        let mut memory = TapMemory::default();
                        let plies = trial.game().history().len();
                        for (index, &square) in route.squares().iter().enumerate() {
                            let point = tap_point(&view, square, layout.square_dp, 0.0, &mut StdRng::seed_from_u64(0));
                            let selected_before = trial.interaction().selected;
                            let target = tap_target::for_session(&trial, &memory, pointer, point, layout.square_dp);
                            let Some(target) = target else { panic!("a tap on {square} is taken") };
                            target.apply(&mut trial);
                            memory.after_tap(
                                trial.game(),
                                selected_before,
                                trial.interaction(),
                                &view,
                                pointer,
                                point,
                                layout.square_dp,
                            );
                            let shown = &trial.interaction().route;
                            let expected: &[Square] = if index == 0 { &[] } else { &route.squares()[..=index] };
                            assert_eq!(
                                shown.as_slice(),
                                expected,
                                "{} by {pointer:?}: {route} tapped up to {square}",
                                layout.name
                            );
                        }
                        assert_eq!(trial.game().history().len(), plies, "a tap never plays a move");
                        assert!(trial.interaction().can_confirm(trial.game()), "{route} can be confirmed");
                    }
                }
            }
            assert!(session.play_action(action).is_ok());
        }
    }
    assert!(chains > 200, "the games hold chains of two hops or more: {chains}");
}

/// Development aid: `TAP_SWEEP=1 cargo test --release --no-default-features --test
/// tap_model sweep -- --ignored --nocapture` prints the σ = 10 dp figure for a grid of
/// weights (TAP_HELDOUT=1: on the held-out games).
#[test]
#[ignore]
fn sweep() {
    let games = if std::env::var("TAP_HELDOUT").is_ok() { held_out_games() } else { games() };
    let sigma: f32 = std::env::var("TAP_SIGMA").ok().and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let layout = LAYOUTS[0];
    let base = SnapParams::DEFAULT;
    let spec = std::env::var("TAP_GRID").unwrap_or_default();
    let mut grid = vec![base];
    for item in spec.split(';').filter(|s| !s.is_empty()) {
        let mut p = base;
        for kv in item.split(',') {
            let (k, v) = kv.split_once('=').unwrap_or(("", ""));
            let f: f32 = v.parse().unwrap_or(0.0);
            match k {
                "progress" => p.progress = f,
                "max" => p.max_progress = f as i32,
                "goal" => p.goal = f,
                "switch" => p.switch = f,
                "secondary" => p.secondary = f,
                "precise" => p.precise = f,
                "joint" => p.joint = f > 0.0,
                "camp" => p.camp = f,
                "straggler" => p.straggler = f,
                "settled" => p.settled = f,
                "cap" => p.max_prior = f,
                "ambiguity" => p.ambiguity = f,
                "reach" => p.reach = f,
                _ => {}
            }
        }
        grid.push(p);
    }
    for p in grid {
        let mut line = format!("{p:?}");
        for person in [Person::Careful, Person::Rhythm] {
            let t = replay(&games, layout, sigma, Mode::After(p), person, 39 + sigma as u64);
            line += &format!(
                " | {person:?} {:.1} % wrong {} taps {:.2} lost {:.2}/move",
                t.rate(),
                t.wrong,
                t.taps as f64 / t.moves as f64,
                t.lost as f64 / t.moves as f64
            );
        }
        println!("{line}");
    }
}

/// Development aid: the share of moves whose two taps (piece, destination) decode to the
/// intended move by a full Bayesian MAP over every legal move, for some priors.
#[test]
#[ignore]
fn ceiling() {
    let games = if std::env::var("TAP_HELDOUT").is_ok() { held_out_games() } else { games() };
    let sigma: f32 = std::env::var("TAP_SIGMA").ok().and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let size = 22.0f32;
    // gm, gk, goal, in-camp, straggler, jumps, diagonal
    let weights: Vec<[f32; 7]> = vec![
        [0.0; 7],
        [0.5, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.5, 2.0, 0.0, -1.0, 0.0, 0.0, 0.0],
        [0.5, 2.0, 0.0, -2.0, 0.0, 0.0, 0.0],
        [0.5, 2.0, 0.0, -1.0, 0.5, 0.0, 0.0],
        [0.5, 2.0, 0.0, -1.0, 0.0, 0.3, 0.0],
        [0.5, 2.0, 0.0, -1.0, 0.0, 0.0, 0.5],
        [0.5, 2.0, 0.0, -1.0, 0.0, 0.0, 1.0],
        [0.5, 2.0, 1.0, -1.0, 0.3, 0.2, 0.5],
        [0.3, 3.0, 0.0, -1.0, 0.3, 0.0, 0.5],
        [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [-2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [-4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    ];
    let n = weights.len();
    let mut ok = vec![0u64; n];
    let mut top = vec![0u64; n];
    let mut total = 0u64;
    let mut rng = StdRng::seed_from_u64(7);
    for played in &games {
        let mut game = Game::new(played.setup, played.first);
        let view = BoardView::default();
        for action in &played.actions {
            if game.is_over() {
                break;
            }
            if let Action::Move(route) = action {
                let intended = route.as_move();
                let t1 = tap_point(&view, intended.from, size, sigma, &mut rng);
                let t2 = tap_point(&view, intended.to, size, sigma, &mut rng);
                let position = game.position();
                let army = position.army_to_move();
                let camp = position.setup().target_camp(army);
                let corner = army.opposite().corner();
                let manhattan = |s: Square| (s.column() - corner.column()).abs() + (s.row() - corner.row()).abs();
                let diag = |s: Square| ((s.column() - corner.column()).abs() - (s.row() - corner.row()).abs()).abs();
                let king = |s: Square| {
                    camp.squares()
                        .map(|t| (t.column() - s.column()).abs().max((t.row() - s.row()).abs()))
                        .min()
                        .unwrap_or(0)
                };
                let fit = |p: BoardPoint, s: Square| {
                    let (c, r) = view.display_cell(s);
                    let dx = p.x - (c as f32 + 0.5) * size;
                    let dy = p.y - (r as f32 + 0.5) * size;
                    -(dx * dx + dy * dy) / (2.0 * 100.0)
                };
                let moves: Vec<Move> = game.legal_moves().iter().collect();
                let base = halma_ai::eval::evaluate(position, army, &halma_ai::eval::Weights::DEFAULT) as f32;
                let evals: Vec<f32> = moves
                    .iter()
                    .map(|m| {
                        (halma_ai::eval::evaluate(&position.after(*m), army, &halma_ai::eval::Weights::DEFAULT) as f32
                            - base)
                            / 10.0
                    })
                    .collect();
                let feats: Vec<[f32; 7]> = moves
                    .iter()
                    .map(|m| {
                        let gk = (king(m.from) - king(m.to)) as f32;
                        let jumps = position.route(*m).map_or(0, |r| {
                            let sq = r.squares();
                            let first = sq[1];
                            if (first.column() - sq[0].column()).abs() <= 1 && (first.row() - sq[0].row()).abs() <= 1 {
                                0
                            } else {
                                sq.len() - 1
                            }
                        }) as f32;
                        [
                            (manhattan(m.from) - manhattan(m.to)) as f32,
                            gk,
                            match (camp.contains(m.from), camp.contains(m.to)) {
                                (false, true) => 1.0,
                                (true, false) => -1.0,
                                _ => 0.0,
                            },
                            if camp.contains(m.from) { 1.0 } else { 0.0 },
                            gk * king(m.from) as f32 / 8.0,
                            jumps,
                            (diag(m.from) - diag(m.to)) as f32,
                        ]
                    })
                    .collect();
                total += 1;
                for (i, w) in weights.iter().enumerate() {
                    let prior = |k: usize| -> f32 {
                        if w[0] < 0.0 {
                            return -w[0] * evals[k];
                        }
                        (0..7).map(|j| w[j] * feats[k][j]).sum()
                    };
                    let best = (0..moves.len()).max_by(|&a, &b| {
                        let sa = prior(a) + fit(t1, moves[a].from) + fit(t2, moves[a].to);
                        let sb = prior(b) + fit(t1, moves[b].from) + fit(t2, moves[b].to);
                        sa.total_cmp(&sb)
                    });
                    if best.map(|k| moves[k]) == Some(intended) {
                        ok[i] += 1;
                    }
                    let best = (0..moves.len()).max_by(|&a, &b| prior(a).total_cmp(&prior(b)));
                    if best.map(|k| moves[k]) == Some(intended) {
                        top[i] += 1;
                    }
                }
            }
            assert!(game.play_action(action).is_ok());
        }
    }
    for (i, w) in weights.iter().enumerate() {
        println!(
            "{w:?}: move {:.1} %, prior alone {:.1} %",
            100.0 * ok[i] as f64 / total as f64,
            100.0 * top[i] as f64 / total as f64
        );
    }
}
