#!/usr/bin/env python3
"""Every tool version of the Android build is pinned once; no other file may name another.

    .ci/android-pins.py [ROOT]      (ROOT: the repository, default: this script's parent's parent)

The pins: rust-toolchain.toml (the Rust toolchain and its targets) and android/toolchain.env
(SDK platform, build-tools, NDK, minimum API level, cargo-ndk, bundletool). Checked against them:

- every `platforms;android-N`, `build-tools;V`, `ndk;V` (sdkmanager package names) and F-Droid's
  `ndk: V`, in the workflows, android/ (scripts, README, F-Droid metadata) and .ci/ scripts;
- every version given to cargo-ndk (`cargo-ndk 4.1.2`, `cargo install cargo-ndk --version ...`) and
  to bundletool (`bundletool-all-1.17.2.jar`, `bundletool 1.17.2`); a `cargo install cargo-ndk`
  without `--version` is an unpinned install;
- Rust: `rustup update/default/toolchain install <name>`, `--default-toolchain <name>`, a
  `dtolnay/rust-toolchain@<name>` or `toolchain: <name>` must name the channel of
  rust-toolchain.toml (or read it from that file); Cargo.toml's rust-version (the oldest Rust the
  crate supports) must not be newer than it; the workflow's `rustup ... --target` list is the
  file's targets, which cover the workflow's ABIS;
- AndroidManifest.xml: minSdkVersion is ANDROID_MIN_SDK, targetSdkVersion not above the platform;
  build-apk.sh's min_platform and min_build_tools not above the pins;
- android/README.md's row for toolchain.env names all three SDK pins;
- skia-prebuilt.sh's known_skia_bindings is the skia-bindings of Cargo.lock.

.ci/android-toolchain-test.sh is not read: its fake SDK holds other versions on purpose.
`nightly` (the race and fuzz checks' sanitizers) is not a pin of the build and is let through.
Findings in files other people own (the desktop and fuzz workflows, the F-Droid metadata, the
top-level README) are
printed as warnings (exit 0) unless PINS_STRICT=1. Exit 1 on any other mismatch.
"""
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
strict = os.environ.get("PINS_STRICT") == "1"
# Files whose owners are elsewhere: findings there are warnings (see the docstring).
ELSEWHERE = (".github/workflows/desktop.yml", ".github/workflows/fuzz.yml", "android/fdroid/", "README.md")
errors, warnings, checked = [], [], []


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def finding(path, line, text):
    message = f"{path}:{line}: {text}"
    if not strict and path.startswith(ELSEWHERE):
        warnings.append(message)
    else:
        errors.append(message)


def version_tuple(text):
    return tuple(int(n) for n in re.findall(r"\d+", text))


# The pins.
toolchain_toml = read("rust-toolchain.toml")
channel = re.search(r'^channel\s*=\s*"([^"]+)"', toolchain_toml, re.M).group(1)
targets_match = re.search(r"^targets\s*=\s*\[([^\]]*)\]", toolchain_toml, re.M)
toml_targets = sorted(re.findall(r'"([^"]+)"', targets_match.group(1))) if targets_match else []
env = dict(re.findall(r"^([A-Z_]+)=(\S*)\s*$", read("android/toolchain.env"), re.M))
for key in ("ANDROID_PLATFORM", "ANDROID_BUILD_TOOLS_VERSION", "ANDROID_NDK_VERSION", "ANDROID_MIN_SDK",
            "CARGO_NDK_VERSION", "BUNDLETOOL_VERSION"):
    if not env.get(key):
        errors.append(f"android/toolchain.env: no {key}")
platform = env.get("ANDROID_PLATFORM", "")
platform_api = int(re.match(r"android-(\d+)", platform).group(1)) if re.match(r"android-(\d+)", platform) else 0
print(f"android-pins: Rust {channel} (targets {', '.join(toml_targets) or 'none'}); {platform}, build-tools "
      f"{env.get('ANDROID_BUILD_TOOLS_VERSION')}, NDK {env.get('ANDROID_NDK_VERSION')}, min SDK "
      f"{env.get('ANDROID_MIN_SDK')}, cargo-ndk {env.get('CARGO_NDK_VERSION')}, bundletool {env.get('BUNDLETOOL_VERSION')}")

files = sorted(set(
    glob.glob(".github/workflows/*.yml") + glob.glob(".github/workflows/*.yaml")
    + glob.glob("android/*.sh") + glob.glob("android/*.md") + glob.glob("android/fdroid/*.yml")
    + glob.glob(".ci/*.sh") + [".ci/run", "README.md"]
))
files = [f for f in files if os.path.isfile(f) and f not in (".ci/android-toolchain-test.sh", ".ci/android-pins-test.sh")]

# Each rule: a pattern whose group 1 is the version named, and the pin it must equal.
rules = [
    (r"platforms;(android-[^\s'\"`]+)", platform, "the SDK platform", "ANDROID_PLATFORM"),
    (r"build-tools;([0-9][^\s'\"`]*)", env.get("ANDROID_BUILD_TOOLS_VERSION"), "the build-tools", "ANDROID_BUILD_TOOLS_VERSION"),
    (r"ndk;([0-9][^\s'\"`]*)", env.get("ANDROID_NDK_VERSION"), "the NDK", "ANDROID_NDK_VERSION"),
    (r"^\s*ndk:\s*([0-9][^\s'\"`]*)", env.get("ANDROID_NDK_VERSION"), "the NDK", "ANDROID_NDK_VERSION"),
    (r"cargo-ndk[ @v]+([0-9]+\.[0-9]+\.[0-9]+)", env.get("CARGO_NDK_VERSION"), "cargo-ndk", "CARGO_NDK_VERSION"),
    (r"cargo install cargo-ndk[^\n]*--version[ =]+['\"]?([^\s'\"]+)", env.get("CARGO_NDK_VERSION"), "cargo-ndk", "CARGO_NDK_VERSION"),
    (r"bundletool[-/ a-z]*?([0-9]+\.[0-9]+\.[0-9]+)", env.get("BUNDLETOOL_VERSION"), "bundletool", "BUNDLETOOL_VERSION"),
    (r"rustup (?:update|default|toolchain install|install)\s+([A-Za-z0-9.$\"{}_-]+)", channel, "the Rust toolchain", "rust-toolchain.toml"),
    (r"--default-toolchain[ =]+([A-Za-z0-9._-]+)", channel, "the Rust toolchain", "rust-toolchain.toml"),
    (r"dtolnay/rust-toolchain@([A-Za-z0-9._-]+)", channel, "the Rust toolchain", "rust-toolchain.toml"),
    (r"^\s*toolchain:\s*([A-Za-z0-9._-]+)", channel, "the Rust toolchain", "rust-toolchain.toml"),
    # Prose: "rust-toolchain.toml`, 1.95.0", "pins the toolchain (1.95.0)", "Rust toolchain 1.95.0".
    (r"(?:rust-toolchain\.toml`?,|pins the toolchain|Rust toolchain) \(?(1\.[0-9]+\.[0-9]+)", channel, "the Rust toolchain", "rust-toolchain.toml"),
]
# Names that stand for the pin itself (the variable read from the pinning file).
PIN_VARIABLES = {"$ANDROID_PLATFORM", "android-$ANDROID_PLATFORM", "$ANDROID_BUILD_TOOLS_VERSION",
                 "$ANDROID_NDK_VERSION", "$CARGO_NDK_VERSION", "$BUNDLETOOL_VERSION", "$channel", "\"$channel\""}
for path in files:
    text = read(path)
    checked.append(path)
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, pin, what, source in rules:
            for match in re.finditer(pattern, line):
                named = match.group(1).strip("\"'`.,;:)")
                if named in PIN_VARIABLES or named.startswith("$"):
                    continue
                if source == "rust-toolchain.toml" and named.startswith("nightly"):
                    continue  # nightly on purpose (sanitizers, fuzzing), never for the build
                if named != pin:
                    finding(path, number, f"names {what} {named}, {source} pins {pin}: {line.strip()}")
        if re.search(r"cargo install cargo-ndk", line) and "--version" not in line:
            finding(path, number, f"installs cargo-ndk without --version (pinned {env.get('CARGO_NDK_VERSION')}): {line.strip()}")

# Rust: the MSRV is not newer than the toolchain; the workflow installs the file's targets.
cargo_toml = read("Cargo.toml")
msrv = re.search(r'^rust-version\s*=\s*"([^"]+)"', cargo_toml, re.M)
if msrv and version_tuple(msrv.group(1)) > version_tuple(channel):
    errors.append(f"Cargo.toml: rust-version {msrv.group(1)} is newer than rust-toolchain.toml's {channel}")
workflow = read(".github/workflows/android.yml")
abis = re.search(r"^\s*ABIS:\s*(.+)$", workflow, re.M)
triples = {"arm64-v8a": "aarch64-linux-android", "x86_64": "x86_64-linux-android",
           "armeabi-v7a": "armv7-linux-androideabi", "x86": "i686-linux-android"}
if abis:
    for abi in abis.group(1).split():
        if triples.get(abi) not in toml_targets:
            errors.append(f"rust-toolchain.toml: targets lack {triples.get(abi)} (ABI {abi} of the workflow's ABIS)")
installs = re.findall(r"rustup toolchain install[^\n]*", workflow.replace("\\\n", " "))
for install in installs:
    named = re.search(r"--target[ =]+([A-Za-z0-9_,-]+)", install)
    if not named or sorted(named.group(1).split(",")) != toml_targets:
        errors.append(f".github/workflows/android.yml: `rustup toolchain install` targets "
                      f"{named.group(1) if named else 'none'}, rust-toolchain.toml has {','.join(toml_targets)}")
if not installs:
    errors.append(".github/workflows/android.yml: no `rustup toolchain install` of rust-toolchain.toml's channel")

# The manifest and build-apk.sh's minimums.
manifest = read("android/AndroidManifest.xml")
min_sdk = re.search(r'android:minSdkVersion="(\d+)"', manifest)
target_sdk = re.search(r'android:targetSdkVersion="(\d+)"', manifest)
if not min_sdk or min_sdk.group(1) != env.get("ANDROID_MIN_SDK"):
    errors.append(f"android/AndroidManifest.xml: minSdkVersion {min_sdk and min_sdk.group(1)}, toolchain.env's ANDROID_MIN_SDK {env.get('ANDROID_MIN_SDK')}")
if not target_sdk or int(target_sdk.group(1)) > platform_api:
    errors.append(f"android/AndroidManifest.xml: targetSdkVersion {target_sdk and target_sdk.group(1)} above the platform {platform}")
build_apk = read("android/build-apk.sh")
min_platform = int(re.search(r"^min_platform=(\d+)", build_apk, re.M).group(1))
min_build_tools = int(re.search(r"^min_build_tools=(\d+)", build_apk, re.M).group(1))
if min_platform > platform_api:
    errors.append(f"android/build-apk.sh: min_platform {min_platform} above the pinned {platform}")
if min_build_tools > version_tuple(env.get("ANDROID_BUILD_TOOLS_VERSION", "0"))[0]:
    errors.append(f"android/build-apk.sh: min_build_tools {min_build_tools} above the pinned {env.get('ANDROID_BUILD_TOOLS_VERSION')}")

# android/README.md's table row for toolchain.env.
readme = read("android/README.md")
row = next((line for line in readme.splitlines() if line.startswith("| `toolchain.env`")), None)
if row is None:
    errors.append("android/README.md: no table row for `toolchain.env`")
else:
    for key in ("ANDROID_PLATFORM", "ANDROID_BUILD_TOOLS_VERSION", "ANDROID_NDK_VERSION", "CARGO_NDK_VERSION"):
        if env.get(key) and f"`{env[key]}`" not in row:
            errors.append(f"android/README.md: the toolchain.env row does not name {key} `{env.get(key)}`: {row}")

# The skia-bindings whose build script skia-prebuilt.sh's formula was read from.
lock = read("Cargo.lock")
locked = re.search(r'name = "skia-bindings"\nversion = "([^"]+)"', lock)
known = re.search(r"^known_skia_bindings=(\S+)", read("android/skia-prebuilt.sh"), re.M)
if locked and known and locked.group(1) != known.group(1):
    errors.append(f"android/skia-prebuilt.sh: known_skia_bindings {known.group(1)}, Cargo.lock has skia-bindings {locked.group(1)}")

print(f"android-pins: read {len(checked)} files: {' '.join(checked)}")
for message in warnings:
    print(f"android-pins: WARNING (a file owned elsewhere; PINS_STRICT=1 makes this an error): {message}")
for message in errors:
    print(f"android-pins: MISMATCH: {message}", file=sys.stderr)
if errors:
    sys.exit(1)
print("android-pins: OK: no file names another version than rust-toolchain.toml and android/toolchain.env")
