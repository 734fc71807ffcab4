//! The bundled message catalogues match the interface.
//!
//! `build.rs` bundles `locales/<lang>/LC_MESSAGES/halma.po` into the app with no
//! default translation context, so a catalogue entry is found by its plain msgid
//! (plus the context of an `@tr("context" => "...")`, if one is ever written).
//! Slint silently falls back to English for a missing, empty or fuzzy entry, so
//! this test is what notices that a string of the interface is not translated.
//!
//! It reads every `@tr(...)` of `ui/*.slint` with a small scanner of its own (no
//! Slint compiler needed) and fails when a catalogue misses a string, leaves it
//! empty or fuzzy, keeps a stale or obsolete one, has the wrong number of plural
//! forms for its language, or changes the `{...}` placeholders. It also checks the
//! headers Slint relies on (the `Plural-Forms` rule, UTF-8) and, when GNU gettext
//! is installed, runs `msgfmt --check` on every catalogue.
//!
//! After editing strings in `ui/*.slint`, run `locales/update.sh`, translate what
//! it reports as untranslated or fuzzy, then run this test.

use halma_core::locale::LANGUAGES;
#[path = "common/same_words.rs"]
mod same_words;
use same_words::{without_quoted_keywords, words, NAMES, SHARED_WORDS};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The gettext domain: the package name, as `with_bundled_translations` expects.
const DOMAIN: &str = "halma";

/// The language the `@tr` strings are written in; it has no catalogue.
const SOURCE_LANGUAGE: &str = "en";

/// The plural rule each catalogue must declare: the gettext/CLDR rules for
/// integers. Slint evaluates this header to pick `msgstr[i]`, so a wrong rule
/// shows the wrong form even when every form is translated.
const PLURAL_FORMS: [(&str, &str); 4] = [
    ("fr", "nplurals=2; plural=(n > 1);"),
    ("uk", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"),
    ("id", "nplurals=1; plural=0;"),
    // CLDR: "one" is i = 1,2,3 or i % 10 != 4,6,9; everything else is "other".
    ("fil", "nplurals=2; plural=(n != 1 && n != 2 && n != 3 && (n % 10 == 4 || n % 10 == 6 || n % 10 == 9));"),
];

fn project_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn catalogue_path(language: &str) -> PathBuf {
    project_dir().join("locales").join(language).join("LC_MESSAGES").join(format!("{DOMAIN}.po"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

// ---------------------------------------------------------------------------
// Messages and placeholders

/// What identifies a translatable message: Slint looks entries up by context and
/// msgid; the plural source must match too, or the catalogue was made for an
/// older version of the string.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct MessageKey {
    context: Option<String>,
    msgid: String,
    plural: Option<String>,
}

impl MessageKey {
    fn new(context: Option<&str>, msgid: &str, plural: Option<&str>) -> Self {
        MessageKey { context: context.map(str::to_owned), msgid: msgid.to_owned(), plural: plural.map(str::to_owned) }
    }
}

impl std::fmt::Display for MessageKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(context) = &self.context {
            write!(f, "{context:?} => ")?;
        }
        write!(f, "{:?}", self.msgid)?;
        if let Some(plural) = &self.plural {
            write!(f, " | {plural:?}")?;
        }
        Ok(())
    }
}

/// One `{...}` of a format string, as Slint's formatter resolves it: `{}` takes
/// the next positional argument (counting only `{}`s), `{2}` the argument of
/// that index, `{n}` a named one (the count of a plural).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Placeholder {
    Positional(usize),
    Named(String),
}

/// The placeholders of a format string, sorted, so that a translation may reorder
/// `{} … {}` as `{1} … {0}` but neither drop nor add one. `{{` and `}}` are
/// literal braces.
fn placeholders(text: &str) -> Result<Vec<Placeholder>, String> {
    let mut found = Vec::new();
    let mut next_positional = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|&(_, next)| next) == Some('{') => {
                chars.next();
            }
            '}' if chars.peek().map(|&(_, next)| next) == Some('}') => {
                chars.next();
            }
            '}' => return Err(format!("unmatched '}}' at byte {start} (write '}}}}' for a brace)")),
            '{' => {
                let rest = &text[start + 1..];
                let Some(length) = rest.find('}') else {
                    return Err(format!("unclosed '{{' at byte {start} (write '{{{{' for a brace)"));
                };
                let inside = rest[..length].trim();
                if inside.contains('{') {
                    return Err(format!("'{{' inside a placeholder at byte {start}"));
                }
                found.push(if inside.is_empty() {
                    next_positional += 1;
                    Placeholder::Positional(next_positional - 1)
                } else if let Ok(index) = inside.parse::<usize>() {
                    Placeholder::Positional(index)
                } else {
                    Placeholder::Named(inside.to_owned())
                });
                let end = start + 1 + length;
                while chars.next_if(|&(index, _)| index <= end).is_some() {}
            }
            _ => {}
        }
    }
    found.sort();
    Ok(found)
}

// ---------------------------------------------------------------------------
// The @tr strings of the .slint files

/// Reads `@tr(...)` calls from Slint source: skips comments (nested block comments
/// too) and string literals (with `\{...}` interpolations, which may hold `@tr`
/// themselves), and decodes the literal escapes Slint allows (`\"`, `\\`, `\n`,
/// `\u{...}`).
struct SlintScanner<'a> {
    source: &'a str,
    position: usize,
    found: Vec<(MessageKey, usize)>,
}

impl<'a> SlintScanner<'a> {
    /// Every `@tr` message in `source`, with the line it is on.
    fn messages(source: &'a str) -> Result<Vec<(MessageKey, usize)>, String> {
        let mut scanner = SlintScanner { source, position: 0, found: Vec::new() };
        scanner.code(false)?;
        Ok(scanner.found)
    }

    fn rest(&self) -> &'a str {
        &self.source[self.position..]
    }

    fn line(&self, position: usize) -> usize {
        self.source[..position].matches('\n').count() + 1
    }

    fn error(&self, message: &str) -> String {
        format!("line {}: {message}", self.line(self.position))
    }

    /// Code up to the end of the source, or up to the `}` that closes a string
    /// interpolation.
    fn code(&mut self, inside_interpolation: bool) -> Result<(), String> {
        let mut depth = 0usize;
        while let Some(c) = self.rest().chars().next() {
            let rest = self.rest();
            if rest.starts_with("//") || rest.starts_with("/*") {
                self.comment()?;
            } else if c == '"' {
                self.skip_string()?;
            } else if c == '{' {
                depth += 1;
                self.position += 1;
            } else if c == '}' {
                self.position += 1;
                if depth == 0 && inside_interpolation {
                    return Ok(());
                }
                depth = depth.saturating_sub(1);
            } else if rest.starts_with("@tr")
                && !rest[3..].starts_with(|next: char| next.is_alphanumeric() || next == '-' || next == '_')
            {
                self.position += 3;
                self.tr()?;
            } else {
                self.position += c.len_utf8();
            }
        }
        if inside_interpolation {
            return Err(self.error("unterminated string interpolation"));
        }
        Ok(())
    }

    fn comment(&mut self) -> Result<(), String> {
        if self.rest().starts_with("//") {
            self.position += self.rest().find('\n').unwrap_or(self.rest().len());
            return Ok(());
        }
        let start = self.position;
        self.position += 2;
        let mut depth = 1;
        while depth > 0 {
            let rest = self.rest();
            if rest.is_empty() {
                self.position = start;
                return Err(self.error("unterminated block comment"));
            } else if rest.starts_with("/*") {
                depth += 1;
                self.position += 2;
            } else if rest.starts_with("*/") {
                depth -= 1;
                self.position += 2;
            } else {
                self.position += rest.chars().next().map_or(1, char::len_utf8);
            }
        }
        Ok(())
    }

    fn trivia(&mut self) -> Result<(), String> {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.position += rest.len() - trimmed.len();
            if trimmed.starts_with("//") || trimmed.starts_with("/*") {
                self.comment()?;
            } else {
                return Ok(());
            }
        }
    }

    /// A string literal that is not a message: only its end matters.
    fn skip_string(&mut self) -> Result<(), String> {
        let start = self.position;
        self.position += 1;
        while let Some(c) = self.rest().chars().next() {
            match c {
                '"' => {
                    self.position += 1;
                    return Ok(());
                }
                '\n' => break,
                '\\' if self.rest()[1..].starts_with('{') => {
                    self.position += 2;
                    self.code(true)?;
                }
                '\\' => {
                    self.position += 1;
                    self.position += self.rest().chars().next().map_or(0, char::len_utf8);
                }
                _ => self.position += c.len_utf8(),
            }
        }
        self.position = start;
        Err(self.error("unterminated string literal"))
    }

    /// A plain string literal, decoded: the text of a message.
    fn literal(&mut self) -> Result<String, String> {
        if !self.rest().starts_with('"') {
            return Err(self.error("@tr expects a plain string literal here"));
        }
        self.position += 1;
        let mut text = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                return Err(self.error("unterminated string literal"));
            };
            self.position += c.len_utf8();
            match c {
                '"' => return Ok(text),
                '\n' => return Err(self.error("newline in string literal")),
                '\\' => {
                    let Some(escaped) = self.rest().chars().next() else {
                        return Err(self.error("unterminated string literal"));
                    };
                    self.position += escaped.len_utf8();
                    match escaped {
                        '"' => text.push('"'),
                        '\\' => text.push('\\'),
                        'n' => text.push('\n'),
                        'u' => {
                            let rest = self.rest();
                            let hex = rest
                                .strip_prefix('{')
                                .and_then(|inner| inner.split_once('}'))
                                .map(|(hex, _)| hex)
                                .ok_or_else(|| self.error("malformed \\u{...} escape"))?;
                            let decoded = u32::from_str_radix(hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or_else(|| self.error("invalid \\u{...} escape"))?;
                            text.push(decoded);
                            self.position += hex.len() + 2;
                        }
                        '{' => return Err(self.error("@tr strings cannot interpolate \\{...}")),
                        other => return Err(self.error(&format!("unknown escape \\{other}"))),
                    }
                }
                _ => text.push(c),
            }
        }
    }

    /// `@tr( ["context" =>] "msgid" [| "plural" % count] [, arguments...] )`:
    /// reads up to the plural count; the arguments are scanned as ordinary code.
    fn tr(&mut self) -> Result<(), String> {
        let start = self.position;
        self.trivia()?;
        if !self.rest().starts_with('(') {
            // `@tr` without a call is not a message (Slint would reject it anyway).
            return Err(self.error("expected '(' after @tr"));
        }
        self.position += 1;
        self.trivia()?;
        let first = self.literal()?;
        self.trivia()?;
        let (context, msgid) = if self.rest().starts_with("=>") {
            self.position += 2;
            self.trivia()?;
            (Some(first), self.literal()?)
        } else {
            (None, first)
        };
        self.trivia()?;
        let plural = if self.rest().starts_with('|') {
            self.position += 1;
            self.trivia()?;
            let plural = self.literal()?;
            self.trivia()?;
            if !self.rest().starts_with('%') {
                return Err(self.error("a plural @tr needs '% count' after its plural form"));
            }
            self.position += 1;
            Some(plural)
        } else {
            None
        };
        let line = self.line(start);
        self.found.push((MessageKey { context, msgid, plural }, line));
        Ok(())
    }
}

/// The strings of Slint's own widgets that the interface shows (a text field's context
/// menu), listed in `locales/slint-widgets.pot`: Slint looks them up in our catalogues.
fn widget_messages() -> Vec<MessageKey> {
    let path = project_dir().join("locales").join("slint-widgets.pot");
    load_catalogue(&path).entries.iter().filter(|entry| !entry.obsolete).map(PoEntry::key).collect()
}

/// Every message of `ui/*.slint`, with where it is used (`file:line`), and those of
/// Slint's widgets that the interface shows.
fn interface_messages() -> BTreeMap<MessageKey, Vec<String>> {
    let ui = project_dir().join("ui");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&ui)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", ui.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "slint"))
        .collect();
    files.sort();
    let mut messages: BTreeMap<MessageKey, Vec<String>> = BTreeMap::new();
    for file in &files {
        let name = file.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let found = SlintScanner::messages(&read(file)).unwrap_or_else(|error| panic!("ui/{name}: {error}"));
        for (key, line) in found {
            messages.entry(key).or_default().push(format!("ui/{name}:{line}"));
        }
    }
    for key in widget_messages() {
        messages.entry(key).or_default().push("Slint's std-widgets (locales/slint-widgets.pot)".to_owned());
    }
    messages
}

// ---------------------------------------------------------------------------
// Gettext catalogues

#[derive(Debug, Default)]
struct PoEntry {
    context: Option<String>,
    msgid: Option<String>,
    msgid_plural: Option<String>,
    msgstr: Option<String>,
    msgstr_plural: BTreeMap<usize, String>,
    fuzzy: bool,
    obsolete: bool,
    line: usize,
}

impl PoEntry {
    fn is_started(&self) -> bool {
        self.msgid.is_some() || self.context.is_some()
    }

    fn has_translation_part(&self) -> bool {
        self.msgstr.is_some() || !self.msgstr_plural.is_empty()
    }

    fn key(&self) -> MessageKey {
        MessageKey::new(
            self.context.as_deref(),
            self.msgid.as_deref().unwrap_or_default(),
            self.msgid_plural.as_deref(),
        )
    }
}

#[derive(Debug)]
struct Catalogue {
    headers: BTreeMap<String, String>,
    entries: Vec<PoEntry>,
}

/// Which string of the entry a continuation line (`"..."`) extends.
#[derive(Clone, Copy)]
enum Field {
    Context,
    Msgid,
    MsgidPlural,
    Msgstr,
    MsgstrPlural(usize),
}

fn unescape_po(quoted: &str) -> Result<String, String> {
    let inner = quoted
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or_else(|| format!("expected a quoted string, found {quoted}"))?;
    let mut text = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            text.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => text.push('\n'),
            Some('t') => text.push('\t'),
            Some('r') => text.push('\r'),
            Some('"') => text.push('"'),
            Some('\\') => text.push('\\'),
            other => return Err(format!("unsupported escape \\{}", other.map(String::from).unwrap_or_default())),
        }
    }
    Ok(text)
}

/// A PO file: its header fields and its entries (obsolete `#~` ones included,
/// marked as such). Previous-msgid comments (`#|`) are ignored.
fn parse_po(text: &str) -> Result<Catalogue, String> {
    let mut entries = Vec::new();
    let mut entry = PoEntry::default();
    let mut field: Option<Field> = None;
    let mut pending_fuzzy = false;
    for (index, raw_line) in text.lines().enumerate() {
        let number = index + 1;
        let at = |message: String| format!("line {number}: {message}");
        let mut line = raw_line.trim();
        let mut obsolete = false;
        if let Some(rest) = line.strip_prefix("#~") {
            if rest.starts_with('|') {
                continue;
            }
            obsolete = true;
            line = rest.trim();
        }
        if line.is_empty() {
            continue;
        }
        if let Some(flags) = line.strip_prefix("#,") {
            if entry.has_translation_part() {
                entries.push(std::mem::take(&mut entry));
                field = None;
            }
            pending_fuzzy |= flags.split(',').any(|flag| flag.trim() == "fuzzy");
            continue;
        }
        if line.starts_with('#') {
            if entry.has_translation_part() {
                entries.push(std::mem::take(&mut entry));
                field = None;
            }
            continue;
        }
        if line.starts_with('"') {
            let text = unescape_po(line).map_err(at)?;
            let target = match field {
                Some(Field::Context) => entry.context.as_mut(),
                Some(Field::Msgid) => entry.msgid.as_mut(),
                Some(Field::MsgidPlural) => entry.msgid_plural.as_mut(),
                Some(Field::Msgstr) => entry.msgstr.as_mut(),
                Some(Field::MsgstrPlural(index)) => entry.msgstr_plural.get_mut(&index),
                None => None,
            };
            target.ok_or_else(|| at("a string continues nothing".into()))?.push_str(&text);
            continue;
        }
        let (keyword, value) = line.split_once(char::is_whitespace).ok_or_else(|| at(format!("cannot read {line}")))?;
        let value = unescape_po(value.trim()).map_err(at)?;
        let starts_entry = matches!(keyword, "msgctxt" | "msgid");
        if starts_entry && (entry.has_translation_part() || (keyword == "msgctxt" && entry.is_started())) {
            entries.push(std::mem::take(&mut entry));
        }
        if starts_entry && !entry.is_started() {
            entry.line = number;
            entry.fuzzy = std::mem::take(&mut pending_fuzzy);
        }
        entry.obsolete |= obsolete;
        let duplicate = |present: bool| if present { Err(at(format!("repeated {keyword}"))) } else { Ok(()) };
        field = Some(match keyword {
            "msgctxt" => {
                duplicate(entry.context.is_some())?;
                entry.context = Some(value);
                Field::Context
            }
            "msgid" => {
                duplicate(entry.msgid.is_some())?;
                entry.msgid = Some(value);
                Field::Msgid
            }
            "msgid_plural" => {
                duplicate(entry.msgid_plural.is_some())?;
                entry.msgid_plural = Some(value);
                Field::MsgidPlural
            }
            "msgstr" => {
                duplicate(entry.msgstr.is_some())?;
                entry.msgstr = Some(value);
                Field::Msgstr
            }
            _ => {
                let index = keyword
                    .strip_prefix("msgstr[")
                    .and_then(|rest| rest.strip_suffix(']'))
                    .and_then(|index| index.parse::<usize>().ok())
                    .ok_or_else(|| at(format!("unknown keyword {keyword}")))?;
                duplicate(entry.msgstr_plural.contains_key(&index))?;
                entry.msgstr_plural.insert(index, value);
                Field::MsgstrPlural(index)
            }
        });
        if entry.msgid.is_none() && !matches!(keyword, "msgctxt") {
            return Err(at(format!("{keyword} before msgid")));
        }
    }
    if entry.is_started() {
        entries.push(entry);
    }

    let header_position = entries
        .iter()
        .position(|entry| entry.context.is_none() && entry.msgid.as_deref() == Some("") && !entry.obsolete);
    let mut headers = BTreeMap::new();
    if let Some(position) = header_position {
        let header = entries.remove(position);
        for field in header.msgstr.unwrap_or_default().lines() {
            if let Some((name, value)) = field.split_once(':') {
                headers.insert(name.trim().to_owned(), value.trim().to_owned());
            }
        }
    }
    Ok(Catalogue { headers, entries })
}

fn load_catalogue(path: &Path) -> Catalogue {
    parse_po(&read(path)).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The number of plural forms a `Plural-Forms` header declares.
fn nplurals(plural_forms: &str) -> Option<usize> {
    plural_forms.split(';').find_map(|part| part.trim().strip_prefix("nplurals=")?.trim().parse().ok())
}

/// Everything wrong with one catalogue's entries against the interface's messages.
fn catalogue_problems(
    catalogue: &Catalogue,
    nplurals: usize,
    messages: &BTreeMap<MessageKey, Vec<String>>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for entry in &catalogue.entries {
        let key = entry.key();
        let at = format!("line {}: {key}", entry.line);
        if entry.obsolete {
            problems.push(format!("{at}: obsolete (#~) entry; run locales/update.sh to drop it"));
            continue;
        }
        if !messages.contains_key(&key) {
            let same_msgid =
                messages.keys().find(|message| message.context == key.context && message.msgid == key.msgid);
            problems.push(match same_msgid {
                Some(message) => format!("{at}: the interface now has {message}"),
                None => format!("{at}: stale, not in ui/*.slint"),
            });
            continue;
        }
        if !seen.insert((key.context.clone(), key.msgid.clone())) {
            problems.push(format!("{at}: duplicate entry"));
            continue;
        }
        if entry.fuzzy {
            problems.push(format!("{at}: fuzzy; check the translation and remove the fuzzy flag"));
        }
        let translations: Vec<(String, &str)> = match &entry.msgid_plural {
            None => {
                if !entry.msgstr_plural.is_empty() {
                    problems.push(format!("{at}: msgstr[i] forms for a message without plural"));
                }
                vec![("msgstr".to_owned(), entry.msgstr.as_deref().unwrap_or_default())]
            }
            Some(_) => {
                if entry.msgstr.is_some() {
                    problems.push(format!("{at}: plain msgstr for a plural message"));
                }
                let indices: Vec<usize> = entry.msgstr_plural.keys().copied().collect();
                if indices != (0..nplurals).collect::<Vec<_>>() {
                    problems.push(format!(
                        "{at}: plural forms {indices:?}, the language has {nplurals} (msgstr[0]..msgstr[{}])",
                        nplurals - 1
                    ));
                }
                entry.msgstr_plural.iter().map(|(index, text)| (format!("msgstr[{index}]"), text.as_str())).collect()
            }
        };
        // Every plural form is used for some count other than one in our
        // languages, so each must show the placeholders of the plural source.
        let source = key.plural.as_deref().unwrap_or(&key.msgid);
        let expected = match placeholders(source) {
            Ok(expected) => expected,
            Err(error) => {
                problems.push(format!("{at}: the source string's placeholders: {error}"));
                continue;
            }
        };
        for (name, text) in translations {
            if text.is_empty() {
                problems.push(format!("{at}: {name} is empty"));
                continue;
            }
            match placeholders(text) {
                Ok(found) if found == expected => {}
                Ok(found) => problems.push(format!("{at}: {name} has placeholders {found:?}, the source {expected:?}")),
                Err(error) => problems.push(format!("{at}: {name}: {error}")),
            }
        }
    }
    for (message, used_at) in messages {
        if !seen.contains(&(message.context.clone(), message.msgid.clone())) {
            problems.push(format!("{message} (used at {}): missing", used_at.join(", ")));
        }
    }
    problems
}

// ---------------------------------------------------------------------------
// The tests of the project's catalogues

/// The languages that need a catalogue: all the app offers except the source.
fn translated_languages() -> Vec<&'static str> {
    LANGUAGES.iter().map(|&(code, _)| code).filter(|&code| code != SOURCE_LANGUAGE).collect()
}

#[test]
fn the_interface_has_messages_and_the_scanner_reads_them_all() {
    let messages = interface_messages();
    assert!(messages.len() >= 20, "only {} @tr messages found in ui/*.slint", messages.len());
    // Every "@tr(" in the sources outside comments is a message: a scanner that lost
    // its way in a string or comment would find fewer.
    let ui = project_dir().join("ui");
    for entry in std::fs::read_dir(&ui).unwrap_or_else(|error| panic!("cannot list {}: {error}", ui.display())) {
        let path = entry.unwrap_or_else(|error| panic!("cannot list {}: {error}", ui.display())).path();
        if path.extension().is_none_or(|extension| extension != "slint") {
            continue;
        }
        let source = read(&path);
        let calls = source
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .map(|line| line.split(" //").next().unwrap_or_default())
            .map(|code| code.matches("@tr(").count())
            .sum::<usize>();
        let found = SlintScanner::messages(&source).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        assert_eq!(found.len(), calls, "{}: @tr calls found by the scanner", path.display());
    }
}

#[test]
fn every_language_of_the_app_has_a_catalogue_and_no_other_does() {
    let expected: BTreeSet<&str> = translated_languages().into_iter().collect();
    let configured: BTreeSet<&str> = PLURAL_FORMS.iter().map(|&(code, _)| code).collect();
    assert_eq!(configured, expected, "PLURAL_FORMS in this test must list the app's languages");
    let locales = project_dir().join("locales");
    let mut present = BTreeSet::new();
    for entry in
        std::fs::read_dir(&locales).unwrap_or_else(|error| panic!("cannot list {}: {error}", locales.display()))
    {
        let path = entry.unwrap_or_else(|error| panic!("cannot list {}: {error}", locales.display())).path();
        if path.is_dir() {
            present.insert(path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default());
        }
    }
    let expected: BTreeSet<String> = expected.into_iter().map(str::to_owned).collect();
    assert_eq!(present, expected, "language folders in locales/");
    for language in translated_languages() {
        assert!(catalogue_path(language).is_file(), "{} is missing", catalogue_path(language).display());
    }
}

#[test]
fn catalogue_headers_declare_language_encoding_and_plural_rule() {
    for (language, plural_forms) in PLURAL_FORMS {
        let catalogue = load_catalogue(&catalogue_path(language));
        let header = |name: &str| catalogue.headers.get(name).map(String::as_str);
        assert_eq!(header("Language"), Some(language), "{language}: Language header");
        assert_eq!(header("Content-Type"), Some("text/plain; charset=UTF-8"), "{language}: Content-Type header");
        assert_eq!(header("Plural-Forms"), Some(plural_forms), "{language}: Plural-Forms header");
    }
}

#[test]
fn catalogues_translate_every_interface_string_and_nothing_else() {
    let messages = interface_messages();
    let mut report = Vec::new();
    for (language, plural_forms) in PLURAL_FORMS {
        let path = catalogue_path(language);
        let catalogue = load_catalogue(&path);
        let forms = catalogue.headers.get("Plural-Forms").and_then(|header| nplurals(header));
        let forms = forms.or(nplurals(plural_forms)).unwrap_or(1);
        for problem in catalogue_problems(&catalogue, forms, &messages) {
            report.push(format!("locales/{language}/LC_MESSAGES/{DOMAIN}.po: {problem}"));
        }
    }
    assert!(
        report.is_empty(),
        "{} problem(s); after changing ui/*.slint run locales/update.sh and translate:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn the_template_lists_exactly_the_interface_strings() {
    let path = project_dir().join("locales").join(format!("{DOMAIN}.pot"));
    let template = load_catalogue(&path);
    let listed: BTreeSet<MessageKey> =
        template.entries.iter().filter(|entry| !entry.obsolete).map(PoEntry::key).collect();
    let messages: BTreeSet<MessageKey> = interface_messages().into_keys().collect();
    let missing: Vec<String> = messages.difference(&listed).map(ToString::to_string).collect();
    let stale: Vec<String> = listed.difference(&messages).map(ToString::to_string).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "locales/{DOMAIN}.pot is out of date: run locales/update.sh\nmissing: {missing:#?}\nstale: {stale:#?}"
    );
}

#[test]
fn msgfmt_accepts_every_catalogue() {
    for language in translated_languages() {
        let path = catalogue_path(language);
        let output = match Command::new("msgfmt").arg("--check").arg("-o").arg("/dev/null").arg(&path).output() {
            Ok(output) => output,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                eprintln!("msgfmt (GNU gettext) is not installed: skipping the msgfmt --check of the catalogues");
                return;
            }
            Err(error) => panic!("cannot run msgfmt: {error}"),
        };
        // Warnings (a missing header field, for one) count: the catalogues are ours to keep clean.
        let messages = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && messages.trim().is_empty(),
            "msgfmt --check {} ({}):\n{messages}",
            path.display(),
            output.status
        );
    }
}

// ---------------------------------------------------------------------------
// The checks above, on made-up input: each kind of problem is caught.

#[test]
fn the_scanner_reads_contexts_plurals_escapes_and_skips_comments_and_strings() {
    let source = r#"
        // @tr("in a line comment")
        /* @tr("in a block comment") /* nested @tr("x") */ still a comment @tr("y") */
        export component Demo {
            property <string> a: "not a message: @tr(\"z\")";
            property <string> b: @tr("Say \"hi\"\\ {}\u{2026}", "\{ @tr("Inside an interpolation") }");
            property <string> c: @tr( "Menu" => "Open" );
            property <string> d: @tr("{n} piece" | "{n} pieces" % count, @tr("Nested"));
            property <string> e: @tr("Ctx" => "{n} move" | "{n} moves" % (a + 1) // comment
            );
            property <string> f: "\{ "}" }" + @tr("After a tricky string");
        }
    "#;
    let found = SlintScanner::messages(source).unwrap_or_else(|error| panic!("{error}"));
    let keys: Vec<(MessageKey, usize)> = vec![
        (MessageKey::new(None, "Say \"hi\"\\ {}…", None), 6),
        (MessageKey::new(None, "Inside an interpolation", None), 6),
        (MessageKey::new(Some("Menu"), "Open", None), 7),
        (MessageKey::new(None, "{n} piece", Some("{n} pieces")), 8),
        (MessageKey::new(None, "Nested", None), 8),
        (MessageKey::new(Some("Ctx"), "{n} move", Some("{n} moves")), 9),
        (MessageKey::new(None, "After a tricky string", None), 11),
    ];
    assert_eq!(found, keys);
    assert!(SlintScanner::messages(r#"x: @tr("{n} piece" | "{n} pieces");"#).is_err(), "plural without % count");
    assert!(SlintScanner::messages(r#"x: @tr("open"#).is_err(), "unterminated string");
    assert!(SlintScanner::messages(r#"x: @tr("a \{b}");"#).is_err(), "interpolation in a message");
}

#[test]
fn placeholders_may_be_reordered_but_not_changed() {
    use Placeholder::{Named, Positional};
    assert_eq!(placeholders("{} and {}"), Ok(vec![Positional(0), Positional(1)]));
    assert_eq!(placeholders("{1} et {0}"), placeholders("{} and {}"));
    assert_eq!(placeholders("{n} pieces of {}"), Ok(vec![Positional(0), Named("n".into())]));
    assert_eq!(placeholders("{{literal}} {}"), Ok(vec![Positional(0)]));
    assert_ne!(placeholders("{} and {}"), placeholders("{0} and {0}"));
    assert_ne!(placeholders("{n} pieces"), placeholders("{} pieces"));
    assert!(placeholders("{ unclosed").is_err());
    assert!(placeholders("stray }").is_err());
}

#[test]
fn catalogue_checks_catch_each_kind_of_problem() {
    let messages: BTreeMap<MessageKey, Vec<String>> = [
        MessageKey::new(None, "Good", None),
        MessageKey::new(None, "Missing", None),
        MessageKey::new(None, "Empty", None),
        MessageKey::new(None, "Fuzzy", None),
        MessageKey::new(None, "{} wins", None),
        MessageKey::new(None, "{} and {}", None),
        MessageKey::new(None, "{n} piece", Some("{n} pieces")),
        MessageKey::new(None, "{n} move", Some("{n} moves")),
        MessageKey::new(Some("Menu"), "Open", None),
        MessageKey::new(None, "Changed plural", Some("new plural")),
    ]
    .into_iter()
    .map(|key| (key, vec!["ui/demo.slint:1".to_owned()]))
    .collect();
    let po = r#"
msgid ""
msgstr ""
"Language: uk\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && "
"n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"

#: ui/demo.slint:1
msgid "Good"
msgstr "Добре"

msgid "Empty"
msgstr ""

#, fuzzy
#| msgid "Fuzz"
msgid "Fuzzy"
msgstr "Нечітко"

msgid "{} wins"
msgstr "{} виграє{}"

msgid "{} and {}"
msgstr "{1} і {0}"

msgid "{n} piece"
msgid_plural "{n} pieces"
msgstr[0] "{n} фішка"
msgstr[1] "{n} фішки"
msgstr[2] "{n} фішок"

msgid "{n} move"
msgid_plural "{n} moves"
msgstr[0] "{n} хід"
msgstr[1] "ходи"

msgctxt "Menu"
msgid "Open"
msgstr "Відкрити"

msgid "Changed plural"
msgid_plural "old plural"
msgstr[0] "а"
msgstr[1] "б"
msgstr[2] "в"

msgid "Stale"
msgstr "Застаріле"

#~ msgid "Obsolete"
#~ msgstr "Застаріле"
"#;
    let catalogue = parse_po(po).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(catalogue.headers.get("Language").map(String::as_str), Some("uk"));
    let plural_forms = catalogue.headers.get("Plural-Forms").cloned().unwrap_or_default();
    assert_eq!(nplurals(&plural_forms), Some(3));
    let problems = catalogue_problems(&catalogue, 3, &messages);
    let expected = [
        "line 12: \"Empty\": msgstr is empty",
        "line 17: \"Fuzzy\": fuzzy; check the translation and remove the fuzzy flag",
        "line 20: \"{} wins\": msgstr has placeholders [Positional(0), Positional(1)], the source [Positional(0)]",
        "line 32: \"{n} move\" | \"{n} moves\": plural forms [0, 1], the language has 3 (msgstr[0]..msgstr[2])",
        "line 32: \"{n} move\" | \"{n} moves\": msgstr[1] has placeholders [], the source [Named(\"n\")]",
        "line 41: \"Changed plural\" | \"old plural\": the interface now has \"Changed plural\" | \"new plural\"",
        "line 47: \"Stale\": stale, not in ui/*.slint",
        "line 50: \"Obsolete\": obsolete (#~) entry; run locales/update.sh to drop it",
        "\"Changed plural\" | \"new plural\" (used at ui/demo.slint:1): missing",
        "\"Missing\" (used at ui/demo.slint:1): missing",
    ];
    assert_eq!(problems, expected);
}

/// The words the user's rules text (the seeds, one per language) gives to the controls
/// it names, as (msgid, the seed's word). The seeds say, for example, « U/R:annuler/refaire
/// · Échap:annuler l’aperçu » and « Recommencer garde cette configuration ; Nouvelle partie
/// fait tourner la première place »: players who read that text must find these words on
/// the buttons, and in the Rules page where the text describes lists, swipes and the view.
const SEED_WORDS: [(&str, &[(&str, &str)]); 4] = [
    (
        "fr",
        &[
            ("Undo", "annuler"),
            ("Redo", "refaire"),
            ("Cancel", "annuler l’aperçu"),
            ("Hint", "indice"),
            ("Confirm", "confirmer"),
            ("Restart", "recommencer"),
            ("New game", "nouvelle partie"),
            (CONTROLS_TEXT, "sélecteurs"),
            (CONTROLS_TEXT, "glisser déplace seulement la vue"),
            (VIEW_TEXT, "zoom et rotation conservent partie et aperçu"),
        ],
    ),
    (
        "uk",
        &[
            ("Undo", "скасувати"),
            ("Redo", "повторити"),
            ("Cancel", "скасувати перегляд"),
            ("Hint", "порада"),
            ("Confirm", "підтвердити"),
            ("Restart", "спочатку"),
            ("New game", "нова гра"),
            (CONTROLS_TEXT, "списки"),
            (CONTROLS_TEXT, "проведення пальцем лише зміщує вигляд"),
            (VIEW_TEXT, "масштаб і поворот зберігають гру та перегляд"),
        ],
    ),
    (
        "id",
        &[
            ("Undo", "urungkan"),
            ("Redo", "ulangi"),
            ("Cancel", "batalkan pratinjau"),
            ("Hint", "petunjuk"),
            ("Confirm", "konfirmasi"),
            ("Restart", "mulai lagi"),
            ("New game", "permainan baru"),
            (CONTROLS_TEXT, "pemilih"),
            (CONTROLS_TEXT, "usapan hanya menggeser tampilan"),
            (VIEW_TEXT, "perbesaran dan rotasi mempertahankan permainan dan pratinjau"),
        ],
    ),
    (
        "fil",
        &[
            ("Undo", "ibalik"),
            ("Redo", "ulitin"),
            ("Cancel", "kanselahin ang silip"),
            ("Hint", "pahiwatig"),
            ("Confirm", "kumpirmahin"),
            ("Restart", "simulang muli"),
            ("New game", "bagong laro"),
            (CONTROLS_TEXT, "pagpipilian"),
            (CONTROLS_TEXT, "pag-swipe"),
            (VIEW_TEXT, "pinananatili ng paglaki at pag-ikot ang laro at silip"),
        ],
    ),
];

/// The Rules page's paragraphs on the controls and on the view.
const CONTROLS_TEXT: &str = "Tap one of your pieces: its legal destinations get green dots. Tap a destination to preview the whole route (the shortest one for a jump); tap a ringed square to jump further, or an earlier landing to cut back. Confirm plays the move and ends the jump chain: nothing moves without it. The Piece and Destination lists do the same as tapping. Dragging only moves the view; pinch or Ctrl+wheel zooms; a two-finger twist turns the board.";
const VIEW_TEXT: &str = "The − and + buttons zoom, Fit shows the whole board again, and ⟲ ⟳ turn it a quarter turn at a time. Zoom and rotation keep the game and the preview. To pass a tablet around, choose “Turn to face the seat to move” under Board on the New game screen: the board then turns so that the seat to move sits at the bottom.";

#[test]
fn controls_carry_the_words_of_the_users_rules_text() {
    let messages = interface_messages();
    let mut report = Vec::new();
    for (language, words) in SEED_WORDS {
        let catalogue = load_catalogue(&catalogue_path(language));
        for &(msgid, word) in words {
            assert!(
                messages.keys().any(|key| key.msgid == msgid),
                "'{msgid}' is no longer a string of the interface: update SEED_WORDS"
            );
            let translation = catalogue
                .entries
                .iter()
                .find(|entry| entry.context.is_none() && entry.msgid.as_deref() == Some(msgid))
                .and_then(|entry| entry.msgstr.clone())
                .unwrap_or_default();
            if !translation.to_lowercase().contains(word) {
                report.push(format!("{language}: '{msgid}' is «{translation}», without the seed's «{word}»"));
            }
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// When the seeds are beside the project (a developer's machine), the words above are
/// checked against them too, so that SEED_WORDS never drifts from the user's text.
#[test]
fn the_seed_words_are_the_seeds_own() {
    let seeds = project_dir().join("..").join("shared").join("seeds");
    let Ok(files) = std::fs::read_dir(&seeds) else { return };
    let text: String =
        files.flatten().map(|file| read(&file.path()).to_lowercase().replace('\'', "’")).collect::<Vec<_>>().join("\n");
    for (language, words) in SEED_WORDS {
        for &(_, word) in words {
            assert!(text.contains(word), "{language}: «{word}» is not in the seeds");
        }
    }
}

// ---------------------------------------------------------------------------
// One word per idea: the glossaries of docs/glossary/<lang>.md

/// The game ideas every glossary gives one word for, and the English words that name each
/// idea in a msgid (matched whole, case-insensitively). A msgid with one of them names
/// the idea, and its translations must use the glossary's word.
const IDEA_CUES: [(&str, &[&str]); 38] = [
    ("piece", &["piece", "pieces"]),
    ("step", &["step", "steps"]),
    ("jump", &["jump", "jumps", "jumped", "jumping"]),
    ("chain", &["chain"]),
    ("landing", &["landing", "lands", "land"]),
    ("destination", &["destination", "destinations"]),
    ("home camp", &["home camp", "home camps", "home-leaving"]),
    ("target camp", &["target camp", "target camps"]),
    ("preview", &["preview", "previewed"]),
    ("review", &["review", "reviewing"]),
    ("undo", &["undo"]),
    // Not "passes to the next seat" nor "pass a tablet around".
    ("pass", &["passed", "passing", "the pass", "passes included"]),
    ("draw", &["draw", "draws", "drawn"]),
    ("seat", &["seat", "seats"]),
    ("partner", &["partner", "partners"]),
    ("zoom", &["zoom", "zooms"]),
    ("rotate", &["rotate", "rotation"]),
    // The analysed review (#28).
    // The Analyse button's description names it by what it does (#42).
    ("analysis", &["analysis", "analyse", "analysing", "goes over every move"]),
    ("mistake", &["mistake", "mistakes"]),
    ("blunder", &["blunder", "blunders"]),
    ("inaccuracy", &["inaccuracy", "inaccuracies"]),
    ("best move", &["best move", "best moves"]),
    ("steps lost", &["steps lost", "step lost"]),
    ("evaluation graph", &["evaluation graph"]),
    // A move, the noun (#42): not "to move", "may move", "Move your whole army", and not
    // the best move (an idea of its own). In Indonesian a move beside a count of steps
    // is «giliran», so that «langkah» counts steps only («per langkah» is forbidden).
    (
        "move",
        &[
            "a move",
            "the move",
            "this move",
            "each move",
            "every move",
            "per move",
            "next move",
            "previous move",
            "last move",
            "legal move",
            "better move",
            "better moves",
            "only move",
            "good move",
            "the moves",
            "its moves",
            "not moves",
            "three moves",
            "own move",
            "move {}",
            "moves ({})",
        ],
    ),
    ("action", &["action", "actions"]),
    ("engine", &["engine"]),
    // The game's setup (players, seats, first seat) and the app's settings: two words.
    ("setup", &["setup", "set up"]),
    ("settings", &["settings"]),
    // A round (every seat moves once) and a turn (one seat's): two words. Not "turn it a
    // quarter turn", "Turn to face" nor "answers in turn".
    ("round", &["round", "rounds"]),
    ("turn", &["a turn", "one turn", "per turn", "its turn", "its turns", "own turns", "31st turn", "turns played"]),
    // Train (#41): the built-in puzzles, the player's streak and rating, and the analysis'
    // winning chance.
    ("puzzle", &["puzzle", "puzzles"]),
    ("streak", &["streak"]),
    ("rating", &["rating"]),
    // Play between devices (#40): the other device, the local network, the host's code.
    ("device", &["device", "devices"]),
    ("network", &["network"]),
    ("join code", &["join code"]),
    // The first-game guide (#45), never the Train page nor the Rules.
    ("guide", &["guide"]),
];

/// Msgids where a cue's English word does not name the idea: (msgid, idea, why).
const IDEA_EXEMPTIONS: [(&str, &str, &str); 1] = [
    // The guide's counter counts its own stages, not the game's one-square steps: «Étape 3 sur 9»,
    // «Етап 3 з 9». The step's word there reads as a move (#52).
    ("Step {} of {}", "step", "a stage of the guide"),
];

/// The ideas `msgid` names, without those it is exempted from.
fn ideas_of_msgid(msgid: &str, english: &str) -> Vec<&'static str> {
    let mut named = ideas_named(english);
    named.retain(|idea| !IDEA_EXEMPTIONS.iter().any(|&(id, exempt, _)| id == msgid && exempt == *idea));
    named
}

/// A word reserved for another idea (`word (idea)` in the glossary), or forbidden outright.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reserved {
    word: String,
    for_idea: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct GlossaryRow {
    idea: String,
    word: String,
    forms: Vec<String>,
    reserved: Vec<Reserved>,
}

fn glossary_path(language: &str) -> PathBuf {
    project_dir().join("docs").join("glossary").join(format!("{language}.md"))
}

fn comma_list(cell: &str) -> Vec<String> {
    cell.split(',').map(str::trim).filter(|item| !item.is_empty()).map(str::to_lowercase).collect()
}

/// The rows of a glossary's table: `| Idea | Word | Forms | Reserved / forbidden | Notes |`.
fn parse_glossary(text: &str) -> Result<Vec<GlossaryRow>, String> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.first().is_some_and(|cell| cell.eq_ignore_ascii_case("idea")) {
            in_table = true;
            continue;
        }
        if !in_table || cells.iter().all(|cell| cell.chars().all(|c| c == '-' || c == ':')) {
            continue;
        }
        let at = |message: &str| format!("line {}: {message}", index + 1);
        if cells.len() < 4 {
            return Err(at("a row needs Idea | Word | Forms | Reserved / forbidden"));
        }
        let forms = comma_list(cells[2]);
        if forms.is_empty() {
            return Err(at(&format!("'{}' has no forms", cells[0])));
        }
        let mut reserved = Vec::new();
        for item in comma_list(cells[3]) {
            reserved.push(match item.split_once('(') {
                Some((word, idea)) => Reserved {
                    word: word.trim().to_owned(),
                    for_idea: Some(
                        idea.strip_suffix(')')
                            .ok_or_else(|| at(&format!("unclosed '(' in '{item}'")))?
                            .trim()
                            .to_owned(),
                    ),
                },
                None => Reserved { word: item, for_idea: None },
            });
        }
        rows.push(GlossaryRow { idea: cells[0].to_lowercase(), word: cells[1].to_owned(), forms, reserved });
    }
    Ok(rows)
}

fn load_glossary(language: &str) -> Vec<GlossaryRow> {
    let path = glossary_path(language);
    parse_glossary(&read(&path)).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Whether `text` holds `word` starting at the beginning of a word (and, when `whole`,
/// ending at the end of one), ignoring case. Apostrophes and hyphens separate words.
fn has_word(text: &str, word: &str, whole: bool) -> bool {
    let text = text.to_lowercase();
    let word = word.to_lowercase();
    text.match_indices(&word).any(|(start, found)| {
        let before = text[..start].chars().next_back();
        let after = text[start + found.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && (!whole || after.is_none_or(|c| !c.is_alphanumeric()))
    })
}

/// The ideas an English msgid names.
fn ideas_named(english: &str) -> Vec<&'static str> {
    IDEA_CUES
        .iter()
        .filter(|(_, cues)| cues.iter().any(|cue| has_word(english, cue, true)))
        .map(|&(idea, _)| idea)
        .collect()
}

/// Every translation of a catalogue entry (all plural forms), with the msgid (or the
/// plural source) it translates.
fn translations(entry: &PoEntry) -> Vec<(String, String)> {
    let msgid = entry.msgid.clone().unwrap_or_default();
    match &entry.msgid_plural {
        None => vec![(msgid, entry.msgstr.clone().unwrap_or_default())],
        Some(plural) => entry
            .msgstr_plural
            .values()
            .enumerate()
            .map(|(index, text)| (if index == 0 { msgid.clone() } else { plural.clone() }, text.clone()))
            .collect(),
    }
}

/// Where a catalogue does not use its glossary's word for an idea its English names, or
/// uses a word reserved for another idea (or forbidden) there.
fn glossary_problems(catalogue: &Catalogue, glossary: &[GlossaryRow]) -> Vec<String> {
    let mut problems = Vec::new();
    for entry in catalogue.entries.iter().filter(|entry| !entry.obsolete) {
        let msgid = entry.msgid.as_deref().unwrap_or_default();
        for (english, translation) in translations(entry) {
            let named = ideas_of_msgid(msgid, &english);
            for row in glossary.iter().filter(|row| named.contains(&row.idea.as_str())) {
                if !row.forms.iter().any(|form| has_word(&translation, form, false)) {
                    problems.push(format!(
                        "{:?} names the {}: «{translation}» has none of {:?} (the glossary's «{}»)",
                        english, row.idea, row.forms, row.word
                    ));
                }
                for reserved in &row.reserved {
                    let allowed = reserved.for_idea.as_deref().is_some_and(|idea| named.contains(&idea));
                    if !allowed && has_word(&translation, &reserved.word, false) {
                        let why = match &reserved.for_idea {
                            Some(idea) => format!("reserved for the {idea}"),
                            None => "forbidden".to_owned(),
                        };
                        problems.push(format!(
                            "{:?} names the {}: «{translation}» uses «{}», {why}",
                            english, row.idea, reserved.word
                        ));
                    }
                }
            }
        }
    }
    problems
}

#[test]
fn every_language_has_a_glossary_of_every_idea() {
    let ideas: Vec<&str> = IDEA_CUES.iter().map(|&(idea, _)| idea).collect();
    for language in translated_languages() {
        let glossary = load_glossary(language);
        let listed: Vec<&str> = glossary.iter().map(|row| row.idea.as_str()).collect();
        assert_eq!(listed, ideas, "{}: the ideas, in this order", glossary_path(language).display());
        for row in &glossary {
            for reserved in &row.reserved {
                if let Some(idea) = &reserved.for_idea {
                    assert!(
                        ideas.contains(&idea.as_str()),
                        "{language}: «{}» is reserved for an unknown idea '{idea}'",
                        reserved.word
                    );
                }
            }
        }
    }
}

#[test]
fn catalogues_use_their_glossarys_word_for_each_idea() {
    let messages = interface_messages();
    for (msgid, idea, _) in IDEA_EXEMPTIONS {
        assert!(
            messages.keys().any(|key| key.msgid == msgid),
            "{msgid:?} is not in ui/*.slint: update IDEA_EXEMPTIONS"
        );
        assert!(ideas_named(msgid).contains(&idea), "{msgid:?} does not name the {idea}: drop its exemption");
    }
    let mut report = Vec::new();
    for language in translated_languages() {
        let catalogue = load_catalogue(&catalogue_path(language));
        for problem in glossary_problems(&catalogue, &load_glossary(language)) {
            report.push(format!("{language}: {problem}"));
        }
    }
    assert!(report.is_empty(), "{} problem(s):\n{}", report.len(), report.join("\n"));
}

#[test]
fn glossary_checks_catch_a_missing_word_and_a_reserved_one() {
    let glossary = parse_glossary(
        "# Demo\n\n| Idea | Word | Forms | Reserved / forbidden | Notes |\n| --- | --- | --- | --- | --- |\n\
         | destination | призначення | призначен | ціль (target camp), мета | |\n\
         | target camp | цільовий табір | цільов | | |\n",
    )
    .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(glossary[0].forms, ["призначен"]);
    assert_eq!(
        glossary[0].reserved,
        [
            Reserved { word: "ціль".into(), for_idea: Some("target camp".into()) },
            Reserved { word: "мета".into(), for_idea: None }
        ]
    );
    let catalogue = parse_po(
        r#"
msgid "Destination"
msgstr "Ціль"

msgid "Destination or target camp"
msgstr "Призначення чи цільовий табір"

msgid "The destination, not the goal"
msgstr "Призначення, а не мета"

msgid "Rotate"
msgstr "Повернути"
"#,
    )
    .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        glossary_problems(&catalogue, &glossary),
        [
            "\"Destination\" names the destination: «Ціль» has none of [\"призначен\"] (the glossary's «призначення»)",
            "\"Destination\" names the destination: «Ціль» uses «ціль», reserved for the target camp",
            "\"The destination, not the goal\" names the destination: «Призначення, а не мета» uses «мета», forbidden",
        ]
    );
    assert_eq!(ideas_named("The first move passes to the next seat"), ["seat"]);
    assert_eq!(
        ideas_named("A seat with no legal move passes; the pass counts as its turn."),
        ["pass", "seat", "move", "turn"]
    );
    assert_eq!(ideas_named("Preview and review"), ["preview", "review"]);
    // The guide's counter is exempt from the step's word, and names no other idea.
    assert_eq!(ideas_named("Step {} of {}"), ["step"]);
    assert_eq!(ideas_of_msgid("Step {} of {}", "Step {} of {}"), Vec::<&str>::new());
    assert_eq!(
        ideas_of_msgid("Hint: its first step or jump is shown.", "Hint: its first step or jump is shown."),
        ["step", "jump"]
    );
    assert_eq!(ideas_named("Ends the guide; your game is as you left it"), ["guide"]);
    assert!(parse_glossary("| Idea | Word | Forms | Reserved |\n|---|---|---|---|\n| piece | pion | | |\n").is_err());

    // #42: «langkah» for a move in a count of steps, and the review's verb for the analysis.
    assert_eq!(ideas_named("{} steps lost per move"), ["step", "steps lost", "move"]);
    let indonesian = parse_glossary(
        "| Idea | Word | Forms | Reserved / forbidden | Notes |\n| --- | --- | --- | --- | --- |\n\
         | move | langkah | langkah, giliran | gerakan, per langkah | |\n\
         | analysis | analisis | analisis, menganalisis | tinjau (review), meninjau (review) | |\n",
    )
    .unwrap_or_else(|error| panic!("{error}"));
    let catalogue = parse_po(
        r#"
msgid "{} steps lost per move"
msgstr "{} langkah hilang per langkah"

msgid "The computer goes over every move of the game"
msgstr "Komputer meninjau setiap langkah permainan"

msgid "The computer goes over every move of the game, again"
msgstr "Komputer menganalisis setiap langkah permainan lagi"
"#,
    )
    .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        glossary_problems(&catalogue, &indonesian),
        [
            "\"{} steps lost per move\" names the move: «{} langkah hilang per langkah» uses «per langkah», forbidden",
            "\"The computer goes over every move of the game\" names the analysis: «Komputer meninjau setiap langkah permainan» has none of [\"analisis\", \"menganalisis\"] (the glossary's «analisis»)",
            "\"The computer goes over every move of the game\" names the analysis: «Komputer meninjau setiap langkah permainan» uses «meninjau», reserved for the review",
        ]
    );
}

// ---------------------------------------------------------------------------
// No English in a translated message, its details included

/// Messages whose placeholder is filled with another message: a refused record's line and
/// problem, and the problem's detail. (outer msgid, placeholder index, inner msgids.)
/// Rendering every combination shows each notice as the player reads it.
const DETAIL_SLOTS: [(&str, usize, &[&str]); 4] = [
    ("Line {}: {}", 1, &RECORD_PROBLEMS),
    ("This text cannot be read as a game record: {}", 0, &RECORD_PROBLEMS),
    ("this header line cannot be read: {}", 0, &HEADER_DETAILS),
    ("action {} is not written in the game's notation: {}", 1, &MOVE_DETAILS),
];

/// Why a pasted record was refused (ui/import-dialog.slint).
const RECORD_PROBLEMS: [&str; 11] = [
    "the text is too large to be a game record",
    "the text is empty",
    "a game record begins with the line [Halma \"1\"]",
    "this header line cannot be read: {}",
    "the round number {} is not the next round",
    "action {} is not written in the game's notation: {}",
    "action {} cannot be played by the rules: {}",
    "the draw vote {} cannot be given here",
    "the record has too many actions",
    "the result does not match the moves",
    "the record's seats do not fit its setup",
];

/// The details of a header line: its own text (the sample) or a reason.
const HEADER_DETAILS: [&str; 14] = [
    "{}",
    "the header has no line [{} \"…\"]",
    "the start position does not match the setup and the first seat",
    "the start position should have 4 parts, not {}",
    "the start position names an unknown setup “{}”",
    "the start position names “{}” to move, which is not a seat (A, B, C or D)",
    "seat {} does not play in the start position's setup",
    "the start position's count of turns played, “{}”, is not a number",
    "the start position's count of turns played, {}, is too large",
    "the start position should have 16 rows, not {}",
    "row {} of the start position has a wrong count of empty squares",
    "row {} of the start position has the unexpected character “{}”",
    "row {} of the start position is longer than 16 squares",
    "row {} of the start position should have 16 squares, not {}",
];

/// The details of a move that is not notation.
const MOVE_DETAILS: [&str; 4] = [
    "“{}” is too long for a move",
    "“{}” is not a square (a1 to p16)",
    "“{}” is not a move: two squares or more joined by “-”, or “pass”",
    "“{}” lands on more squares than a jump chain can",
];

/// English that is not in the interface's strings but is what leaks from a parser or the
/// operating system when a detail is shown untranslated.
const LEAKED_ENGLISH: [&str; 24] = [
    "bad",
    "expected",
    "got",
    "such",
    "directory",
    "permission",
    "denied",
    "error",
    "invalid",
    "column",
    "eof",
    "field",
    "value",
    "missing",
    "unknown",
    "malformed",
    "illegal",
    "tag",
    "hpn",
    "ply",
    "unsupported",
    "over",
    "limit",
    "bytes",
];

/// Fills a format string's placeholders, in order of appearance, with `values` (`{n}`
/// takes the count "3"; `{1}` takes the second value).
fn fill(format: &str, values: &[String]) -> String {
    let mut out = String::new();
    let mut rest = format;
    let mut next = 0;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        if let Some(stripped) = after.strip_prefix('{') {
            out.push('{');
            rest = stripped;
            continue;
        }
        let Some(end) = after.find('}') else { break };
        let inside = after[..end].trim();
        let value = if inside == "n" {
            "3".to_owned()
        } else {
            let index = inside.parse::<usize>().unwrap_or_else(|_| {
                next += 1;
                next - 1
            });
            values.get(index).cloned().unwrap_or_default()
        };
        out.push_str(&value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out.replace("}}", "}")
}

/// Every way a message shows in a catalogue's language: its translation, with each
/// placeholder filled by a sample (a seat's translated name) or, in a detail slot, by
/// every rendering of the messages that can stand there.
fn renderings(catalogue: &BTreeMap<String, Vec<String>>, msgid: &str, sample: &str) -> Vec<String> {
    let Some(forms) = catalogue.get(msgid) else {
        return if msgid == "{}" { vec![sample.to_owned()] } else { Vec::new() };
    };
    let mut out = Vec::new();
    for form in forms {
        let count = placeholders(form)
            .map(|found| found.iter().filter(|p| matches!(p, Placeholder::Positional(_))).count())
            .unwrap_or(0);
        let mut combinations: Vec<Vec<String>> = vec![Vec::new()];
        for slot in 0..count {
            let choices = match DETAIL_SLOTS.iter().find(|&&(outer, index, _)| outer == msgid && index == slot) {
                Some(&(_, _, inner)) => inner.iter().flat_map(|inner| renderings(catalogue, inner, sample)).collect(),
                None => vec![sample.to_owned()],
            };
            combinations = combinations
                .iter()
                .flat_map(|done| choices.iter().map(move |choice| [done.clone(), vec![choice.clone()]].concat()))
                .collect();
        }
        out.extend(combinations.iter().map(|values| fill(form, values)));
    }
    out
}

/// English words (from `vocabulary`) in a language's renderings of its messages.
fn english_in(
    catalogue: &BTreeMap<String, Vec<String>>,
    vocabulary: &BTreeSet<String>,
    allowed: &BTreeSet<String>,
    sample: &str,
) -> Vec<String> {
    let mut found = Vec::new();
    for msgid in catalogue.keys() {
        for text in renderings(catalogue, msgid, sample) {
            let english: Vec<String> = words(&without_quoted_keywords(&text))
                .into_iter()
                .filter(|word| word.chars().count() >= 3 && vocabulary.contains(word) && !allowed.contains(word))
                .collect();
            if !english.is_empty() {
                found.push(format!("{msgid:?} shows «{text}»: {english:?}"));
            }
        }
    }
    found.dedup();
    found
}

/// The catalogue as msgid → its translations (every plural form).
fn translations_by_msgid(catalogue: &Catalogue) -> BTreeMap<String, Vec<String>> {
    catalogue
        .entries
        .iter()
        .filter(|entry| !entry.obsolete && entry.context.is_none())
        .map(|entry| {
            (entry.msgid.clone().unwrap_or_default(), translations(entry).into_iter().map(|(_, text)| text).collect())
        })
        .collect()
}

#[test]
fn rendered_messages_and_their_details_have_no_english() {
    let template = load_catalogue(&project_dir().join("locales").join(format!("{DOMAIN}.pot")));
    let mut vocabulary: BTreeSet<String> = template
        .entries
        .iter()
        .flat_map(|entry| [entry.msgid.clone(), entry.msgid_plural.clone()])
        .flatten()
        .flat_map(|english| words(&english))
        .collect();
    vocabulary.extend(LEAKED_ENGLISH.iter().map(|word| word.to_string()));
    for (outer, _, inner) in DETAIL_SLOTS {
        for msgid in std::iter::once(outer).chain(inner.iter().copied().filter(|&id| id != "{}")) {
            assert!(
                template.entries.iter().any(|entry| entry.msgid.as_deref() == Some(msgid)),
                "{msgid:?} is not in the template: update DETAIL_SLOTS"
            );
        }
    }
    let mut report = Vec::new();
    for (language, shared) in SHARED_WORDS {
        let catalogue = translations_by_msgid(&load_catalogue(&catalogue_path(language)));
        let allowed: BTreeSet<String> = NAMES.iter().chain(shared.iter()).map(|word| word.to_string()).collect();
        let sample = catalogue.get("Blue (A)").and_then(|forms| forms.first()).cloned().unwrap_or_default();
        for problem in english_in(&catalogue, &vocabulary, &allowed, &sample) {
            report.push(format!("{language}: {problem}"));
        }
    }
    assert!(report.is_empty(), "{} message(s) with English:\n{}", report.len(), report.join("\n"));
}

#[test]
fn the_english_check_renders_details_and_finds_leaks() {
    let catalogue: BTreeMap<String, Vec<String>> = [
        ("Line {}: {}", "Ligne {} : {}"),
        ("action {} is not written in the game's notation: {}", "l’action {} est mal écrite : {}"),
        ("“{}” is too long for a move", "« {} » est trop long"),
        ("“{}” is not a square (a1 to p16)", "« {} » bad square"),
        ("the text is empty", "le texte est vide"),
    ]
    .into_iter()
    .map(|(id, text)| (id.to_owned(), vec![text.to_owned()]))
    .collect();
    let line = renderings(&catalogue, "Line {}: {}", "Bleu (A)");
    assert!(
        line.contains(&"Ligne Bleu (A) : l’action Bleu (A) est mal écrite : « Bleu (A) » est trop long".to_owned()),
        "{line:?}"
    );
    assert!(line.contains(&"Ligne Bleu (A) : le texte est vide".to_owned()), "{line:?}");
    assert_eq!(fill("{1} et {0}, {n}", &["a".into(), "b".into()]), "b et a, 3");
    let vocabulary: BTreeSet<String> = ["bad", "square"].into_iter().map(String::from).collect();
    let found = english_in(&catalogue, &vocabulary, &BTreeSet::new(), "Bleu (A)");
    assert!(found.iter().all(|problem| problem.contains("[\"bad\", \"square\"]")), "{found:#?}");
    assert!(
        found.iter().any(|problem| problem.starts_with(
            "\"Line {}: {}\" shows «Ligne Bleu (A) : l’action Bleu (A) est mal écrite : « Bleu (A) » bad square»"
        )),
        "{found:#?}"
    );
    assert_eq!(words("l’action «pass» a1-p16"), ["l", "action", "pass", "a", "p"]);
    assert_eq!(without_quoted_keywords("ou «\u{a0}pass\u{a0}», ou pass, “pass”"), "ou «\u{a0}\u{a0}», ou pass, “”");
}
