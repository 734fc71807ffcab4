//! The presenter's part for the game's analysis: pure functions from the analysis (and
//! the position reviewed) to what the `Analysis` global shows: the move list's marks,
//! the words about the reviewed move, the two routes on the board, the evaluation graph
//! and the summary per player. Unit-tested without a window.

use super::presenter::{int, route_path, seat_index};
use crate::{DrawVote, GraphLine, MoveClass, MoveMark, SeatSummary, Standing};
use halma_ai::analysis::{self, Class, Decided, Eval, GameAnalysis, Verdict};
use halma_core::view::BoardView;
use halma_rules::{Action, Route, Seat, Setup, Square};
use slint::SharedString;
use std::fmt::Write as _;

/// Everything the `Analysis` global shows but the progress.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnalysisPicture {
    pub available: bool,
    pub marks: Vec<MoveMark>,
    pub shown: ShownPicture,
    pub routes: RoutesPicture,
    pub lines: Vec<GraphLine>,
    pub points: i32,
    pub scale: i32,
    pub summaries: Vec<SeatSummary>,
    /// The draw vote the game ended with, and its offerer (a seat index).
    pub draw: (DrawVote, i32),
}

/// The reviewed action: its seat, mark and how it stood before and after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShownPicture {
    pub judged: bool,
    pub seat: i32,
    pub mark: MoveMark,
    pub before: (Standing, i32),
    pub after: (Standing, i32),
}

/// The route played and the best route, as paths in display cells; empty unless the
/// reviewed move was judged and not the best.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoutesPicture {
    pub played: SharedString,
    pub best: SharedString,
    pub best_markers: SharedString,
}

/// The whole picture of `analysis` (none: an empty one), with the board in review showing
/// the position after `shown` actions (None: the live game).
pub fn analysis(
    analysis: Option<&GameAnalysis>,
    setup: Setup,
    view: &BoardView,
    shown: Option<usize>,
) -> AnalysisPicture {
    let (shown, routes) = reviewed(analysis, view, shown);
    AnalysisPicture { shown, routes, ..of_history(analysis, setup) }
}

/// The part of the picture that depends on the analysis alone (the marks, the graph, the
/// summary), not on the position reviewed: a window keeps it while the history stays,
/// since it grows with the game (20,000 actions at most). `shown` and `routes` are empty.
pub fn of_history(analysis: Option<&GameAnalysis>, setup: Setup) -> AnalysisPicture {
    let Some(analysis) = analysis else { return AnalysisPicture { scale: 10, ..AnalysisPicture::default() } };
    let (lines, scale) = graph(analysis, setup);
    AnalysisPicture {
        available: true,
        marks: analysis.actions.iter().map(|entry| mark_in(analysis, entry.index)).collect(),
        lines,
        points: int(analysis.actions.len() + 1),
        scale,
        summaries: summaries(analysis),
        draw: draw_vote(analysis.draw),
        ..AnalysisPicture::default()
    }
}

/// The part of the picture about the position reviewed (after `shown` actions; None: the
/// live game): the reviewed move's words and its two routes.
pub fn reviewed(
    analysis: Option<&GameAnalysis>,
    view: &BoardView,
    shown: Option<usize>,
) -> (ShownPicture, RoutesPicture) {
    let reviewed = analysis
        .zip(shown.and_then(|shown| shown.checked_sub(1)))
        .and_then(|(analysis, index)| analysis.actions.get(index));
    (
        analysis
            .zip(reviewed)
            .map(|(analysis, entry)| shown_picture(entry.seat, &entry.verdict, mark_in(analysis, entry.index)))
            .unwrap_or_default(),
        reviewed.map(|entry| routes(view, &entry.action, &entry.verdict)).unwrap_or_default(),
    )
}

/// The draw vote a game ended with, for the interface.
pub fn draw_vote(vote: Option<analysis::DrawVote>) -> (DrawVote, i32) {
    match vote {
        None => (DrawVote::None, 0),
        Some(analysis::DrawVote::Agreed) => (DrawVote::Agreed, 0),
        Some(analysis::DrawVote::Offered { offerer }) => (DrawVote::Offered, seat_index(offerer)),
    }
}

pub fn move_class(class: Class) -> MoveClass {
    match class {
        Class::Best => MoveClass::Best,
        Class::Good => MoveClass::Good,
        Class::Inaccuracy => MoveClass::Inaccuracy,
        Class::Mistake => MoveClass::Mistake,
        Class::Blunder => MoveClass::Blunder,
    }
}

/// The move list's mark of the action at `index` of `analysis`, with whether the game was
/// already decided for its mover (the review then says so with the class).
pub fn mark_in(analysis: &GameAnalysis, index: usize) -> MoveMark {
    let Some(entry) = analysis.actions.get(index) else { return MoveMark::default() };
    let decided = match analysis.decided(index) {
        None => 0,
        Some(Decided::Won) => 1,
        Some(Decided::Lost) => 2,
    };
    MoveMark { decided, ..mark(&entry.verdict) }
}

/// The move list's mark of an action (`decided` left at 0: see [`mark_in`]).
pub fn mark(verdict: &Verdict) -> MoveMark {
    match verdict {
        Verdict::Judged(judgement) => MoveMark {
            class: move_class(judgement.class),
            loss: judgement.loss.tenths(),
            best: judgement.best.to_string().into(),
            decided: 0,
        },
        Verdict::ForcedPass => MoveMark { class: MoveClass::ForcedPass, ..MoveMark::default() },
        Verdict::OnlyMove { .. } => MoveMark { class: MoveClass::OnlyMove, ..MoveMark::default() },
    }
}

/// How a value stands from its seat's side: the standing and its steps in tenths (or
/// plies to a forced result).
pub fn standing(eval: Eval) -> (Standing, i32) {
    match eval {
        Eval::Lead(steps) if steps.tenths() > 0 => (Standing::Ahead, steps.tenths()),
        Eval::Lead(steps) if steps.tenths() < 0 => (Standing::Behind, -steps.tenths()),
        Eval::Lead(_) => (Standing::Level, 0),
        Eval::Wins { plies } => (Standing::Winning, i32::try_from(plies).unwrap_or(i32::MAX)),
        Eval::Loses { plies } => (Standing::Losing, i32::try_from(plies).unwrap_or(i32::MAX)),
    }
}

fn shown_picture(seat: Seat, verdict: &Verdict, mark: MoveMark) -> ShownPicture {
    let level = (Standing::Level, 0);
    match verdict {
        Verdict::Judged(judgement) => ShownPicture {
            judged: true,
            seat: seat_index(seat),
            mark,
            before: standing(judgement.before),
            after: standing(judgement.after),
        },
        _ => ShownPicture { judged: false, seat: seat_index(seat), mark, before: level, after: level },
    }
}

/// The played and best routes of a judged move that was not the best.
fn routes(view: &BoardView, action: &Action, verdict: &Verdict) -> RoutesPicture {
    let (Action::Move(played), Verdict::Judged(judgement)) = (action, verdict) else {
        return RoutesPicture::default();
    };
    if judgement.class == Class::Best || judgement.best == *played {
        return RoutesPicture::default();
    }
    RoutesPicture {
        played: route_path(view, played.squares()),
        best: dashed_path(view, &judgement.best),
        best_markers: markers(view, judgement.best.squares()),
    }
}

/// A route as dashes (Slint's paths draw no dashed strokes): each hop cut in pieces.
pub fn dashed_path(view: &BoardView, route: &Route) -> SharedString {
    const DASH: f32 = 0.3;
    const GAP: f32 = 0.18;
    let centre = |square: Square| {
        let (x, y) = view.display_cell(square);
        (x as f32 + 0.5, y as f32 + 0.5)
    };
    let mut path = String::new();
    for hop in route.squares().windows(2) {
        let ((x0, y0), (x1, y1)) = (centre(hop[0]), centre(hop[1]));
        let length = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
        if length <= 0.0 {
            continue;
        }
        let mut at = 0.0;
        while at < length {
            let end = (at + DASH).min(length);
            let point = |t: f32| (x0 + (x1 - x0) * t / length, y0 + (y1 - y0) * t / length);
            let ((ax, ay), (bx, by)) = (point(at), point(end));
            let _ = write!(path, "M {ax:.3} {ay:.3} L {bx:.3} {by:.3} ");
            at = end + GAP;
        }
    }
    path.trim_end().into()
}

/// A small diamond on each landing of a route (not its start).
fn markers(view: &BoardView, squares: &[Square]) -> SharedString {
    const R: f32 = 0.16;
    let mut path = String::new();
    for &square in squares.iter().skip(1) {
        let (x, y) = view.display_cell(square);
        let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
        let _ =
            write!(path, "M {x:.2} {:.2} L {:.2} {y:.2} L {x:.2} {:.2} L {:.2} {y:.2} Z ", y - R, x + R, y + R, x - R);
    }
    path.trim_end().into()
}

/// The seats whose points of view the graph draws: in a two-player game the first
/// seat's alone (the other's is its mirror), with teams one seat of each side, in 3p
/// every seat.
pub fn graph_seats(setup: Setup) -> Vec<Seat> {
    let seats = setup.seats();
    match setup {
        Setup::TwoPlayers => seats.iter().take(1).copied().collect(),
        Setup::ThreePlayers => seats.to_vec(),
        Setup::FourPlayersOneArmy | Setup::FourPlayersBothArmies => seats.iter().take(2).copied().collect(),
    }
}

/// The graph's lines (viewbox 1000 × 200, the middle level) and its scale in whole
/// steps: the largest lead shown, rounded up to ten; a forced result at the edge.
pub fn graph(analysis: &GameAnalysis, setup: Setup) -> (Vec<GraphLine>, i32) {
    let seats = graph_seats(setup);
    let series: Vec<(Seat, Vec<Eval>)> = seats.iter().map(|&seat| (seat, analysis.graph(seat))).collect();
    let largest = series
        .iter()
        .flat_map(|(_, values)| values.iter())
        .filter_map(|eval| match eval {
            Eval::Lead(steps) => Some(steps.tenths().unsigned_abs()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let scale = i32::try_from(largest.div_ceil(100) * 10).unwrap_or(i32::MAX).clamp(10, 200);
    let lines = series
        .into_iter()
        .map(|(seat, values)| {
            let last = values.len().saturating_sub(1).max(1) as f32;
            let fraction = |eval: &Eval| match eval {
                Eval::Lead(steps) => (steps.as_f64() as f32 / scale as f32).clamp(-1.0, 1.0),
                Eval::Wins { .. } => 1.0,
                Eval::Loses { .. } => -1.0,
            };
            let mut path = String::new();
            for (i, y) in graph_points(&values.iter().map(fraction).collect::<Vec<_>>()) {
                let x = i as f32 * 1000.0 / last;
                let y = 100.0 - y * 96.0;
                let _ = write!(path, "{} {x:.1} {y:.1} ", if path.is_empty() { "M" } else { "L" });
            }
            GraphLine { seat: seat_index(seat), path: path.trim_end().into() }
        })
        .collect();
    (lines, scale)
}

/// The most points a graph line is drawn with: two for each of the viewbox's 1000 columns
/// at most, so a 20,000-action game draws as fast as a 1,000-action one.
pub const GRAPH_POINTS: usize = 1000;

/// The points of a graph line over `values`, as (index, value): all of them when there are
/// at most [`GRAPH_POINTS`]; otherwise, for each run of values that shares one of
/// `GRAPH_POINTS / 2` columns, its lowest and its highest in their order, so every swing
/// stays visible. The first and the last value are always kept.
pub fn graph_points(values: &[f32]) -> Vec<(usize, f32)> {
    if values.len() <= GRAPH_POINTS {
        return values.iter().copied().enumerate().collect();
    }
    let columns = GRAPH_POINTS / 2;
    let mut points = Vec::with_capacity(GRAPH_POINTS + 2);
    for column in 0..columns {
        let start = column * values.len() / columns;
        let end = ((column + 1) * values.len() / columns).max(start + 1);
        let run = values[start..end].iter().copied().enumerate().map(|(i, v)| (start + i, v));
        let low = run.clone().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((start, values[start]));
        let high = run.max_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or(low);
        let (first, second) = if low.0 <= high.0 { (low, high) } else { (high, low) };
        points.push(first);
        if second.0 != first.0 {
            points.push(second);
        }
    }
    if points.first().is_none_or(|&(i, _)| i != 0) {
        points.insert(0, (0, values[0]));
    }
    let last = values.len() - 1;
    if points.last().is_none_or(|&(i, _)| i != last) {
        points.push((last, values[last]));
    }
    points
}

/// Each player's numbers, in turn order.
pub fn summaries(analysis: &GameAnalysis) -> Vec<SeatSummary> {
    analysis
        .summaries
        .iter()
        .map(|summary| SeatSummary {
            seat: seat_index(summary.seat),
            judged: int(summary.judged),
            best_moves: int(summary.best_moves()),
            inaccuracies: int(summary.count(Class::Inaccuracy)),
            mistakes: int(summary.mistakes()),
            blunders: int(summary.blunders()),
            average_loss: summary.average_loss().tenths(),
            longest_chain: summary.longest_chain.map_or(0, |(jumps, _)| int(jumps)),
            costliest: costliest(analysis, summary),
        })
        .collect()
}

/// A seat's costliest moves as the summary names them: each its round (as the move list
/// numbers it) and its route, the costliest first ("23. m16-k14, 41. c3-e5").
fn costliest(analysis: &GameAnalysis, summary: &analysis::SeatSummary) -> SharedString {
    let seats = analysis.summaries.len().max(1);
    let named: Vec<String> = summary
        .costliest
        .iter()
        .flatten()
        .filter_map(|&(index, _)| analysis.actions.get(index))
        .map(|entry| format!("{}. {}", entry.index / seats + 1, entry.action))
        .collect();
    named.join(", ").into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_ai::analysis::{ActionAnalysis, Judgement, Quality, Steps};
    use halma_rules::sq;
    use halma_rules::Game;

    #[test]
    fn a_long_graph_keeps_every_swing_in_a_thousand_points() {
        let short: Vec<f32> = (0..10).map(|i| i as f32).collect();
        assert_eq!(graph_points(&short).len(), 10, "a short game: every point");
        // 20,000 values, flat but for one spike down and one up in the middle.
        let mut long = vec![0.0_f32; 20_000];
        long[12_345] = -1.0;
        long[12_346] = 1.0;
        long[19_999] = 0.5;
        let points = graph_points(&long);
        assert!(points.len() <= GRAPH_POINTS + 2, "{} points", points.len());
        assert!(points.contains(&(12_345, -1.0)) && points.contains(&(12_346, 1.0)), "the spikes stay");
        assert_eq!(points.first(), Some(&(0, 0.0)));
        assert_eq!(points.last(), Some(&(19_999, 0.5)));
        assert!(points.windows(2).all(|pair| pair[0].0 < pair[1].0), "in order, each once");
    }

    /// A 2p game of two steps: A's first judged a mistake (best was another step), C's best.
    fn judged_game() -> (Game, GameAnalysis) {
        judged_from(12, 5)
    }

    /// The same with A `before` steps ahead before its move and `after` after it.
    fn judged_from(before: i32, after: i32) -> (Game, GameAnalysis) {
        let mut game = Game::new(Setup::TwoPlayers, Seat::A);
        assert!(game.play_text("c3-d4").is_ok());
        assert!(game.play_text("n14-m13").is_ok());
        let best = Route::new(vec![sq("d3"), sq("e4")]);
        let judged = |before: i32, after: i32, best: Route, class: Class| {
            Verdict::Judged(Judgement {
                before: Eval::Lead(Steps::whole(before)),
                after: Eval::Lead(Steps::whole(after)),
                best,
                loss: Steps::whole(before - after),
                class,
            })
        };
        let actions = vec![
            ActionAnalysis {
                index: 0,
                seat: Seat::A,
                action: game.history()[0].clone(),
                verdict: judged(before, after, best, Class::Mistake),
            },
            ActionAnalysis {
                index: 1,
                seat: Seat::C,
                action: game.history()[1].clone(),
                verdict: judged(-after, -after, Route::new(vec![sq("n14"), sq("m13")]), Class::Best),
            },
        ];
        let analysis = GameAnalysis::from_verdicts(&game, Quality::QUICK, actions);
        (game, analysis.unwrap_or_else(|| panic!("the verdicts fit the game")))
    }

    #[test]
    fn marks_words_and_routes_of_the_reviewed_move() {
        let (_, analysis) = judged_game();
        let view = BoardView::default();
        let picture = super::analysis(Some(&analysis), Setup::TwoPlayers, &view, Some(1));
        assert!(picture.available);
        assert_eq!(
            picture.marks,
            [
                MoveMark { class: MoveClass::Mistake, loss: 70, best: "d3-e4".into(), decided: 0 },
                MoveMark { class: MoveClass::Best, loss: 0, best: "n14-m13".into(), decided: 0 },
            ]
        );
        assert_eq!(picture.shown.seat, 0);
        assert!(picture.shown.judged);
        assert_eq!(picture.shown.before, (Standing::Ahead, 120));
        assert_eq!(picture.shown.after, (Standing::Ahead, 50));
        assert_eq!(picture.routes.played, route_path(&view, &[sq("c3"), sq("d4")]));
        assert!(picture.routes.best.starts_with("M ") && picture.routes.best.matches('M').count() > 1, "dashes");
        assert_eq!(picture.routes.best_markers.matches('Z').count(), 1, "one landing");
        // The best move played: no second route; the live game: no reviewed move.
        let best = super::analysis(Some(&analysis), Setup::TwoPlayers, &view, Some(2));
        assert_eq!((best.shown.mark.class, best.routes), (MoveClass::Best, RoutesPicture::default()));
        let live = super::analysis(Some(&analysis), Setup::TwoPlayers, &view, None);
        assert_eq!(live.shown, ShownPicture::default());
        assert!(!super::analysis(None, Setup::TwoPlayers, &view, Some(1)).available);
    }

    #[test]
    fn the_graph_has_a_line_per_side_and_a_point_per_position() {
        let (_, analysis) = judged_game();
        let (lines, scale) = graph(&analysis, Setup::TwoPlayers);
        assert_eq!(scale, 20, "12 steps ahead: the scale rounds up to 20");
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].seat, 0);
        assert_eq!(lines[0].path.matches(['M', 'L']).count(), 3, "the start and two moves");
        assert_eq!(graph_seats(Setup::ThreePlayers).len(), 3);
        assert_eq!(graph_seats(Setup::FourPlayersBothArmies), [Seat::A, Seat::B]);
    }

    #[test]
    fn standings_and_summaries_in_the_interfaces_numbers() {
        assert_eq!(standing(Eval::Lead(Steps(-35))), (Standing::Behind, 35));
        assert_eq!(standing(Eval::Lead(Steps::ZERO)), (Standing::Level, 0));
        assert_eq!(standing(Eval::Wins { plies: 3 }), (Standing::Winning, 3));
        assert_eq!(draw_vote(None), (DrawVote::None, 0));
        assert_eq!(draw_vote(Some(analysis::DrawVote::Agreed)), (DrawVote::Agreed, 0));
        assert_eq!(draw_vote(Some(analysis::DrawVote::Offered { offerer: Seat::C })), (DrawVote::Offered, 2));
        let (_, analysis) = judged_game();
        let rows = summaries(&analysis);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].seat, rows[0].mistakes, rows[0].average_loss, rows[0].best_moves), (0, 1, 70, 0));
        assert_eq!((rows[1].seat, rows[1].best_moves, rows[1].longest_chain), (2, 1, 0));
    }

    /// A move a hundred steps ahead (a 93 % chance): the mark says the game was already
    /// won, and the summary names the seat's costliest move by its round and route.
    #[test]
    fn a_decided_game_is_said_and_the_summary_names_the_costliest_moves() {
        let (_, analysis) = judged_from(100, 91);
        assert_eq!(analysis.decided(0), Some(Decided::Won));
        let marks = of_history(Some(&analysis), Setup::TwoPlayers).marks;
        assert_eq!(marks[0], MoveMark { class: MoveClass::Mistake, loss: 90, best: "d3-e4".into(), decided: 1 });
        assert_eq!(marks[1].decided, 2, "C, a hundred steps behind, had lost already");
        let shown = super::analysis(Some(&analysis), Setup::TwoPlayers, &BoardView::default(), Some(1)).shown;
        assert_eq!(shown.mark.decided, 1);
        let rows = summaries(&analysis);
        assert_eq!((rows[0].costliest.as_str(), rows[1].costliest.as_str()), ("1. c3-d4", ""));
        // Level: nothing decided.
        let (_, level) = judged_game();
        assert_eq!(level.decided(0), None);
    }
}
