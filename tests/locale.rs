//! The mapping from system locale tags to the five interface languages.

use halma::app::locale::{
    language_from_locale, language_from_locales, native_name, supported_language, system_language, LANGUAGES,
};

#[test]
fn the_five_languages_with_their_native_names() {
    assert_eq!(
        LANGUAGES,
        [("en", "English"), ("fr", "Français"), ("uk", "Українська"), ("id", "Bahasa Indonesia"), ("fil", "Filipino"),]
    );
    assert_eq!(native_name("uk"), "Українська");
    assert_eq!(native_name("fil"), "Filipino");
    assert_eq!(native_name("de"), "de");
}

#[test]
fn locale_tags_map_to_our_languages() {
    let cases = [
        ("fr-FR", "fr"),
        ("fr_CA.UTF-8", "fr"),
        ("fr_FR@euro", "fr"),
        ("fr_BE.ISO-8859-1@euro", "fr"),
        ("fr", "fr"),
        ("uk_UA", "uk"),
        ("uk-UA", "uk"),
        ("uk_UA.UTF-8", "uk"),
        ("uk-Cyrl-UA", "uk"),
        ("id", "id"),
        ("in", "id"),
        ("in-ID", "id"),
        ("id-ID", "id"),
        ("id_ID.UTF-8", "id"),
        ("fil", "fil"),
        ("fil-PH", "fil"),
        ("fil_PH.UTF-8", "fil"),
        ("tl", "fil"),
        ("tl_PH", "fil"),
        ("tl-PH", "fil"),
        ("C", "en"),
        ("C.UTF-8", "en"),
        ("POSIX", "en"),
        ("", "en"),
        ("en_US.UTF-8", "en"),
        ("en-GB", "en"),
        ("en", "en"),
        ("de-DE", "en"),
        ("de_DE.UTF-8@euro", "en"),
        ("zh-Hant-TW", "en"),
        ("ukr", "en"),
        ("france", "en"),
        ("@euro", "en"),
        (".UTF-8", "en"),
        ("-", "en"),
    ];
    for (tag, expected) in cases {
        assert_eq!(language_from_locale(tag), expected, "tag {tag:?}");
    }
}

#[test]
fn case_does_not_matter() {
    let cases = [
        ("FR-fr", "fr"),
        ("Fr_cA.utf-8", "fr"),
        ("UK_ua", "uk"),
        ("IN", "id"),
        ("ID-id", "id"),
        ("FIL-ph", "fil"),
        ("TL_ph", "fil"),
        ("c", "en"),
        ("posix", "en"),
        ("DE-de", "en"),
    ];
    for (tag, expected) in cases {
        assert_eq!(language_from_locale(tag), expected, "tag {tag:?}");
    }
}

#[test]
fn unsupported_and_empty_tags_are_told_apart_from_english() {
    assert_eq!(supported_language("de-DE"), None);
    assert_eq!(supported_language(""), None);
    assert_eq!(supported_language("en-US"), Some("en"));
    assert_eq!(supported_language("C"), Some("en"));
    assert_eq!(supported_language("tl_PH"), Some("fil"));
}

#[test]
fn the_first_language_we_speak_in_the_preference_list_wins() {
    assert_eq!(language_from_locales(["de-DE", "fr-FR", "en-US"]), "fr");
    assert_eq!(language_from_locales(["en-US", "fr-FR"]), "en");
    assert_eq!(language_from_locales(["", "pt-BR", "in-ID"]), "id");
    assert_eq!(language_from_locales(["de-DE", "es-ES"]), "en");
    assert_eq!(language_from_locales([]), "en");
}

#[test]
fn the_system_language_is_one_of_ours() {
    let code = system_language();
    assert!(LANGUAGES.iter().any(|(known, _)| *known == code), "{code}");
    #[cfg(not(feature = "gui"))]
    assert_eq!(code, "en");
}
