//! The buttons that send an event by name (`Commands.run("…")` in ui/*.slint) name events
//! the core knows, and every name the core knows is sent by some view: a misspelt name
//! fails here, not silently in the player's hands.

use halma_core::actions::{Event, COMMANDS};
use std::collections::BTreeSet;

/// Every name the views' code (not their comments) passes to `Commands.run`, with its file.
fn names_in_views() -> Vec<(String, String)> {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/ui");
    let mut found = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap_or_else(|error| panic!("{folder}: {error}"))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "slint"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let file = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        // Comments may show the call; only code sends.
        let code: String =
            text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
        for piece in code.split("Commands.run(").skip(1) {
            let name = piece.trim_start().strip_prefix('"').and_then(|rest| rest.split('"').next());
            let name = name.unwrap_or_else(|| panic!("{file}: Commands.run takes a name in quotes"));
            found.push((file.clone(), name.to_string()));
        }
    }
    found
}

#[test]
fn every_name_a_view_sends_is_an_event_and_every_event_name_is_sent() {
    let sent = names_in_views();
    for (file, name) in &sent {
        assert!(Event::command(name).is_some(), "{file}: Commands.run(\"{name}\") names no event");
    }
    let sent: BTreeSet<&str> = sent.iter().map(|(_, name)| name.as_str()).collect();
    let known: Vec<&str> = COMMANDS.iter().map(|(name, _)| *name).collect();
    let unique: BTreeSet<&str> = known.iter().copied().collect();
    assert_eq!(unique.len(), known.len(), "a name given twice in COMMANDS");
    for name in known {
        assert!(sent.contains(name), "no view sends \"{name}\"");
    }
    assert!(Event::command("no-such-button").is_none());
}
