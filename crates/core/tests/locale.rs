//! The mapping from system locale tags to the five interface languages.

use halma_core::locale::{
    android_configuration_language, interface_language, language_from_locale, language_from_locales, native_name,
    platform_language, set_platform_language, supported_language, system_language, unpack_configuration_code,
    LANGUAGES,
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

/// The one test that touches the process-wide platform language (tests run on parallel threads).
#[test]
fn the_system_language_is_one_of_ours_and_the_platform_report_overrides_it() {
    assert_eq!(platform_language(), None);
    let code = system_language();
    assert!(LANGUAGES.iter().any(|(known, _)| *known == code), "{code}");

    // Android reports the activity's language at start and on every configuration change.
    assert!(set_platform_language(Some("uk")));
    assert_eq!(system_language(), "uk");
    assert!(!set_platform_language(Some("uk")), "the same language again is no change");
    assert!(set_platform_language(Some("fil")));
    assert_eq!(system_language(), "fil");
    assert!(set_platform_language(None));
    assert_eq!(system_language(), code);
}

#[test]
fn the_players_choice_wins_over_the_system_language() {
    assert_eq!(interface_language(None, "fr"), "fr");
    assert_eq!(interface_language(Some("uk"), "fr"), "uk");
    assert_eq!(interface_language(Some("en"), "fil"), "en");
    // A setting from an older or damaged file that names no language of ours is no choice.
    assert_eq!(interface_language(Some("de"), "id"), "id");
    assert_eq!(interface_language(Some(""), "id"), "id");
}

/// `ResTable_config::packLanguageOrRegion` of AOSP (libs/androidfw/ResourceTypes.cpp), which is how
/// `AConfiguration` stores a code: two letters as they are, three packed into two bytes.
fn pack(code: &str, base: u8) -> [u8; 2] {
    let b = code.as_bytes();
    if b.len() == 2 {
        return [b[0], b[1]];
    }
    let first = (b[0] - base) & 0x7f;
    let second = (b[1] - base) & 0x7f;
    let third = (b[2] - base) & 0x7f;
    [0x80 | (third << 2) | (second >> 3), (second << 5) | first]
}

#[test]
fn configuration_codes_unpack_as_android_packs_them() {
    assert_eq!(pack("fil", b'a'), [0xAD, 0x05]);
    for code in ["fil", "ast", "yue", "zzz", "aaa", "fr", "in", "tl"] {
        assert_eq!(unpack_configuration_code(pack(code, b'a'), b'a').as_deref(), Some(code), "{code}");
    }
    for region in ["PH", "FR", "419", "001"] {
        assert_eq!(unpack_configuration_code(pack(region, b'0'), b'0').as_deref(), Some(region), "{region}");
    }
    assert_eq!(unpack_configuration_code([0, 0], b'a'), None);
    assert_eq!(unpack_configuration_code(*b"\x01\x02", b'a'), None, "not letters");
}

#[test]
fn the_activity_configuration_maps_to_our_languages() {
    let config = |language: &str, country: &str| {
        let country = if country.is_empty() { [0, 0] } else { pack(country, b'0') };
        android_configuration_language(pack(language, b'a'), country)
    };
    // What Android writes: legacy `in` for Indonesian, packed `fil` for Filipino, `tl` from old devices.
    assert_eq!(config("fr", "FR"), Some("fr"));
    assert_eq!(config("fr", "CA"), Some("fr"));
    assert_eq!(config("uk", "UA"), Some("uk"));
    assert_eq!(config("in", "ID"), Some("id"));
    assert_eq!(config("id", ""), Some("id"));
    assert_eq!(config("fil", "PH"), Some("fil"));
    assert_eq!(config("fil", ""), Some("fil"));
    assert_eq!(config("tl", "PH"), Some("fil"));
    assert_eq!(config("en", "US"), Some("en"));
    assert_eq!(config("es", "419"), None);
    assert_eq!(config("de", "DE"), None);
    assert_eq!(config("yue", "HK"), None);
    assert_eq!(android_configuration_language([0, 0], [0, 0]), None, "no language set");
}
