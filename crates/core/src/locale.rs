//! Picking the interface language from the system locale.
//!
//! The interface speaks five languages. The system reports its preference as a
//! BCP 47 tag (`fr-FR`, Android's `in-ID`) or a POSIX locale (`fr_CA.UTF-8@euro`,
//! `C`); this module maps any of them to one of the five codes, English when the
//! system's language is not one of ours.
//!
//! On Android the language comes from the activity's configuration instead (see
//! [`android_configuration_language`] and [`set_platform_language`]): that is the
//! language Android resolved for this app, which honours the per-app language of
//! Android 13+ and the user's secondary languages. The player's own choice in the
//! app always wins over the system's ([`interface_language`]).

use std::sync::Mutex;

/// The languages of the interface: code (as used for `locales/<code>/`) and the
/// language's own name, as shown in the language menu. English, the source
/// language, comes first.
pub const LANGUAGES: [(&str, &str); 5] =
    [("en", "English"), ("fr", "Français"), ("uk", "Українська"), ("id", "Bahasa Indonesia"), ("fil", "Filipino")];

/// The place of `code` in [`LANGUAGES`] (the language menu's index), 0 if it is none of ours.
pub fn language_index(code: &str) -> i32 {
    LANGUAGES.iter().position(|(known, _)| *known == code).map_or(0, |index| index as i32)
}

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

/// The language the platform reported itself, if it did: set by the Android glue
/// from the activity's configuration, at start and on each configuration change.
static PLATFORM_LANGUAGE: Mutex<Option<&'static str>> = Mutex::new(None);

/// Records the interface language the platform asks for (one of the codes of
/// [`LANGUAGES`]), or forgets it with `None`. From then on [`system_language`]
/// returns it instead of asking sys-locale. Returns whether it changed.
pub fn set_platform_language(language: Option<&'static str>) -> bool {
    let mut current = PLATFORM_LANGUAGE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let changed = *current != language;
    *current = language;
    changed
}

/// The language recorded by [`set_platform_language`], if any.
pub fn platform_language() -> Option<&'static str> {
    *PLATFORM_LANGUAGE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The interface language the system asks for: the platform's own report if
/// there is one (Android), otherwise sys-locale's preference list.
pub fn system_language() -> &'static str {
    platform_language().unwrap_or_else(|| {
        let preferred: Vec<String> = sys_locale::get_locales().collect();
        language_from_locales(preferred.iter().map(String::as_str))
    })
}

/// The language the interface shows: the player's choice in the app when it is
/// one of ours, whatever the system says; otherwise the system's language.
pub fn interface_language(player_choice: Option<&str>, system: &'static str) -> &'static str {
    player_choice.and_then(supported_language).unwrap_or(system)
}

/// Decodes a language or region code as Android's `AConfiguration` stores it:
/// two bytes, either two ASCII letters (`fr`, `in`; `FR` for a region) or, for a
/// three-letter code (`fil`), the three letters packed into 15 bits with the top
/// bit of the first byte set (`ResTable_config::packLanguageOrRegion`, with `a`
/// as the base for languages and `0` for regions). Zero bytes mean "not set".
///
/// The ndk crate's `Configuration::language()` reads the two bytes as UTF-8 and
/// panics on a packed code, so Filipino must be decoded here.
pub fn unpack_configuration_code(bytes: [u8; 2], base: u8) -> Option<String> {
    if bytes[0] == 0 {
        return None;
    }
    if bytes[0] & 0x80 == 0 {
        let code: String = bytes.iter().take_while(|b| **b != 0).map(|b| char::from(*b)).collect();
        return code.chars().all(|c| c.is_ascii_alphanumeric()).then_some(code);
    }
    let first = bytes[1] & 0x1f;
    let second = ((bytes[1] & 0xe0) >> 5) | ((bytes[0] & 0x03) << 3);
    let third = (bytes[0] & 0x7c) >> 2;
    let code: String = [first, second, third].iter().map(|b| char::from(base.wrapping_add(*b))).collect();
    code.chars().all(|c| c.is_ascii_alphanumeric()).then_some(code)
}

/// The interface language for the locale of an Android configuration, from the
/// raw bytes of `AConfiguration_getLanguage` and `AConfiguration_getCountry`:
/// `None` when the configuration has no language or one we do not speak.
///
/// Android resolves that locale for the app from the user's list: the per-app
/// language (Android 13+) if set, otherwise the first of the system languages
/// that the app has resources for (`android/res/values-*`), so a German speaker
/// who also lists French sees French. Android writes Indonesian with its legacy
/// code `in`, Filipino as the packed three-letter `fil` (or `tl`).
pub fn android_configuration_language(language: [u8; 2], country: [u8; 2]) -> Option<&'static str> {
    let language = unpack_configuration_code(language, b'a')?;
    let tag = match unpack_configuration_code(country, b'0') {
        Some(country) => format!("{language}-{country}"),
        None => language,
    };
    supported_language(&tag)
}
