//! ARCHITECTURE.md's table of crates is the dependency graph Cargo builds: each crate
//! uses exactly the crates of ours the table says, every crate is in the table, and
//! nothing below the interface reaches Slint, even through another crate.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// `cargo metadata` of the workspace.
fn metadata() -> Value {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--manifest-path", root])
        .output()
        .unwrap_or_else(|why| panic!("cargo metadata: {why}"));
    assert!(output.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|why| panic!("cargo metadata's JSON: {why}"))
}

/// The table of ARCHITECTURE.md: crate → the crates of ours it may use.
fn table() -> BTreeMap<String, BTreeSet<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ARCHITECTURE.md");
    let text = std::fs::read_to_string(path).unwrap_or_else(|why| panic!("{path}: {why}"));
    let mut table = BTreeMap::new();
    for line in text.lines().filter(|line| line.starts_with("| `halma")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let name = cells[1].trim_matches('`').to_string();
        let uses = cells[cells.len() - 2]
            .split(',')
            .map(|used| used.trim().trim_matches('`').to_string())
            .filter(|used| used.starts_with("halma"))
            .collect();
        table.insert(name, uses);
    }
    table
}

/// The workspace's crates and the crates of ours each one needs to build (not its tests).
fn graph(metadata: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let members: BTreeSet<&str> =
        metadata["workspace_members"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let packages = metadata["packages"].as_array().into_iter().flatten();
    packages
        .filter(|package| package["id"].as_str().is_some_and(|id| members.contains(id)))
        .map(|package| {
            let name = package["name"].as_str().unwrap_or_default().to_string();
            let uses = package["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|dependency| dependency["kind"].is_null())
                .filter_map(|dependency| dependency["name"].as_str())
                .filter(|used| used.starts_with("halma"))
                .map(str::to_string)
                .collect();
            (name, uses)
        })
        .collect()
}

#[test]
fn the_table_of_crates_is_the_graph_cargo_builds() {
    let mut built = graph(&metadata());
    // Only tests use it: it is no layer.
    assert!(built.remove("halma-test-support").is_some());
    assert_eq!(table(), built, "ARCHITECTURE.md's table (left) against Cargo.toml (right)");
}

#[test]
fn nothing_below_the_interface_reaches_slint() {
    let metadata = metadata();
    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|node| Some((node["id"].as_str()?, node)))
        .collect();
    let name_of = |id: &str| id.split(['#', '@']).filter(|part| !part.is_empty()).nth(1).unwrap_or(id).to_string();
    let package_name = |id: &str| {
        metadata["packages"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|package| package["id"].as_str() == Some(id))
            .and_then(|package| package["name"].as_str())
            .map_or_else(|| name_of(id), str::to_string)
    };
    for below in ["halma-rules", "halma-ai", "halma-record", "halma-engine", "halma-core"] {
        let start = nodes.keys().copied().find(|id| package_name(id) == below);
        let Some(start) = start else { panic!("{below} is not in the workspace") };
        // Every crate it builds with (normal dependencies, on any platform).
        let mut seen = BTreeSet::new();
        let mut next = vec![start];
        while let Some(id) = next.pop() {
            if !seen.insert(id) {
                continue;
            }
            let deps = nodes.get(id).and_then(|node| node["deps"].as_array()).into_iter().flatten();
            for dep in deps {
                let normal = dep["dep_kinds"].as_array().into_iter().flatten().any(|kind| kind["kind"].is_null());
                if let (true, Some(pkg)) = (normal, dep["pkg"].as_str()) {
                    next.push(pkg);
                }
            }
        }
        let slint: Vec<String> = seen.iter().map(|id| package_name(id)).filter(|name| name.contains("slint")).collect();
        assert!(slint.is_empty(), "{below} builds with {slint:?}");
    }
}
