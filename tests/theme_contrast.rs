//! The colours of both themes against WCAG 2.x: every pair of text and what it is drawn
//! on has a contrast ratio of at least 4.5:1 (normal text; 3:1 for large text), and the
//! boundaries a player must see (a picker's outline, a route, a piece on its square) at
//! least 3:1. The colours are read from `ui/theme.slint`, where each is written on one
//! line as `name: dark ? #dark : #light;` or `name: #both;`, so changing a colour there
//! badly fails this test. A colour with alpha is laid over what it is drawn on.

use std::collections::HashMap;

/// Normal text (WCAG 1.4.3, AA).
const TEXT: f64 = 4.5;
/// Large text (at least 18.66px bold or 24px) and user-interface boundaries (1.4.11).
const BOUNDARY: f64 = 3.0;

/// An sRGB colour with alpha, each channel 0..=1.
#[derive(Clone, Copy, Debug)]
struct Rgba([f64; 4]);

fn parse_hex(hex: &str) -> Option<Rgba> {
    let hex = hex.strip_prefix('#')?;
    let channel = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok().map(|v| f64::from(v) / 255.0);
    match hex.len() {
        6 => Some(Rgba([channel(0)?, channel(2)?, channel(4)?, 1.0])),
        8 => Some(Rgba([channel(0)?, channel(2)?, channel(4)?, channel(6)?])),
        _ => None,
    }
}

/// The theme's colours by name: (light, dark).
fn theme_colours() -> HashMap<String, (Rgba, Rgba)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/theme.slint");
    let source = std::fs::read_to_string(path).expect("ui/theme.slint");
    let mut colours = HashMap::new();
    for line in source.lines() {
        let Some(rest) = line.trim().strip_prefix("out property <color> ") else { continue };
        let (name, value) = rest.split_once(':').expect("a colour has a name and a value");
        let value = value.trim().trim_end_matches(';').trim();
        let (light, dark) = match value.strip_prefix("dark ?") {
            Some(both) => {
                let (dark, light) = both.split_once(':').expect("dark ? #dark : #light");
                (light.trim(), dark.trim())
            }
            None => (value, value),
        };
        let parse = |hex: &str| parse_hex(hex).unwrap_or_else(|| panic!("{name}: {hex} is not #rrggbb[aa]"));
        colours.insert(name.trim().to_string(), (parse(light), parse(dark)));
    }
    colours
}

/// `top` laid over the opaque `under`.
fn over(top: Rgba, under: Rgba) -> Rgba {
    let a = top.0[3];
    let mix = |i: usize| top.0[i] * a + under.0[i] * (1.0 - a);
    Rgba([mix(0), mix(1), mix(2), 1.0])
}

/// WCAG 2.x relative luminance of an opaque colour.
fn luminance(colour: Rgba) -> f64 {
    let linear = |c: f64| if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) };
    0.2126 * linear(colour.0[0]) + 0.7152 * linear(colour.0[1]) + 0.0722 * linear(colour.0[2])
}

fn contrast(a: Rgba, b: Rgba) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// One pair to check: what it is, the colour in front, the layers behind it (bottom
/// first, the first opaque), and the least ratio it needs.
struct Pair {
    what: String,
    front: String,
    behind: Vec<String>,
    least: f64,
}

fn pair(what: &str, front: &str, behind: &[&str], least: f64) -> Pair {
    Pair { what: what.into(), front: front.into(), behind: behind.iter().map(|s| s.to_string()).collect(), least }
}

/// Every pair the window draws that must be read or seen.
fn pairs() -> Vec<Pair> {
    let mut pairs = vec![
        // Pages, the panel, dialogs and the menu's card.
        pair("text on the page", "text", &["background"], TEXT),
        pair("text on the panel, a dialog, the menu", "text", &["panel"], TEXT),
        pair("secondary text on the page", "muted", &["background"], TEXT),
        pair("secondary text (labels, level guide) on the panel", "muted", &["panel"], TEXT),
        // Messages.
        pair("a damaged save's / a failed save's words", "text", &["warning-surface"], TEXT),
        pair("news (a seat's failure told)", "text", &["info-surface"], TEXT),
        pair("an error's words on their surface", "text", &["error-surface"], TEXT),
        pair("an import error's line", "error-text", &["panel"], TEXT),
        pair("the home-leaving duty", "duty-text", &["panel"], TEXT),
        pair("the hint's words", "hint-route", &["panel"], TEXT),
        pair("the review banner's title", "text", &["review-surface"], TEXT),
        pair("the review banner's line", "muted", &["review-surface"], TEXT),
        pair("a drawn game's end card", "text", &["end-surface"], TEXT),
        pair("a drawn game's end card, secondary", "muted", &["end-surface"], TEXT),
        // Buttons.
        pair("a button's label", "button-text", &["panel", "button"], TEXT),
        pair("a hovered button's label", "button-text", &["panel", "button-hover"], TEXT),
        pair("a pressed button's label", "button-text", &["panel", "button-pressed"], TEXT),
        pair("a primary button's label", "primary-text", &["panel", "primary"], TEXT),
        pair("a pressed primary button's label", "primary-text", &["panel", "primary-pressed"], TEXT),
        pair("a button's label on the page", "button-text", &["background", "button"], TEXT),
        // Pickers and lists.
        pair("a picker's choice, hovered", "text", &["field-hover"], TEXT),
        pair("a picker's choice, pressed", "text", &["field-pressed"], TEXT),
        pair("a picker's prompt", "muted", &["field-hover"], TEXT),
        pair("a list's chosen entry", "text", &["panel", "chosen"], TEXT),
        pair("a list's hovered entry", "text", &["panel", "hover"], TEXT),
        pair("a chosen choice (players, teams)", "text", &["background", "chosen-faint"], TEXT),
        // The board's coordinates, on their tag over either square.
        pair("a coordinate on a light square", "coordinate-text", &["light-square", "coordinate-tag"], TEXT),
        pair("a coordinate on a dark square", "coordinate-text", &["dark-square", "coordinate-tag"], TEXT),
        // Boundaries a player must see.
        pair("a picker's outline on the panel", "field-border", &["panel"], BOUNDARY),
        pair("a picker's outline on the page", "field-border", &["background"], BOUNDARY),
        pair("a chosen choice's outline", "accent", &["background"], BOUNDARY),
        // Not checked: the review frame around the board (#c8961e, 2.55:1 on the light
        // panel) repeats what the review banner's words say; veils and shadows.
    ];
    for square in ["light-square", "dark-square"] {
        for (what, colour) in [
            ("the previewed route", "route"),
            ("the hint's route", "hint-route"),
            ("the keyboard cursor", "cursor"),
            ("a refused route (Rules)", "refused"),
            ("the best route (analysis)", "best-route"),
            ("the route played (analysis)", "played-route"),
        ] {
            pairs.push(pair(&format!("{what} on a {square}"), colour, &[square], BOUNDARY));
        }
        pairs.push(pair(&format!("a destination's dot on a {square}"), "destination-dot", &[square], BOUNDARY));
    }
    // The analysis' marks and words, on the panel (move list, the move's words).
    for class in ["move-best", "move-good", "move-inaccuracy", "move-mistake", "move-blunder"] {
        pairs.push(pair(&format!("{class} on the panel"), class, &["panel"], TEXT));
    }
    // A seat's tint behind text: the move list's current move, a won game's end card.
    for seat in ["a", "b", "c", "d"] {
        let tint = format!("seat-{seat}-tint");
        pairs.push(pair(&format!("text on seat {seat}'s tint"), "text", &["panel", &tint], TEXT));
        pairs.push(pair(&format!("secondary text on seat {seat}'s tint"), "muted", &["panel", &tint], TEXT));
    }
    pairs
}

/// The colour `name` of one theme, as written (with its alpha).
fn pick(colours: &HashMap<String, (Rgba, Rgba)>, name: &str, dark: bool) -> Rgba {
    let (light, dark_colour) = colours.get(name).unwrap_or_else(|| panic!("ui/theme.slint has no colour {name}"));
    if dark {
        *dark_colour
    } else {
        *light
    }
}

/// A colour from layers: the first must be opaque, the others are laid over it.
fn layered(colours: &HashMap<String, (Rgba, Rgba)>, names: &[String], dark: bool) -> Rgba {
    let (first, rest) = names.split_first().expect("at least one layer");
    let base = pick(colours, first, dark);
    assert!(base.0[3] > 0.999, "{first} is not opaque: it cannot be the bottom layer");
    rest.iter().fold(base, |under, name| over(pick(colours, name, dark), under))
}

/// A piece is seen on its square by its colour or by its outline: the better of the two
/// must reach 3:1 (the light board's orange, purple and green pieces by their outline).
fn piece_contrast(colours: &HashMap<String, (Rgba, Rgba)>, seat: &str, square: &str, dark: bool) -> f64 {
    let behind = pick(colours, square, dark);
    let fill = pick(colours, &format!("seat-{seat}"), dark);
    let outline = over(pick(colours, "piece-outline", dark), behind);
    contrast(fill, behind).max(contrast(outline, behind))
}

#[test]
fn every_text_and_boundary_meets_wcag_aa_in_both_themes() {
    let colours = theme_colours();
    let mut failures = Vec::new();
    for dark in [false, true] {
        let theme = if dark { "dark" } else { "light" };
        let mut lowest: Option<(f64, String)> = None;
        let mut check = |what: String, ratio: f64, least: f64| {
            if ratio < least {
                failures.push(format!("{theme}: {what}: {ratio:.2}:1, needs {least}:1"));
            }
            if lowest.as_ref().is_none_or(|(low, _)| ratio / least < *low) {
                lowest = Some((ratio / least, format!("{what} {ratio:.2}:1 (needs {least}:1)")));
            }
        };
        for pair in pairs() {
            let behind = layered(&colours, &pair.behind, dark);
            let front = over(pick(&colours, &pair.front, dark), behind);
            check(pair.what, contrast(front, behind), pair.least);
        }
        for seat in ["a", "b", "c", "d"] {
            for square in ["light-square", "dark-square"] {
                let ratio = piece_contrast(&colours, seat, square, dark);
                check(format!("seat {seat}'s piece on a {square}"), ratio, BOUNDARY);
            }
        }
        if let Some((_, what)) = lowest {
            println!("{theme}: closest to its limit: {what}");
        }
    }
    assert!(failures.is_empty(), "{} pair(s) below WCAG AA:\n{}", failures.len(), failures.join("\n"));
}

/// The colours' names are unique and every pair names a colour of the theme.
#[test]
fn the_theme_is_read_whole() {
    let colours = theme_colours();
    assert!(colours.len() > 50, "only {} colours read from ui/theme.slint", colours.len());
    for seat in ["seat-a", "seat-b", "seat-c", "seat-d"] {
        let (light, dark) = colours[seat];
        assert_eq!(light.0, dark.0, "{seat}: the Okabe–Ito colours are the same in both themes");
    }
}
