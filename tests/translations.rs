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

use halma::app::locale::LANGUAGES;
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

/// Every message of `ui/*.slint`, with where it is used (`file:line`).
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
