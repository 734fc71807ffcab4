#!/usr/bin/env python3
"""The version in every place that states it agrees, and the store texts fit their limits.

Cargo.toml's workspace version x.y.z is the source: the Android versionName is x.y.z and the versionCode
x * 10000 + y * 100 + z (android/build-apk.sh computes both so; the manifest carries neither). This
checks that android/fdroid/<appid>.yml (CurrentVersion, CurrentVersionCode, the last build's
versionName, versionCode, commit vx.y.z and ndk, which must be android/toolchain.env's pin), the
manifest's package (the file's name), the fastlane changelog of every locale
(changelogs/<versionCode>.txt, and none for a later versionCode) and CHANGELOG.md (an [Unreleased]
section and one for x.y.z) agree; and that each locale's title, short description, full
description and changelog keep to the stores' lengths (Google Play: 30, 80, 4000, 500 characters).

    python3 .ci/version-check.py

Standard library only. Prints every disagreement and exits 1 if there is one.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOCALES = ["en-US", "fr-FR", "uk", "id", "fil"]
LIMITS = {"title.txt": 30, "short_description.txt": 80, "full_description.txt": 4000}
CHANGELOG_LIMIT = 500

problems = []


def problem(text):
    problems.append(text)


def read(relative):
    return (ROOT / relative).read_text(encoding="utf-8")


# Cargo.toml: the workspace's version ([workspace.package], which every crate takes).
cargo = read("Cargo.toml")
package_table = re.split(r"(?m)^\[", cargo.split("[workspace.package]", 1)[-1], maxsplit=1)[0]
match = re.search(r'(?m)^version\s*=\s*"(\d+)\.(\d+)\.(\d+)"', package_table)
if not match:
    sys.exit("version-check: no version = \"x.y.z\" in Cargo.toml's [workspace.package]")
major, minor, patch = (int(part) for part in match.groups())
if minor > 99 or patch > 99:
    problem(f"Cargo.toml: version {major}.{minor}.{patch}: y and z must stay below 100 for the versionCode")
version = f"{major}.{minor}.{patch}"
code = major * 10000 + minor * 100 + patch

# The manifest: the application id, and no version of its own (or the same one).
manifest = read("android/AndroidManifest.xml")
package = re.search(r'package="([^"]+)"', manifest)
if not package:
    sys.exit("version-check: no package=\"...\" in android/AndroidManifest.xml")
appid = package.group(1)
for attribute, expected in (("versionCode", str(code)), ("versionName", version)):
    stated = re.search(rf'android:{attribute}="([^"]*)"', manifest)
    if stated and stated.group(1) != expected:
        problem(f"android/AndroidManifest.xml: android:{attribute}=\"{stated.group(1)}\", Cargo.toml gives {expected}")

# The F-Droid metadata: named after the application id.
fdroid_dir = ROOT / "android" / "fdroid"
fdroid_files = sorted(fdroid_dir.glob("*.yml"))
if [path.name for path in fdroid_files] != [f"{appid}.yml"]:
    problem(f"android/fdroid/ should hold exactly {appid}.yml (the manifest's package), it holds "
            f"{[path.name for path in fdroid_files]}")
fdroid_path = fdroid_dir / f"{appid}.yml"
if fdroid_path.is_file():
    fdroid = fdroid_path.read_text(encoding="utf-8")
    name = f"android/fdroid/{appid}.yml"

    def top(field):
        found = re.search(rf"(?m)^{field}:\s*'?([^'\s]+)'?\s*$", fdroid)
        return found.group(1) if found else None

    if top("CurrentVersion") != version:
        problem(f"{name}: CurrentVersion is {top('CurrentVersion')}, Cargo.toml's version is {version}")
    if top("CurrentVersionCode") != str(code):
        problem(f"{name}: CurrentVersionCode is {top('CurrentVersionCode')}, Cargo.toml's version gives {code}")
    builds = fdroid.split("\nBuilds:\n", 1)
    if len(builds) != 2:
        problem(f"{name}: no Builds:")
    else:
        # The entries of the Builds list, up to the next top-level field.
        body = re.split(r"(?m)^\S", builds[1], maxsplit=1)[0]
        entries = re.split(r"(?m)^  - ", body)[1:]
        if not entries:
            problem(f"{name}: Builds: is empty")
        else:
            last = "    " + entries[-1]

            def field(key):
                found = re.search(rf"(?m)^    {key}:\s*'?([^'\s]+)'?\s*$", last)
                return found.group(1) if found else None

            expected = {"versionName": version, "versionCode": str(code), "commit": f"v{version}"}
            for key, value in expected.items():
                if field(key) != value:
                    problem(f"{name}: the last build's {key} is {field(key)}, expected {value}")
            toolchain = read("android/toolchain.env")
            ndk = re.search(r"(?m)^ANDROID_NDK_VERSION=(\S+)", toolchain)
            if ndk and field("ndk") != ndk.group(1):
                problem(f"{name}: the last build's ndk is {field('ndk')}, android/toolchain.env pins {ndk.group(1)}")

# The store texts of every locale.
fastlane = ROOT / "fastlane" / "metadata" / "android"
for locale in LOCALES:
    folder = fastlane / locale
    where = f"fastlane/metadata/android/{locale}"
    for file, limit in LIMITS.items():
        path = folder / file
        if not path.is_file():
            problem(f"{where}/{file} is missing")
            continue
        length = len(path.read_text(encoding="utf-8").rstrip("\n"))
        if length == 0 or length > limit:
            problem(f"{where}/{file}: {length} characters (1 to {limit})")
    changelog = folder / "changelogs" / f"{code}.txt"
    if not changelog.is_file():
        problem(f"{where}/changelogs/{code}.txt is missing (the changelog of versionCode {code}, version {version})")
    else:
        length = len(changelog.read_text(encoding="utf-8").rstrip("\n"))
        if length == 0 or length > CHANGELOG_LIMIT:
            problem(f"{where}/changelogs/{code}.txt: {length} characters (1 to {CHANGELOG_LIMIT})")
    for other in sorted((folder / "changelogs").glob("*.txt")):
        if not other.stem.isdigit() or int(other.stem) > code:
            problem(f"{where}/changelogs/{other.name}: not the versionCode of this or an earlier version ({code})")

# CHANGELOG.md: Keep a Changelog's [Unreleased] and this version's section.
changelog = read("CHANGELOG.md")
if not re.search(r"(?m)^## \[Unreleased\]", changelog):
    problem("CHANGELOG.md: no '## [Unreleased]' section")
if not re.search(rf"(?m)^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}", changelog):
    problem(f"CHANGELOG.md: no '## [{version}] - YYYY-MM-DD' section for Cargo.toml's version")

if problems:
    print("version-check: the version and the store metadata disagree:")
    for text in problems:
        print(f"  {text}")
    sys.exit(1)
print(f"version-check: {version} (versionCode {code}) agrees in Cargo.toml, android/fdroid/{appid}.yml, "
      f"the manifest, the changelogs of {', '.join(LOCALES)} and CHANGELOG.md")
