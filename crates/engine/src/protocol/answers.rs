//! How the protocol words its results: `status`, `info` and `analyse` lines.
use halma_ai::analysis::{self, Eval, GameAnalysis, Verdict};
use halma_rules::{Action, DrawReason, Game, Outcome};

/// A value for the protocol, one word: `+12.0`, `0.0`, `-3.5` (steps, from the mover's
/// side), `wins-in-3`, `loses-in-3`.
fn eval_word(eval: Eval) -> String {
    match eval {
        Eval::Lead(_) => eval.to_string(),
        Eval::Wins { plies } => format!("wins-in-{plies}"),
        Eval::Loses { plies } => format!("loses-in-{plies}"),
    }
}

/// An analysis as `analyse` answers it: one `action` line per action, a `draw` line when
/// the game ended with a draw vote, and one `summary` line per seat in play.
///
/// - `action <n> <seat> <action> <class> loss <steps> best <route> before <value> after <value>`
/// - `action <n> <seat> <move> only-move after <value>`
/// - `action <n> <seat> pass forced-pass`
/// - `draw agreed` or `draw offered <seat>`
/// - `summary <seat> judged <n> best <n> good <n> inaccuracy <n> mistake <n> blunder <n> lost <steps> average <steps> chain <jumps> [at <n>]`
pub fn analysis_lines(game: &Game, analysis: &GameAnalysis) -> Vec<String> {
    let mut lines = Vec::with_capacity(analysis.actions.len() + 5);
    for entry in &analysis.actions {
        let head = format!("action {} {} {}", entry.index + 1, entry.seat, action_text(&entry.action));
        lines.push(match &entry.verdict {
            Verdict::Judged(judged) => format!(
                "{head} {} loss {} best {} before {} after {}",
                judged.class.name(),
                judged.loss,
                judged.best,
                eval_word(judged.before),
                eval_word(judged.after)
            ),
            Verdict::OnlyMove { after } => format!("{head} only-move after {}", eval_word(*after)),
            Verdict::ForcedPass => format!("{head} forced-pass"),
        });
    }
    match analysis.draw {
        Some(analysis::DrawVote::Agreed) => lines.push("draw agreed".to_string()),
        Some(analysis::DrawVote::Offered { offerer }) => lines.push(format!("draw offered {offerer}")),
        None => {}
    }
    for &seat in game.setup().seats() {
        let Some(summary) = analysis.summary(seat) else { continue };
        let [best, good, inaccuracy, mistake, blunder] = summary.classes;
        let mut line = format!(
            "summary {seat} judged {} best {best} good {good} inaccuracy {inaccuracy} mistake {mistake} blunder {blunder} lost {} average {}",
            summary.judged,
            summary.total_loss,
            summary.average_loss()
        );
        match summary.longest_chain {
            Some((jumps, index)) => line.push_str(&format!(" chain {jumps} at {}", index + 1)),
            None => line.push_str(" chain 0"),
        }
        lines.push(line);
    }
    lines
}

pub(super) fn action_text(action: &Action) -> String {
    action.to_string()
}

/// The `info` line of one completed search iteration:
/// `info depth <d> score <points> nodes <n> nps <n> time <ms> pv <moves>`.
pub fn info_line(iteration: &halma_ai::Iteration) -> String {
    let micros = iteration.elapsed.as_micros().max(1);
    let nps = u128::from(iteration.nodes) * 1_000_000 / micros;
    let mut line = format!(
        "info depth {} score {} nodes {} nps {nps} time {} pv",
        iteration.depth,
        iteration.score,
        iteration.nodes,
        iteration.elapsed.as_millis()
    );
    for action in &iteration.pv {
        line.push(' ');
        line.push_str(&action_text(action));
    }
    line
}

/// The `status` answer for a game.
pub fn status_line(game: &Game) -> String {
    match game.outcome() {
        Outcome::Ongoing => format!("status ongoing {}", game.to_move()),
        Outcome::Win(seats) => format!("status win {seats}"),
        Outcome::Draw(DrawReason::Repetition) => "status draw repetition".to_string(),
        Outcome::Draw(DrawReason::Agreement) => "status draw agreement".to_string(),
    }
}
