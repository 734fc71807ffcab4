//! The words a translation shares with English by design, and how text is split into words:
//! read by tests/translations.rs (every catalogue entry, rendered) and tests/english_leaks.rs
//! (every text the window shows). A word here is checked by a reader of that language (#42, #52).

/// Keywords of the record format and of a game by message's lines, which a translation
/// keeps as they are, in quotes (a move is “pass”; a message starts with its
/// “halma-by-message” line and ends with its “end” line); unquoted, they are English like
/// any other word.
pub const RECORD_KEYWORDS: [&str; 3] = ["pass", "halma-by-message", "end"];

/// The text without the record keywords that stand in quotes.
pub fn without_quoted_keywords(text: &str) -> String {
    let mut text = text.to_owned();
    for keyword in RECORD_KEYWORDS {
        for (open, close) in [("“", "”"), ("«\u{a0}", "\u{a0}»"), ("«", "»"), ("\"", "\"")] {
            text = text.replace(&format!("{open}{keyword}{close}"), &format!("{open}{close}"));
        }
    }
    text
}

/// Names and keys every language writes as in English.
pub const NAMES: [&str; 12] =
    ["halma", "slint", "gnu", "json", "monks", "parker", "enter", "esc", "ctrl", "general", "wi", "fi"];

/// Words that are English and also words of the language, used as such there (checked by
/// a reader of that language): (language, words).
pub const SHARED_WORDS: [(&str, &[&str]); 4] = [
    (
        "fr",
        &[
            "action",
            "actions",
            // The game's analysis (#28): « Analyse du coup 12 sur 166 ».
            "analyse",
            "arrive",
            "camp",
            "camps",
            // A join code, the local network, other versions of Halma (#40): « code d’accès ».
            "code",
            "destination",
            "destinations",
            "direction",
            "directions",
            "face",
            "local",
            "long",
            // « dans le menu », as French phones say it (#52).
            "menu",
            "notation",
            "orange",
            "orientation",
            "passes",
            // A seat at the board (« la première place »), and the verb « placer ».
            "place",
            // A network's port (#40): « avec son port ».
            "port",
            "position",
            // « série : 3 (record 5) »: the best streak (#52).
            "record",
            "rotation",
            "suggestion",
            "type",
            "version",
            "versions",
            "vote",
            "votes",
            "zoom",
        ],
    ),
    ("uk", &[]),
    // «blunder»: the word of Indonesian chess players (#28).
    // «rating»: what Indonesian chess players call it; «peringkat» is a place in a table (#52).
    // «server»: what Indonesian phones say; «peladen» is rare (#52).
    ("id", &["blunder", "data", "license", "per", "port", "program", "public", "rating", "server", "tablet"]),
    (
        "fil",
        &[
            // A network's address, code and port, as Filipino phones say them (#40).
            "address",
            "clipboard",
            "code",
            "computer",
            "cursor",
            // «I-cut»: the text field's menu, as Filipino phones say it.
            "cut",
            // What Filipino chess players call an engine; «makina» is a motor (#42).
            "engine",
            "file",
            "import",
            "legal",
            "license",
            "may",
            // «Nasa menu ang Bagong laro»: «listahan ng pagpipilian» is the seed's pickers (#52).
            "menu",
            "network",
            "paste",
            "port",
            "public",
            // What Filipino chess players call it; «marka» is a school grade (#52).
            "rating",
            // «Ika-12 na round», as Filipino sports news write it; «ikot» is a rotation (#42).
            "round",
            "save",
            "screen",
            // «Walang server»: «serbidor» is a coinage nobody says (#52).
            "server",
            "setup",
            "software",
            "tablet",
            "target",
            // «I-type ang address», as Filipino phones say it (#40).
            "type",
        ],
    ),
];

/// Splits text into lower-case words of letters (digits, punctuation and spaces separate).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphabetic()).filter(|word| !word.is_empty()).map(str::to_lowercase).collect()
}
