#!/usr/bin/env python3
"""Recording stand-ins for the tools the Android workflow calls, for .ci/android-workflow-dry-run.sh.

One program, called through links named after the tools: sdkmanager, cargo (its `ndk` and `install`
subcommands; the rest goes to the real cargo), rustup, rustc (--version), curl, java (-version and
bundletool's jar), aapt2, zipalign, apksigner, llvm-readelf (the system readelf), adb (a fake
emulator running a fake Halma app), sudo, udevadm and gh. Each logs its arguments (and, for
cargo-ndk, the environment the build scripts would see) as one JSON line to $DRYRUN_LOG, checks
what the real tool would refuse, and produces the files the next step reads. State between calls
is kept in $DRYRUN_STATE (a folder). Nothing here downloads or builds anything real.
"""
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import time
import zipfile
import zlib

STATE = os.environ.get("DRYRUN_STATE", "/tmp/dryrun-state")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
TOOL = os.path.basename(sys.argv[0])
ARGS = sys.argv[1:]
os.makedirs(STATE, exist_ok=True)


def log(**extra):
    entry = {"tool": TOOL, "args": ARGS, "cwd": os.getcwd(), "step": os.environ.get("DRYRUN_STEP", ""),
             "run": int(os.environ.get("DRYRUN_RUN", "1"))}
    entry.update(extra)
    with open(os.environ.get("DRYRUN_LOG", os.path.join(STATE, "calls.jsonl")), "a") as f:
        f.write(json.dumps(entry) + "\n")


def die(message, code=1):
    print(f"{TOOL} (dry-run stand-in): {message}", file=sys.stderr)
    sys.exit(code)


def load(name, default):
    path = os.path.join(STATE, name + ".json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return default


def save(name, value):
    path = os.path.join(STATE, name + ".json")
    with open(path + ".tmp", "w") as f:
        json.dump(value, f)
    os.replace(path + ".tmp", path)


def option(args, name, default=None):
    return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else default


STANDINS = os.path.dirname(os.path.abspath(__file__))
TRIPLES = {"arm64-v8a": "aarch64-linux-android", "x86_64": "x86_64-linux-android",
           "armeabi-v7a": "armv7-linux-androideabi", "x86": "i686-linux-android"}


# ---------------------------------------------------------------------------------------------
# The SDK.
def link_tool(path, name):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        os.remove(path)
    os.symlink(os.path.join(os.environ["DRYRUN_BIN"], name), path)


def gcc(output, source, *flags):
    source_path = output + ".c"
    with open(source_path, "w") as f:
        f.write(source)
    subprocess.run(["gcc", "-shared", "-fPIC", "-nostdlib", "-o", output, source_path, *flags], check=True)
    os.remove(source_path)


def install_package(sdk, package):
    kind, _, rest = package.partition(";")
    if kind == "platforms":
        folder = os.path.join(sdk, "platforms", rest)
        os.makedirs(folder, exist_ok=True)
        # The platform classes the app's activity uses, compiled from stand-in sources, so that the
        # real javac compiles android/java against this android.jar.
        classes = os.path.join(folder, "classes")
        stubs = os.path.join(REPO, ".ci", "android-stubs", "android")
        sources = [os.path.join(d, f) for d, _, files in os.walk(stubs) for f in files if f.endswith(".java")]
        subprocess.run(["javac", "--release", "11", "-d", classes, *sources], check=True)
        with zipfile.ZipFile(os.path.join(folder, "android.jar"), "w") as jar:
            for d, _, files in os.walk(classes):
                for f in files:
                    jar.write(os.path.join(d, f), os.path.relpath(os.path.join(d, f), classes))
        shutil.rmtree(classes)
        revision = "1"
    elif kind == "build-tools":
        folder = os.path.join(sdk, "build-tools", rest)
        for name in ("aapt2", "zipalign", "apksigner", "d8"):
            link_tool(os.path.join(folder, name), name)
        revision = rest
    elif kind == "ndk":
        folder = os.path.join(sdk, "ndk", rest)
        prebuilt = os.path.join(folder, "toolchains", "llvm", "prebuilt", "linux-x86_64")
        link_tool(os.path.join(prebuilt, "bin", "llvm-readelf"), "llvm-readelf")
        # The API-26 stub libraries check-apk.sh checks the library's symbols against.
        for triple in ("aarch64-linux-android", "x86_64-linux-android"):
            stubs = os.path.join(prebuilt, "sysroot", "usr", "lib", triple, "26")
            os.makedirs(stubs, exist_ok=True)
            gcc(os.path.join(stubs, "libc.so"), "int puts(const char *s) { (void)s; return 0; }\n", "-Wl,-soname,libc.so")
            gcc(os.path.join(stubs, "libandroid.so"), "void ANativeWindow_acquire(void *w) { (void)w; }\n",
                "-Wl,-soname,libandroid.so")
        revision = rest
    elif kind == "system-images":
        folder = os.path.join(sdk, "system-images", *rest.split(";"))
        os.makedirs(folder, exist_ok=True)
        revision = "1"
    else:
        die(f"unknown package {package}")
    with open(os.path.join(folder, "source.properties"), "w") as f:
        f.write(f"Pkg.Desc = {package}\nPkg.Revision = {revision}\n")


def sdkmanager():
    log()
    sdk = os.environ.get("ANDROID_HOME") or die("ANDROID_HOME is not set")
    if "--licenses" in ARGS:
        for _ in range(7):  # the real one reads an answer per license, then exits (`yes |` gets SIGPIPE)
            sys.stdin.readline()
        print("All SDK package licenses accepted.")
        return 0
    if "--list" in ARGS:
        print("Available Packages:\n  Path | Version | Description\n  ------- | ------- | -------")
        for package in os.environ.get("DRYRUN_OFFERED_IMAGES", "").split():
            print(f"  {package} | 1 | system image")
        return 0
    packages = [a for a in ARGS if not a.startswith("--")]
    if "--install" not in ARGS or not packages:
        die(f"unexpected arguments {ARGS}")
    for package in packages:
        install_package(sdk, package)
    print("[=======================================] 100% Unzipping... done")
    return 0


# ---------------------------------------------------------------------------------------------
# Rust.
def rustup():
    log()
    state = load("rustup", {"toolchain": None, "targets": []})
    if ARGS[:2] == ["toolchain", "install"]:
        state["toolchain"] = ARGS[2]
        state["targets"] = sorted(set(state["targets"]) | set((option(ARGS, "--target") or "").split(",")) - {""})
        save("rustup", state)
        print(f"info: installed toolchain {ARGS[2]} with targets {','.join(state['targets'])}")
        return 0
    if ARGS[:2] == ["target", "add"]:
        state["targets"] = sorted(set(state["targets"]) | set(ARGS[2:]))
        save("rustup", state)
        return 0
    if ARGS[:3] == ["target", "list", "--installed"]:
        print("\n".join(["x86_64-unknown-linux-gnu"] + state["targets"]))
        return 0
    if ARGS[:1] in (["update"], ["default"]):
        state["toolchain"] = ARGS[1]
        save("rustup", state)
        return 0
    die(f"unexpected arguments {ARGS}")


def rustc():
    if ARGS == ["--version"]:
        log()
        toolchain = load("rustup", {}).get("toolchain") or "none-installed"
        print(f"rustc {toolchain} (0000000 dry run)")
        return 0
    os.execv(os.environ["DRYRUN_REAL_RUSTC"], ["rustc"] + ARGS)


def cargo():
    if ARGS[:1] == ["ndk"]:
        return cargo_ndk(ARGS[1:])
    if ARGS[:1] == ["install"]:
        log()
        if "cargo-ndk" in ARGS:
            version = option(ARGS, "--version") or "newest-of-the-day"
            save("cargo-ndk", {"version": version})
            print(f"  Installed package `cargo-ndk v{version}` (executable `cargo-ndk`)")
            return 0
        die(f"unexpected install {ARGS}")
    # cargo tree, cargo metadata (skia-prebuilt.sh): the real cargo with the real rustc.
    environment = dict(os.environ, RUSTC=os.environ["DRYRUN_REAL_RUSTC"])
    os.execve(os.environ["DRYRUN_REAL_CARGO"], ["cargo"] + ARGS, environment)


def cargo_ndk(args):
    installed = load("cargo-ndk", None)
    if installed is None:
        die("no such command: `ndk` (cargo-ndk is not installed)", 101)
    if args == ["--version"]:
        log()
        print(f"cargo-ndk {installed['version']}")
        return 0
    watched = ["ANDROID_HOME", "ANDROID_SDK_ROOT", "ANDROID_NDK_HOME", "ANDROID_NDK_ROOT", "ANDROID_NDK",
               "ANDROID_JAR", "ANDROID_BUILD_TOOLS_VERSION", "SKIA_BINARIES_URL", "CARGO_TARGET_DIR",
               "CARGO_PROFILE_RELEASE_STRIP", "CARGO_TARGET_AARCH64_LINUX_ANDROID_RUSTFLAGS",
               "CARGO_TARGET_X86_64_LINUX_ANDROID_RUSTFLAGS"]
    log(env={k: os.environ.get(k) for k in watched})
    abis, rest, i, platform, output = [], [], 0, None, None
    while i < len(args):
        if args[i] in ("-t", "--target"):
            abis.append(args[i + 1]); i += 2
        elif args[i] in ("-P", "--platform"):
            platform = args[i + 1]; i += 2
        elif args[i] in ("-o", "--output-dir"):
            output = args[i + 1]; i += 2
        else:
            rest.append(args[i]); i += 1
    if not abis:
        die("no -t target")
    ndk = os.environ.get("ANDROID_NDK_HOME") or die("ANDROID_NDK_HOME is not set", 1)
    if not os.path.isfile(os.path.join(ndk, "source.properties")):
        die(f"ANDROID_NDK_HOME={ndk} is not an NDK")
    if platform is None:
        die("no -P (the API level)")
    subcommand = rest[0] if rest else die("no cargo subcommand")
    if subcommand not in ("check", "build"):
        die(f"unexpected cargo subcommand {subcommand}")
    if "--features" not in rest or option(rest, "--features") != "android" or "--no-default-features" not in rest:
        die(f"not the android feature without default features: {rest}")
    targets = load("rustup", {"targets": []})["targets"]
    jar = os.environ.get("ANDROID_JAR")
    if not jar or not os.path.isfile(jar):
        die(f"i-slint-backend-android-activity's build script: no android.jar at ANDROID_JAR={jar}", 101)
    if not shutil.which("javac"):
        die("i-slint-backend-android-activity's build script: javac not found", 101)
    profile = "debug" if subcommand == "check" else ("release" if option(rest, "--profile") == "release" or "--release" in rest else "debug")
    target_dir = os.environ.get("CARGO_TARGET_DIR") or os.path.join(os.getcwd(), "target")
    keys = json.loads(os.environ.get("DRYRUN_SKIA_KEYS", "{}"))
    template = os.environ.get("SKIA_BINARIES_URL") or \
        "https://github.com/rust-skia/skia-binaries/releases/download/{tag}/skia-binaries-{key}.tar.gz"
    failing = os.environ.get("DRYRUN_SKIA_FAIL", "").split()
    for abi in abis:
        triple = TRIPLES.get(abi) or die(f"unknown ABI {abi}")
        if triple not in targets:
            die(f"error[E0463]: can't find crate for `core`: the `{triple}` target may not be installed", 101)
        tag, key = keys[triple].split()
        url = template.replace("{tag}", tag).replace("{key}", key)
        report = [f"TRYING TO DOWNLOAD AND INSTALL SKIA BINARIES: {tag}/{key}", f"  FROM: {url}"]
        if url.startswith("file://"):
            # skia-bindings unpacks skia-binaries/* of the archive into OUT_DIR/skia.
            downloaded = skia_archive_ok(url[len("file://"):], key)
        else:
            downloaded = abi not in failing
        folder = os.path.join(target_dir, triple, profile, "build", "skia-bindings-0123456789abcdef")
        libraries = os.path.join(folder, "out", "skia")
        if not downloaded:
            report += ["DOWNLOAD AND INSTALL FAILED: curl error code: 22", "STARTING A FULL BUILD", "HOST: x86_64-unknown-linux-gnu"]
            if not os.environ.get("ANDROID_NDK"):
                print(f"error: failed to run custom build command for `skia-bindings v{tag}`\n\nCaused by:\n  --- stdout",
                      file=sys.stderr)
                print("\n".join("  " + line for line in report), file=sys.stderr)
                print("  --- stderr\n\n  thread 'main' panicked at build_support/platform/android.rs:69:34:\n"
                      "  ANDROID_NDK variable not set", file=sys.stderr)
                return 101
            # The build from source (an hour on a runner; here, its products): the static libraries
            # and bindings.rs in OUT_DIR/skia, and the build script's lines that name them.
            log(full_build=triple, profile=profile, env={"ANDROID_NDK": os.environ.get("ANDROID_NDK")})
            os.makedirs(libraries, exist_ok=True)
            for name in ("libskia.a", "libskia-bindings.a", "bindings.rs"):
                with open(os.path.join(libraries, name), "w") as f:
                    f.write(f"{name} built from source for {triple} (dry run)\n")
            print(f"   skia-bindings: STARTING A FULL BUILD for {triple} [dry run]", file=sys.stderr)
        else:
            report += ["UNPACKING ARCHIVE INTO: ...", "DOWNLOAD AND INSTALL SUCCEEDED"]
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "output"), "w") as f:
            f.write("\n".join(report + [f"cargo:rustc-link-search={libraries}", "cargo:rustc-link-lib=static=skia",
                                        "cargo:rustc-link-lib=static=skia-bindings", "cargo:rustc-link-lib=EGL"]) + "\n")
        print(f"   Compiling halma v0.1.0 ({triple}, {profile}) [dry run]", file=sys.stderr)
        if subcommand == "build":
            if not output:
                die("build without -o: cargo-ndk would not copy the library")
            library = os.path.join(output, abi, "libhalma.so")
            os.makedirs(os.path.dirname(library), exist_ok=True)
            stubs = os.path.join(ndk, "toolchains", "llvm", "prebuilt", "linux-x86_64", "sysroot", "usr", "lib", triple, platform)
            gcc(library, "int puts(const char *s);\nvoid ANativeWindow_acquire(void *w);\n"
                "void ANativeActivity_onCreate(void *a, void *s, unsigned long n) { (void)s; (void)n; puts(\"halma\"); ANativeWindow_acquire(a); }\n",
                "-Wl,-z,max-page-size=16384", "-Wl,-z,common-page-size=16384", f"-L{stubs}", "-lc", "-landroid")
    print(f"    Finished `{profile}` profile [dry run]", file=sys.stderr)
    return 0


def skia_archive_ok(path, key):
    """Would skia-bindings install this archive: a tar.gz with skia-binaries/bindings.rs and the key?"""
    try:
        with tarfile.open(path, "r:gz") as archive:
            names = archive.getnames()
            stored_key = archive.extractfile("skia-binaries/key.txt").read().decode()
    except (OSError, KeyError, AttributeError, tarfile.TarError):
        return False
    return "skia-binaries/bindings.rs" in names and stored_key == key


def skia_archive(path, url):
    """A published archive as rust-skia lays them out (skia-binaries/<files>, tag.txt, key.txt)."""
    key = url.rsplit("/skia-binaries-", 1)[1][:-len(".tar.gz")]
    with tarfile.open(path, "w:gz") as archive:
        for name, text in (("libskia.a", "prebuilt"), ("libskia-bindings.a", "prebuilt"), ("bindings.rs", "// prebuilt"),
                           ("tag.txt", url.split("/download/", 1)[1].split("/", 1)[0]), ("key.txt", key)):
            data = text.encode()
            info = tarfile.TarInfo("skia-binaries/" + name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


# ---------------------------------------------------------------------------------------------
# Downloads and the JDK.
def curl():
    log()
    url = [a for a in ARGS if a.startswith(("http://", "https://"))]
    if len(url) != 1:
        die(f"expected one URL in {ARGS}")
    if "-I" in ARGS or "--head" in ARGS:
        die("a HEAD request: GitHub's presigned release storage URLs are signed for GET only (use -r 0-0)")
    status = "404" if any(part in url[0] for part in os.environ.get("DRYRUN_CURL_404", "").split()) else "200"
    if status == "200" and option(ARGS, "-r") == "0-0":
        status = "206"  # one byte of it
    output = option(ARGS, "-o")
    if "-f" in "".join(a for a in ARGS if a.startswith("-") and not a.startswith("--")) and status not in ("200", "206"):
        die(f"The requested URL returned error: {status}", 22)
    if output and output != "/dev/null":
        if "/skia-binaries-" in url[0]:
            skia_archive(output, url[0])
        else:
            with zipfile.ZipFile(output, "w") as jar:
                jar.writestr("META-INF/MANIFEST.MF", f"Dry-Run-From: {url[0]}\n")
    if "-w" in ARGS:
        sys.stdout.write(option(ARGS, "-w").replace("%{http_code}", status))
    return 0


def java():
    log()
    if ARGS == ["-version"]:
        print('openjdk version "17.0.99" (dry run)', file=sys.stderr)
        return 0
    if ARGS[:1] == ["-jar"] and "bundletool" in ARGS[1]:
        command = ARGS[2]
        if command != "build-bundle":
            die(f"bundletool {command}?")
        modules = next(a.split("=", 1)[1] for a in ARGS if a.startswith("--modules="))
        output = next(a.split("=", 1)[1] for a in ARGS if a.startswith("--output="))
        with zipfile.ZipFile(modules) as source, zipfile.ZipFile(output, "w") as bundle:
            names = source.namelist()
            if "manifest/AndroidManifest.xml" not in names:
                die("bundletool: the module has no manifest/AndroidManifest.xml")
            for name in names:
                bundle.writestr("base/" + name, source.read(name))
            bundle.writestr("BundleConfig.pb", b"dry run")
        return 0
    os.execv(os.environ["DRYRUN_REAL_JAVA"], ["java"] + ARGS)


# ---------------------------------------------------------------------------------------------
# The build-tools.
def d8():
    log()
    subprocess.run([sys.executable, os.path.join(REPO, ".ci", "d8-standin.py"), *ARGS], check=True)
    return 0


def aapt2():
    log()
    if ARGS[:1] == ["compile"]:
        folder, output = option(ARGS, "--dir"), option(ARGS, "-o")
        if not folder or not os.path.isdir(folder):
            die(f"compile: no resource folder {folder}")
        with zipfile.ZipFile(output, "w") as z:
            for base, _, files in os.walk(folder):
                for name in files:
                    z.write(os.path.join(base, name), os.path.relpath(os.path.join(base, name), folder) + ".flat")
        return 0
    if ARGS[:1] == ["link"]:
        output, jar, manifest = option(ARGS, "-o"), option(ARGS, "-I"), option(ARGS, "--manifest")
        for what, path in (("-I", jar), ("--manifest", manifest), ("resources", ARGS[-1])):
            if not path or not os.path.isfile(path):
                die(f"link: {what} {path} does not exist")
        with open(manifest) as f:
            text = f.read()
        facts = {"versionName": option(ARGS, "--version-name"), "versionCode": option(ARGS, "--version-code"),
                 "debuggable": "--debug-mode" in ARGS, "proto": "--proto-format" in ARGS}
        with zipfile.ZipFile(output, "w") as z:
            z.writestr("AndroidManifest.xml", text)
            z.writestr("resources.arsc" if not facts["proto"] else "resources.pb", b"dry run")
            z.writestr("dry-run-link.json", json.dumps(facts))
        return 0
    if ARGS[:2] == ["dump", "badging"]:
        import re
        with zipfile.ZipFile(ARGS[2]) as z:
            manifest = z.read("AndroidManifest.xml").decode()
            facts = json.loads(z.read("dry-run-link.json"))
            abis = sorted({n.split("/")[1] for n in z.namelist() if n.startswith("lib/") and n.endswith(".so")})
        field = lambda name: re.search(name + r'="([^"]*)"', manifest).group(1)
        print(f"package: name='{field('package')}' versionCode='{facts['versionCode']}' versionName='{facts['versionName']}'")
        print(f"sdkVersion:'{field('android:minSdkVersion')}'")
        print(f"targetSdkVersion:'{field('android:targetSdkVersion')}'")
        print("application-label:'Halma'")
        activity = re.search(r'<activity\s+android:name="([^"]*)"', manifest).group(1)
        print(f"launchable-activity: name='{activity}'  label='' icon=''")
        if facts["debuggable"]:
            print("application-debuggable")
        print("native-code: " + " ".join(f"'{abi}'" for abi in abis))
        return 0
    die(f"unexpected arguments {ARGS}")


def zipalign():
    log()
    if "-P" not in ARGS or option(ARGS, "-P") != "16":
        die("no -P 16: libraries would not be aligned to 16 KiB pages")
    if ARGS[:1] == ["-c"]:
        zipfile.ZipFile(ARGS[-1]).testzip()
        return 0
    source, target = ARGS[-2], ARGS[-1]
    if os.path.exists(target) and "-f" not in ARGS:
        die(f"{target} exists (no -f)")
    shutil.copyfile(source, target)
    return 0


def apksigner():
    log()
    if ARGS[:1] == ["sign"]:
        keystore, output = option(ARGS, "--ks"), option(ARGS, "--out")
        if not keystore or not os.path.isfile(keystore):
            die(f"no keystore {keystore}")
        for name in ("--ks-pass", "--ks-key-alias"):
            if name not in ARGS:
                die(f"sign without {name}")
        shutil.copyfile(ARGS[-1], output)
        with open(output + ".idsig", "wb") as f:  # the v4 signature the real apksigner writes
            f.write(b"dry run")
        with zipfile.ZipFile(output, "a") as z:
            z.writestr("META-INF/DRYRUN.SF", f"signed with {os.path.basename(keystore)}")
        return 0
    if ARGS[:1] == ["verify"]:
        with zipfile.ZipFile(ARGS[-1]) as z:
            if "META-INF/DRYRUN.SF" not in z.namelist():
                die("DOES NOT VERIFY: no signature")
        if "--print-certs" in ARGS:
            print("Signer #1 certificate DN: CN=Dry Run\nSigner #1 certificate SHA-256 digest: 00")
        return 0
    die(f"unexpected arguments {ARGS}")


def readelf():
    os.execvp("readelf", ["readelf"] + ARGS)


# ---------------------------------------------------------------------------------------------
# The runner's machine and GitHub.
def sudo():
    log()
    if ARGS[:1] == ["tee"]:
        sys.stdout.write(sys.stdin.read())
    return 0


def udevadm():
    log()
    return 0


def gh():
    log()
    releases = load("releases", {})
    if ARGS[:2] == ["release", "view"]:
        return 0 if ARGS[2] in releases else 1
    if ARGS[:2] == ["release", "create"]:
        releases[ARGS[2]] = []
        save("releases", releases)
        return 0
    if ARGS[:2] == ["release", "upload"]:
        tag = ARGS[2]
        if tag not in releases:
            die(f"release {tag} not found")
        for path in [a for a in ARGS[3:] if not a.startswith("--")]:
            if not os.path.isfile(path):
                die(f"{path} does not exist")
            releases[tag].append(os.path.basename(path))
        save("releases", releases)
        return 0
    die(f"unexpected arguments {ARGS}")


# ---------------------------------------------------------------------------------------------
# adb: a fake emulator running a fake Halma app, drawn in the colours emulator-screen.py looks for.
PACKAGE = "org.halma.app"
ACTIVITY = f"{PACKAGE}/org.halma.app.HalmaActivity"
WIDTH, HEIGHT = 540, 1200
PRIMARY, BOARD, SEAT_A, DOT = (0x5B, 0x4B, 0xA8), (0xEF, 0xE3, 0xC8), (0x00, 0x72, 0xB2), (0x2E, 0x7D, 0x32)
START, RESUME, CONFIRM = (170, 1050, 370, 1110), (170, 150, 370, 210), (120, 950, 420, 1030)
BOARD_BOX = (20, 300, 520, 800)
PIECES = [(260, 540, False), (110, 650, True), (160, 700, True)]  # x, y, can move (the nearest cannot)
DOT_BOX = (300, 600, 318, 618)


def device():
    return load("device", {"installed": False, "pid": 0, "foreground": False, "page": "setup", "save": "",
                           "last_page": "setup", "selected": None, "preview": False, "reply_at": None,
                           "locale": "en", "gestural": False, "next_pid": 4242, "api": int(os.environ.get("DRYRUN_API", "36"))})


def session(moves):
    """The app's save (files/game.json) as the test reads it: the session with the game's moves."""
    return json.dumps({"format": "halma-session", "version": 1,
                       "game": {"format": "halma-game", "version": 1, "moves": ["a-move"] * moves}}, indent=2)


def moves_in(save_text):
    return len(json.loads(save_text)["game"]["moves"]) if save_text else -1


def advance(d):
    # The computer's reply, saved when it is due (the app thinks while it runs).
    if d["reply_at"] and time.time() >= d["reply_at"] and d["pid"]:
        if moves_in(d["save"]) == 1:
            d["save"] = session(2)
        d["reply_at"] = None


def inside(box, x, y):
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def back(d):
    if d["page"] == "game":
        d["page"] = d["last_page"] = "setup"
        d["selected"], d["preview"] = None, False
    else:
        d["foreground"] = False  # the setup screen lets Android close the activity


def tap(d, x, y):
    if not (d["pid"] and d["foreground"]):
        return
    if d["page"] == "setup":
        if inside(START, x, y):
            d["page"] = d["last_page"] = "game"
            d["save"] = session(0)
        elif d["save"] and inside(RESUME, x, y):
            d["page"] = d["last_page"] = "game"
        return
    if d["preview"] and inside(CONFIRM, x, y):
        d["preview"], d["selected"] = False, None
        if moves_in(d["save"]) == 0:
            d["save"] = session(1)
        # The computer replies a while after the move (later than a test's first look at the save).
        d["reply_at"] = time.time() + float(os.environ.get("DRYRUN_REPLY_SECONDS", "3"))
        return
    for index, (px, py, movable) in enumerate(PIECES):
        if abs(x - px) <= 14 and abs(y - py) <= 14:
            d["selected"], d["preview"] = (index if movable else -1), False
            return
    if d["selected"] not in (None, -1) and inside(DOT_BOX, x, y):
        d["preview"] = True


def screen(d):
    pixels = bytearray(b"\x30\x30\x30\xff" * (WIDTH * HEIGHT))

    def fill(box, colour):
        x0, y0, x1, y1 = box
        row = bytes(colour) + b"\xff"
        for y in range(y0, y1):
            start = (y * WIDTH + x0) * 4
            pixels[start:start + (x1 - x0) * 4] = row * (x1 - x0)
    if d["pid"] and d["foreground"]:
        fill((0, 60, WIDTH, 100), (0x80, 0x80, 0x80) if d["locale"] == "en" else (0x60, 0x60, 0x90))  # the title
        if d["page"] == "setup":
            fill(START, PRIMARY)
            if d["save"]:
                fill(RESUME, PRIMARY)
        else:
            fill(BOARD_BOX, BOARD)
            for px, py, _ in PIECES if not os.environ.get("DRYRUN_NO_PIECES") else []:
                fill((px - 12, py - 12, px + 12, py + 12), SEAT_A)
            if d["selected"] not in (None, -1):
                fill(DOT_BOX, DOT)
            if d["preview"]:
                fill(CONFIRM, PRIMARY)
    header = struct.pack("<IIII", WIDTH, HEIGHT, 1, 0) if d["api"] >= 28 else struct.pack("<III", WIDTH, HEIGHT, 1)
    return header, bytes(pixels)


def png(pixels):
    rows = b"".join(b"\x00" + pixels[y * WIDTH * 4:(y + 1) * WIDTH * 4] for y in range(HEIGHT))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def adb():
    log()
    d = device()
    advance(d)
    args = list(ARGS)
    out = sys.stdout.buffer
    try:
        if args[:1] == ["install"]:
            apk = args[-1]
            with zipfile.ZipFile(apk) as z:
                if "lib/x86_64/libhalma.so" not in z.namelist():
                    die("Failure [INSTALL_FAILED_NO_MATCHING_ABIS]")
                if "META-INF/DRYRUN.SF" not in z.namelist():
                    die("Failure [INSTALL_PARSE_FAILED_NO_CERTIFICATES]")
            d["installed"] = True
            with zipfile.ZipFile(apk) as z:
                # The activity's onNewIntent (android/java) is what lets a running app read a share.
                d["activity_code"] = ("classes.dex" in z.namelist() and
                                      b"Lorg/halma/app/HalmaActivity;" in z.read("classes.dex"))
            print("Performing Streamed Install\nSuccess")
        elif args[:1] == ["logcat"]:
            if "-c" in args:
                d["logcat"] = []
            else:
                for line in d.get("logcat", []):
                    print(line)
        elif args[:1] in (["shell"], ["exec-out"]):
            words = " ".join(args[1:]).split()
            command = " ".join(words)
            if words[:2] == ["getprop", "sys.boot_completed"]:
                print("1")
            elif words[:2] == ["getprop", "ro.build.version.sdk"]:
                print(d["api"])
            elif words[:2] == ["getprop", "ro.build.version.release"]:
                print({26: "8.0.0", 36: "16"}.get(d["api"], "14"))
            elif words[:2] == ["getprop", "ro.product.cpu.abi"]:
                print("x86_64")
            elif command == "cat /proc/self/smaps":
                kb = int(os.environ.get("DRYRUN_PAGE_SIZE", "4096")) // 1024
                print(f"5d0e7a2c0000-5d0e7a2c2000 r--p 00000000 fd:00 1234 /system/bin/toybox\nSize:  8 kB\n"
                      f"KernelPageSize:  {kb} kB\nMMUPageSize:  {kb} kB")
            elif command == "getconf PAGE_SIZE":
                if d["api"] < 28:
                    die("getconf: not found", 127)
                print(os.environ.get("DRYRUN_PAGE_SIZE", "4096"))
            elif words[:2] == ["wm", "size"]:
                print(f"Physical size: {WIDTH}x{HEIGHT}")
            elif words[:2] == ["wm", "density"]:
                print("Physical density: 240")
            elif words[:1] in (["settings"], ["wm"]):
                pass
            elif words[:1] == ["pidof"]:
                if d["pid"]:
                    print(d["pid"])
                else:
                    sys.exit(1)
            elif words[:2] == ["am", "start"]:
                if not d["installed"] or option(words, "-n") != ACTIVITY:
                    die("Error: Activity class does not exist.")
                if option(words, "-a") == "android.intent.action.SEND" and d["pid"]:
                    # Delivered to the running activity (singleTask): onNewIntent, then a resume.
                    first = words.index("android.intent.extra.TEXT") + 1
                    text = " ".join(words[first:words.index("-n")]).strip("'")
                    d["foreground"] = True
                    if d.get("activity_code"):
                        d["logcat"].append(f"12-03 06:00:01.000  {d['pid']}  {d['pid']} I RustStdoutStderr: "
                                           f"halma: a shared text arrived ({len(text.encode())} bytes)")
                    print("Warning: Activity not started, intent has been delivered to currently running top-most instance.")
                    print(f"Status: ok\nActivity: {ACTIVITY}")
                    return 0
                if not d["pid"]:
                    d["pid"] = d["next_pid"]
                    d["next_pid"] += 1
                    d["page"] = d["last_page"] if d["save"] else "setup"
                    d.setdefault("logcat", []).append(f"12-03 06:00:00.000  {d['pid']}  {d['pid']} I RustStdoutStderr: halma started")
                d["foreground"] = True
                print(f"Starting: Intent {{ cmp={ACTIVITY} }}\nStatus: ok\nLaunchState: COLD")
            elif words[:2] == ["am", "kill"]:
                if not d["foreground"]:
                    d["pid"] = 0
            elif words[:2] == ["run-as", PACKAGE] and words[2:4] == ["cat", "files/game.json"]:
                if d["save"]:
                    sys.stdout.write(d["save"])
                else:
                    die("cat: files/game.json: No such file or directory")
            elif words[:2] == ["run-as", PACKAGE] and words[2:4] == ["kill", "-9"]:
                if str(d["pid"]) == words[4]:
                    d["pid"] = 0
            elif words[:2] == ["input", "keyevent"]:
                key = words[2]
                if key == "KEYCODE_BACK" and d["pid"] and d["foreground"]:
                    back(d)
                elif key == "KEYCODE_HOME":
                    d["foreground"] = False
            elif words[:2] == ["input", "tap"]:
                tap(d, int(words[2]), int(words[3]))
            elif words[:2] == ["input", "swipe"]:
                x1, y1, x2 = int(words[2]), int(words[3]), int(words[4])
                if d["gestural"] and d["api"] >= 29 and x1 < 20 and x2 - x1 > 100 and d["pid"] and d["foreground"]:
                    back(d)
            elif words[:3] == ["dumpsys", "activity", "activities"]:
                if d["pid"] and d["foreground"]:
                    print(f"  mResumedActivity: ActivityRecord{{1 u0 {ACTIVITY} t9}}")
                else:
                    print("  mResumedActivity: ActivityRecord{2 u0 com.android.launcher3/.Launcher t1}")
            elif words[:3] == ["cmd", "overlay", "enable"]:
                d["gestural"] = "gestural" in words[3]
            elif words[:3] == ["cmd", "overlay", "list"]:
                print(f"com.android.systemui\n {'[x]' if d['gestural'] else '[ ]'} com.android.internal.systemui.navbar.gestural")
            elif words[:3] == ["cmd", "locale", "set-app-locales"]:
                if d["api"] < 33:
                    die("Unknown command: locale")
                d["locale"] = option(words, "--locales", "en")[:2]
            elif words[:3] == ["cmd", "locale", "get-app-locales"]:
                print(f"Locales for {PACKAGE} for user 0 are [{d['locale']}]")
            elif words[:1] == ["screencap"]:
                header, pixels = screen(d)
                out.write(png(pixels) if "-p" in words else header + pixels)
            else:
                die(f"unexpected shell command: {command}")
        else:
            die(f"unexpected arguments {args}")
    finally:
        save("device", d)
    return 0


TOOLS = {"sdkmanager": sdkmanager, "rustup": rustup, "rustc": rustc, "cargo": cargo, "curl": curl, "java": java,
         "aapt2": aapt2, "zipalign": zipalign, "apksigner": apksigner, "llvm-readelf": readelf, "d8": d8,
         "adb": adb, "sudo": sudo, "udevadm": udevadm, "gh": gh}

if __name__ == "__main__":
    if TOOL not in TOOLS:
        die(f"no stand-in called {TOOL}")
    sys.exit(TOOLS[TOOL]() or 0)
