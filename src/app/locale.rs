//! Picking the interface language from the system locale.
//!
//! The interface speaks five languages. The system reports its preference as a
//! BCP 47 tag (`fr-FR`, Android's `in-ID`) or a POSIX locale (`fr_CA.UTF-8@euro`,
//! `C`); this module maps any of them to one of the five codes, English when the
//! system's language is not one of ours.

/// The languages of the interface: code (as used for `locales/<code>/`) and the
/// language's own name, as shown in the language menu. English, the source
/// language, comes first.
pub const LANGUAGES: [(&str, &str); 5] =
    [("en", "English"), ("fr", "Français"), ("uk", "Українська"), ("id", "Bahasa Indonesia"), ("fil", "Filipino")];

/// The language used when the system asks for none of ours.
pub const FALLBACK_LANGUAGE: &str = "en";

/// The interface language for one locale tag, or `None` when the tag names a
/// language we do not speak (or is empty).
///
/// Accepts BCP 47 (`fil-PH`) and POSIX (`tl_PH.UTF-8@mod`) forms, in any case.
/// Old and alternative codes map to ours: `in` (Android before API 34) is
/// Indonesian, `tl` (Tagalog, whose standard form Filipino is) is Filipino. The
/// POSIX `C` and `POSIX` locales mean untranslated messages, that is English.
pub fn supported_language(tag: &str) -> Option<&'static str> {
    // `language[_territory][.codeset][@modifier]` or `language[-script][-region]...`.
    let without_modifier = tag.split('@').next().unwrap_or_default();
    let without_codeset = without_modifier.split('.').next().unwrap_or_default();
    let language = without_codeset.split(['-', '_']).next().unwrap_or_default().trim().to_ascii_lowercase();
    match language.as_str() {
        "en" | "c" | "posix" => Some("en"),
        "fr" => Some("fr"),
        "uk" => Some("uk"),
        "id" | "in" => Some("id"),
        "fil" | "tl" => Some("fil"),
        _ => None,
    }
}

/// The interface language for one locale tag: one of the codes of [`LANGUAGES`],
/// English for an empty tag or a language we do not speak.
pub fn language_from_locale(tag: &str) -> &'static str {
    supported_language(tag).unwrap_or(FALLBACK_LANGUAGE)
}

/// The interface language for the system's preferred locales, most preferred
/// first: the first one we speak, so that a German speaker who also listed
/// French gets French rather than English.
pub fn language_from_locales<'a>(tags: impl IntoIterator<Item = &'a str>) -> &'static str {
    tags.into_iter().find_map(supported_language).unwrap_or(FALLBACK_LANGUAGE)
}

/// The native name of a language code of [`LANGUAGES`] (the code itself for any other).
pub fn native_name(code: &str) -> &str {
    LANGUAGES.iter().find(|(known, _)| *known == code).map_or(code, |(_, name)| name)
}

/// The interface language the system asks for (sys-locale's preference list).
#[cfg(feature = "gui")]
pub fn system_language() -> &'static str {
    let preferred: Vec<String> = sys_locale::get_locales().collect();
    language_from_locales(preferred.iter().map(String::as_str))
}

/// The interface language the system asks for: always English without the
/// interface (the `gui` feature brings sys-locale).
#[cfg(not(feature = "gui"))]
pub fn system_language() -> &'static str {
    FALLBACK_LANGUAGE
}
