//! The store texts tell the truth about the app (#52).
//!
//! `fastlane/metadata/android/<locale>/full_description.txt` is what F-Droid and Google Play
//! show before anyone installs Halma. It must explain every permission the manifest asks for
//! (in the words the store's own permission list uses), say what leaves the device, name the
//! features players look for, and keep to the stores' lengths. A permission added to
//! `android/AndroidManifest.xml` fails this test until the five descriptions explain it.
//!
//! The next version's "what's new" text waits in `fastlane/unreleased/<locale>.txt`:
//! `.ci/version-check.py` allows no changelog for a later versionCode than Cargo.toml's, so the
//! release commit moves it to `changelogs/<versionCode>.txt` (android/README.md, "A release").

use std::collections::BTreeSet;
use std::path::PathBuf;

/// The store's locales, as fastlane names their folders.
const LOCALES: [&str; 5] = ["en-US", "fr-FR", "uk", "id", "fil"];

/// Each permission the manifest may ask for, with the words that explain it in each locale
/// (in LOCALES' order): the name the store's permission list gives it, which starts the line
/// that says what Halma uses it for.
const PERMISSIONS: [(&str, [&str; 5]); 4] = [
    (
        "android.permission.INTERNET",
        [
            "Network access: only to play with a device nearby",
            "Accès complet au réseau\u{a0}: uniquement pour jouer avec un appareil à proximité",
            "Повний доступ до мережі: лише щоб грати з пристроєм поруч",
            "Akses jaringan penuh: hanya untuk bermain dengan perangkat di sekitar",
            "Buong access sa network: para lang makipaglaro sa aparatong malapit",
        ],
    ),
    (
        "android.permission.ACCESS_NETWORK_STATE",
        [
            "View network connections:",
            "Afficher les connexions réseau\u{a0}:",
            "Перегляд мережевих з’єднань:",
            "Lihat koneksi jaringan:",
            "Pagtingin sa mga koneksiyon sa network:",
        ],
    ),
    (
        "android.permission.CHANGE_WIFI_MULTICAST_STATE",
        [
            "Wi-Fi multicast reception:",
            "Recevoir des données en multidiffusion Wi-Fi\u{a0}:",
            "Отримання даних багатоадресної передачі Wi-Fi:",
            "Terima multicast Wi-Fi:",
            "Pagtanggap ng Wi-Fi multicast:",
        ],
    ),
    (
        "android.permission.VIBRATE",
        [
            "Vibration:",
            "Contrôler le vibreur\u{a0}:",
            "Керування вібрацією:",
            "Kontrol getaran:",
            "Pagkontrol sa pag-vibrate:",
        ],
    ),
];

/// What leaves the device: nothing but the games the player sends, and a game with a device
/// nearby stays on the local network.
const PRIVACY: [&str; 5] = [
    "No ads, no accounts, no tracking, no server: nothing leaves your device except the games you send yourself, and a game with a nearby device stays on your local network.",
    "Sans publicité, sans compte, sans pistage, sans serveur\u{a0}: rien ne quitte votre appareil, sauf les parties que vous envoyez vous-même, et une partie avec un appareil à proximité reste sur votre réseau local.",
    "Без реклами, облікових записів, стеження й сервера: ніщо не залишає ваш пристрій, крім ігор, які ви надсилаєте самі, а гра з пристроєм поруч не виходить за межі вашої локальної мережі.",
    "Tanpa iklan, tanpa akun, tanpa pelacakan, tanpa server: tidak ada yang keluar dari perangkatmu kecuali permainan yang kamu kirim sendiri, dan permainan dengan perangkat di sekitar tetap berada di jaringan lokalmu.",
    "Walang ads, walang account, walang pagsubaybay, walang server: walang lumalabas sa aparato mo maliban sa mga larong ikaw mismo ang nagpapadala, at nananatili sa lokal mong network ang laro sa isang aparatong malapit.",
];

/// What the first release could say and this one must not: no permissions, offline only.
const NO_LONGER_TRUE: [&str; 10] = [
    "no permissions",
    "offline",
    "aucune autorisation",
    "hors ligne",
    "жодних дозволів",
    "офлайн",
    "tidak meminta izin",
    "walang hinihinging pahintulot",
    "no internet",
    "sans internet",
];

/// The features the listing names (docs/FEATURES.md), by a word of each locale.
const FEATURES: [(&str, [&str; 5]); 8] = [
    ("the first-game guide", ["first-game guide", "tutoriel", "Навчання", "Panduan", "gabay"]),
    ("Train and its puzzles", ["Train: the puzzle of the day", "Exercices", "Тренування", "Latihan", "Pagsasanay"]),
    ("play by message", ["Play by message", "par correspondance", "через повідомлення", "lewat pesan", "sa mensahe"]),
    (
        "play with a device nearby",
        ["device nearby", "appareil à proximité", "пристроєм поруч", "perangkat di sekitar", "aparatong malapit"],
    ),
    ("sound", ["sounds", "sons", "звуки", "Suara", "tunog"]),
    ("vibration", ["vibration", "vibration", "вібрація", "getaran", "pag-vibrate"]),
    ("the dark theme", ["dark theme", "thème sombre", "темна тем", "tema gelap", "madilim na tema"]),
    ("the analysis", ["Analyse", "Analyser", "Аналіз", "Analisis", "Analisis"]),
];

/// The stores' limits, in characters (Google Play's; F-Droid's are looser).
const LIMITS: [(&str, usize); 3] = [("title.txt", 30), ("short_description.txt", 80), ("full_description.txt", 4000)];
const CHANGELOG_LIMIT: usize = 500;

fn project_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    let path = project_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

fn description(locale: &str) -> String {
    read(&format!("fastlane/metadata/android/{locale}/full_description.txt"))
}

/// The permissions a manifest asks for (`<uses-permission android:name="..."/>`), comments aside.
fn manifest_permissions(manifest: &str) -> BTreeSet<String> {
    let mut code = String::new();
    let mut rest = manifest;
    while let Some(start) = rest.find("<!--") {
        code.push_str(&rest[..start]);
        rest = rest[start..].find("-->").map_or("", |end| &rest[start + end + 3..]);
    }
    code.push_str(rest);
    code.split("<uses-permission")
        .skip(1)
        .filter_map(|element| {
            let after = element.split("android:name=\"").nth(1)?;
            Some(after.split('"').next()?.to_owned())
        })
        .collect()
}

#[test]
fn the_manifest_is_read_as_the_store_reads_it() {
    let manifest = "<manifest><!-- <uses-permission android:name=\"android.permission.CAMERA\" /> -->\n\
                    <uses-permission android:name=\"android.permission.VIBRATE\" />\n\
                    <uses-permission\n    android:name=\"android.permission.INTERNET\"/></manifest>";
    let found: Vec<String> = manifest_permissions(manifest).into_iter().collect();
    assert_eq!(found, ["android.permission.INTERNET", "android.permission.VIBRATE"]);
}

#[test]
fn every_permission_of_the_manifest_is_explained_in_every_store_text() {
    let asked = manifest_permissions(&read("android/AndroidManifest.xml"));
    assert!(asked.contains("android.permission.INTERNET"), "the manifest was not read: {asked:?}");
    let explained: BTreeSet<String> = PERMISSIONS.iter().map(|(name, _)| name.to_string()).collect();
    let unexplained: Vec<&String> = asked.difference(&explained).collect();
    assert!(
        unexplained.is_empty(),
        "android/AndroidManifest.xml asks for {unexplained:?}: explain each in one line of every \
         fastlane/metadata/android/*/full_description.txt (\"What the permissions are for\") and add it to PERMISSIONS"
    );
    let stale: Vec<&String> = explained.difference(&asked).collect();
    assert!(stale.is_empty(), "the store texts explain {stale:?}, which the manifest no longer asks for");
    let mut missing = Vec::new();
    for (index, locale) in LOCALES.iter().enumerate() {
        let text = description(locale);
        for (name, lines) in &PERMISSIONS {
            if !text.lines().any(|line| line.starts_with(&format!("• {}", lines[index]))) {
                missing.push(format!("{locale}: no line «• {}…» explains {name}", lines[index]));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_store_text_says_what_leaves_the_device_and_nothing_untrue() {
    let mut problems = Vec::new();
    for (index, locale) in LOCALES.iter().enumerate() {
        let text = description(locale);
        if !text.contains(PRIVACY[index]) {
            problems.push(format!("{locale}: the privacy line «{}» is missing", PRIVACY[index]));
        }
        let lower = text.to_lowercase();
        for claim in NO_LONGER_TRUE {
            if lower.contains(claim) {
                problems.push(format!("{locale}: says «{claim}», untrue since play over the local network"));
            }
        }
        for (feature, words) in &FEATURES {
            if !text.contains(words[index]) {
                problems.push(format!("{locale}: does not name {feature} («{}»)", words[index]));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn store_texts_and_the_next_changelog_keep_to_the_stores_limits() {
    let mut problems = Vec::new();
    let length = |text: &str| text.trim_end_matches('\n').chars().count();
    for locale in LOCALES {
        for (file, limit) in LIMITS {
            let text = read(&format!("fastlane/metadata/android/{locale}/{file}"));
            if length(&text) == 0 || length(&text) > limit {
                problems.push(format!("{locale}/{file}: {} characters (1 to {limit})", length(&text)));
            }
        }
        let next = read(&format!("fastlane/unreleased/{locale}.txt"));
        if length(&next) == 0 || length(&next) > CHANGELOG_LIMIT {
            problems.push(format!(
                "fastlane/unreleased/{locale}.txt: {} characters (1 to {CHANGELOG_LIMIT})",
                length(&next)
            ));
        }
    }
    let folder = project_dir().join("fastlane").join("unreleased");
    let mut present: Vec<String> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", folder.display()))
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".txt"))
        .collect();
    present.sort();
    let mut expected: Vec<String> = LOCALES.iter().map(|locale| format!("{locale}.txt")).collect();
    expected.sort();
    assert_eq!(present, expected, "fastlane/unreleased/: one changelog per store locale");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
