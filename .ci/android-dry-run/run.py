#!/usr/bin/env python3
"""Runs the jobs of .github/workflows/android.yml here, step by step and in order, against recording
stand-ins (standins.py), the way the hosted runner would run them:

    run.py REPO WORK SCENARIO      SCENARIO: push | tag | tag-unsigned | skia-missing

skia-missing runs the workflow twice, as two pushes: the first builds the missing Skia from source
and saves it with actions/cache, the second must restore it and build nothing from source.

Each job starts on a fresh "machine": a copy of the repository (the checkout), a HOME, and an SDK
laid out like the ubuntu-24.04 image's (other platforms, build-tools and NDKs, the NDK variables on
those). `run:` steps run with `bash -e`, with the workflow's, the job's and the step's `env`,
`${{ }}` expressions and `if:` conditions evaluated, and GITHUB_ENV / GITHUB_OUTPUT carried to the
next steps. Actions are emulated: checkout (the copy), rust-cache (nothing), upload-artifact and
download-artifact (a local artifact store, failing on `if-no-files-found: error`), cache/restore and
cache/save (a local cache store kept between the runs of a scenario, by exact key), and
android-emulator-runner (each line of `script` through `sh -c`, on a fresh fake emulator). An
action without an emulation fails the dry run, as does a step that fails, an expression that cannot
be evaluated, and, at the end, any of the scenario's checks of what the stand-ins were asked to do.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile

import yaml

repo, work, scenario = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
workflow_path = os.path.join(repo, ".github", "workflows", "android.yml")
with open(workflow_path) as f:
    workflow = yaml.safe_load(f)
calls_log = os.path.join(work, "calls.jsonl")
artifacts = os.path.join(work, "artifacts")
os.makedirs(artifacts, exist_ok=True)
pins = dict(re.findall(r"^([A-Z_]+)=(\S*)\s*$", open(os.path.join(repo, "android", "toolchain.env")).read(), re.M))
channel = re.search(r'^channel\s*=\s*"([^"]+)"', open(os.path.join(repo, "rust-toolchain.toml")).read(), re.M).group(1)
tag = "v" + re.search(r'^version\s*=\s*"([^"]+)"', open(os.path.join(repo, "Cargo.toml")).read(), re.M).group(1)
ref = f"refs/tags/{tag}" if scenario in ("tag", "tag-unsigned") else "refs/heads/main"
cache_store = os.path.join(work, "cache")
current_run = 1


def say(text):
    print(f"dry-run: {text}", flush=True)


class Failed(Exception):
    pass


# The stand-ins, as links named after the tools.
bin_dir = os.path.join(work, "bin")
os.makedirs(bin_dir, exist_ok=True)
standins = os.path.join(here, "standins.py")
for tool in ("sdkmanager", "rustup", "rustc", "cargo", "curl", "java", "aapt2", "zipalign", "apksigner",
             "llvm-readelf", "d8", "adb", "sudo", "udevadm", "gh"):
    link = os.path.join(bin_dir, tool)
    if not os.path.lexists(link):
        os.symlink(standins, link)
real = {name: shutil.which(name) for name in ("cargo", "rustc", "java")}
for name, path in real.items():
    if not path:
        raise SystemExit(f"dry-run: no real {name} on PATH")

# The archive keys skia-bindings would ask for (what skia-prebuilt.sh prints; proven against
# skia-bindings' build script by .ci/android-skia-names.sh), for the cargo-ndk stand-in's report.
printed = subprocess.run(["bash", "android/skia-prebuilt.sh", "--print"], cwd=repo, capture_output=True, text=True,
                         env=dict(os.environ, ABIS="arm64-v8a x86_64", SKIA_BINARIES_URL="{tag} {key}"))
if printed.returncode != 0:
    raise SystemExit(f"dry-run: skia-prebuilt.sh --print failed:\n{printed.stderr}")
skia_keys = {}
for line in printed.stdout.splitlines():
    abi, value = re.match(r"skia-prebuilt: (\S+): (.*)", line).groups()
    skia_keys[{"arm64-v8a": "aarch64-linux-android", "x86_64": "x86_64-linux-android"}[abi]] = value


# ---------------------------------------------------------------------------------------------
# Expressions.
def lookup(name, context):
    value = context
    for part in name.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, dict) and part.replace("-", "_") in value:
            value = value[part.replace("-", "_")]
        else:
            return ""
    return value


def evaluate(expression, context):
    tokens = re.findall(r"'[^']*'|&&|\|\||==|!=|!|\(|\)|,|[A-Za-z_][A-Za-z0-9_.-]*(?:\(\))?|\d+|\s+", expression)
    if "".join(tokens) != expression:
        raise Failed(f"cannot evaluate the expression {expression!r}")
    python = []
    for i, token in enumerate(tokens):
        if token.isspace():
            continue
        if token.startswith("'"):
            python.append(repr(token[1:-1]))
        elif token in ("&&", "||"):
            python.append({"&&": "and", "||": "or"}[token])
        elif token == "!":
            python.append("not")
        elif token in ("==", "!=", "(", ")", ",") or token.isdigit():
            python.append(token)
        elif token in ("always()", "success()", "failure()", "cancelled()"):
            python.append(repr({"always()": True, "success()": not context["_failed"],
                                "failure()": context["_failed"], "cancelled()": False}[token]))
        elif token in ("startsWith", "endsWith", "contains"):
            python.append(token)
        elif token in ("true", "false"):
            python.append(token.capitalize())
        else:
            python.append(repr(lookup(token, context)))
    functions = {"startsWith": lambda a, b: str(a).lower().startswith(str(b).lower()),
                 "endsWith": lambda a, b: str(a).lower().endswith(str(b).lower()),
                 "contains": lambda a, b: str(b).lower() in str(a).lower()}
    return eval(" ".join(python), {"__builtins__": {}}, functions)  # noqa: S307 (tokens checked above)


def text_of(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def substitute(text, context):
    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", lambda m: text_of(evaluate(m.group(1), context)), str(text))


# ---------------------------------------------------------------------------------------------
# A job on a fresh machine.
def fresh_machine(name):
    machine = os.path.join(work, name)
    shutil.rmtree(machine, ignore_errors=True)
    workspace = os.path.join(machine, "workspace")
    os.makedirs(workspace)
    files = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=repo, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for path in files:
        source = os.path.join(repo, path)
        if path and os.path.isfile(source):
            os.makedirs(os.path.dirname(os.path.join(workspace, path)), exist_ok=True)
            shutil.copy2(source, os.path.join(workspace, path))
    for folder in ("home", "temp", "state"):
        os.makedirs(os.path.join(machine, folder))
    sdk = os.path.join(machine, "sdk")
    os.makedirs(os.path.join(sdk, "cmdline-tools", "latest", "bin"))
    os.symlink(os.path.join(bin_dir, "sdkmanager"), os.path.join(sdk, "cmdline-tools", "latest", "bin", "sdkmanager"))
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("ANDROID_", "CARGO_TARGET_DIR", "SKIA_", "RUSTUP_TOOLCHAIN", "DRYRUN_", "GITHUB_", "ABIS"))}
    real_home = os.path.expanduser("~")
    env.update({
        "PATH": bin_dir + os.pathsep + os.environ["PATH"], "HOME": os.path.join(machine, "home"),
        # The real cargo and rustup (cargo tree and metadata go to them) keep their own homes.
        "CARGO_HOME": os.environ.get("CARGO_HOME", os.path.join(real_home, ".cargo")),
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", os.path.join(real_home, ".rustup")),
        "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace, "GITHUB_REF": ref,
        "GITHUB_REF_NAME": ref.rsplit("/", 1)[1], "RUNNER_TEMP": os.path.join(machine, "temp"),
        "ANDROID_HOME": sdk, "ANDROID_SDK_ROOT": sdk,
        # The image's own NDK variables, on other NDKs than the pinned one.
        "ANDROID_NDK": os.path.join(sdk, "ndk", "27.3.13750724"),
        "ANDROID_NDK_HOME": os.path.join(sdk, "ndk", "27.3.13750724"),
        "ANDROID_NDK_ROOT": os.path.join(sdk, "ndk", "27.3.13750724"),
        "ANDROID_NDK_LATEST_HOME": os.path.join(sdk, "ndk", "29.0.14206865"),
        "DRYRUN_STATE": os.path.join(machine, "state"), "DRYRUN_LOG": calls_log, "DRYRUN_BIN": bin_dir,
        "DRYRUN_REAL_CARGO": real["cargo"], "DRYRUN_REAL_RUSTC": real["rustc"], "DRYRUN_REAL_JAVA": real["java"],
        "DRYRUN_SKIA_KEYS": json.dumps(skia_keys), "DRYRUN_SCENARIO": scenario, "DRYRUN_RUN": str(current_run),
        "DRYRUN_OFFERED_IMAGES": " ".join(f"system-images;android-{m['api']};{m['target']};x86_64"
                                          for m in workflow["jobs"]["emulator"]["strategy"]["matrix"]["include"]),
    })
    if scenario == "skia-missing":
        # No published x86_64 archive: the one-byte GET gets a 404, and so does the download.
        env["DRYRUN_CURL_404"] = skia_keys["x86_64-linux-android"].split()[1]
    # What the image has besides the pins: other platforms, build-tools (a beta too) and NDKs.
    for package in ("platforms;android-35", "platforms;android-37.2-beta1", "build-tools;35.0.0",
                    "build-tools;37.0.0-rc1", "ndk;27.3.13750724", "ndk;29.0.14206865"):
        subprocess.run([os.path.join(sdk, "cmdline-tools", "latest", "bin", "sdkmanager"), "--install", package],
                       env=dict(env, DRYRUN_STEP="runner image"), check=True, capture_output=True)
    return machine, workspace, env


def run_job(job_id, job, matrix=None):
    name = job_id + ("" if not matrix else "-" + "-".join(str(v) for v in matrix.values())) + \
        ("" if current_run == 1 else f"-run{current_run}")
    machine, workspace, env = fresh_machine(name)
    context = {"github": {"ref": ref, "ref_name": ref.rsplit("/", 1)[1], "token": "dry-run-token",
                          "workspace": workspace}, "matrix": matrix or {}, "secrets": secrets,
               "steps": {}, "env": {}, "_failed": False}
    env.update({k: substitute(v, context) for k, v in (workflow.get("env") or {}).items()})
    env.update({k: substitute(v, context) for k, v in (job.get("env") or {}).items()})
    say(f"=== job {name} ({job.get('name') and substitute(job['name'], context)})")
    results = []
    for number, step in enumerate(job["steps"], 1):
        title = substitute(step.get("name") or step.get("uses") or step.get("run", "").splitlines()[0], context)
        condition = step.get("if")
        if condition is not None:
            condition = re.sub(r"^\$\{\{\s*(.*?)\s*\}\}$", r"\1", str(condition))
            run_it = evaluate(condition, context)
            if not re.search(r"always\(\)|failure\(\)", condition):
                run_it = run_it and not context["_failed"]
        else:
            run_it = not context["_failed"]
        if not run_it:
            results.append((title, "skipped", 0))
            say(f"  - {title}: skipped")
            continue
        step_env = dict(env, DRYRUN_STEP=f"{name}: {title}")
        step_env.update({k: substitute(v, context) for k, v in (step.get("env") or {}).items()})
        context["env"] = step_env
        outputs = os.path.join(machine, f"output-{number}")
        github_env = os.path.join(machine, f"env-{number}")
        step_env["GITHUB_STEP_SUMMARY"] = os.path.join(work, f"{name}.summary.md")
        open(outputs, "w").close()
        open(github_env, "w").close()
        step_env.update({"GITHUB_OUTPUT": outputs, "GITHUB_ENV": github_env})
        started = time.time()
        try:
            log = run_step(step, step_env, workspace, context, machine)
            status = "ok"
        except Failed as failure:
            log = str(failure)
            status = "FAILED"
            context["_failed"] = True
        for line in open(github_env).read().splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                env[key] = value
        if step.get("id"):
            context["steps"][step["id"]] = {"outputs": dict(line.split("=", 1) for line in open(outputs).read().splitlines()
                                                            if "=" in line)}
        elapsed = time.time() - started
        results.append((title, status, elapsed))
        with open(os.path.join(work, f"{name}.log"), "a") as f:
            f.write(f"##[group]{title}\n{log}\n##[endgroup] {status}\n")
        say(f"  - {title}: {status} ({elapsed:.1f} s)")
        if status != "ok":
            tail = "\n".join("      " + line for line in log.splitlines()[-25:])
            say(f"    the step's last lines:\n{tail}")
    return not context["_failed"], results


def run_shell(script, env, cwd, shell=("bash", "-e")):
    path = os.path.join(env["RUNNER_TEMP"], "step.sh")
    with open(path, "w") as f:
        f.write(script)
    process = subprocess.run([*shell, path], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, errors="replace")
    if process.returncode != 0:
        raise Failed(process.stdout + f"\n(exit {process.returncode})")
    return process.stdout


def run_step(step, env, workspace, context, machine):
    if "run" in step:
        return run_shell(substitute(step["run"], context), env, workspace)
    uses = step["uses"]
    action = uses.split("@")[0]
    inputs = {k: substitute(v, context) for k, v in (step.get("with") or {}).items()}
    if action == "actions/checkout":
        return "the repository was copied when the job started"
    if action == "Swatinem/rust-cache":
        return "no cache in a dry run"
    if action in ("actions/cache/restore", "actions/cache/save", "actions/cache"):
        if action == "actions/cache":
            raise Failed("actions/cache saves at the end of the job, only if it passes: use restore and save")
        if not inputs.get("key") or not inputs.get("path"):
            raise Failed(f"{action} without key or path: {inputs}")
        if "," in inputs["key"] or len(inputs["key"]) > 512:
            raise Failed(f"{action}: an invalid cache key {inputs['key']!r} (no commas, at most 512 characters)")
        given = inputs["path"].strip()
        path = os.path.join(env["HOME"], given[2:]) if given.startswith("~/") else os.path.join(workspace, given)
        stored = os.path.join(cache_store, inputs["key"])
        with open(env["GITHUB_OUTPUT"], "a") as f:
            if action == "actions/cache/restore":
                hit = os.path.isdir(stored)
                if hit:
                    shutil.copytree(stored, path, dirs_exist_ok=True)
                f.write(f"cache-hit={'true' if hit else 'false'}\ncache-primary-key={inputs['key']}\n"
                        f"cache-matched-key={inputs['key'] if hit else ''}\n")
                return f"cache restore {inputs['key']}: " + ("hit: " + " ".join(sorted(os.listdir(path))) if hit else "miss")
        if os.path.isdir(stored):
            return f"cache save {inputs['key']}: already exists, not saved (as GitHub does)"
        if not os.path.isdir(path) or not os.listdir(path):
            raise Failed(f"cache save {inputs['key']}: nothing at {inputs['path']}")
        shutil.copytree(path, stored)
        return f"cache save {inputs['key']}: " + " ".join(sorted(os.listdir(stored)))
    if action == "actions/upload-artifact":
        matched = []
        for pattern in inputs["path"].split("\n"):
            if pattern.strip():
                matched += glob.glob(os.path.join(workspace, pattern.strip()))
        if not matched:
            if inputs.get("if-no-files-found", "warn") == "error":
                raise Failed(f"upload-artifact {inputs['name']}: no files match {inputs['path']!r}")
            return f"upload-artifact {inputs['name']}: no files (warning)"
        store = os.path.join(artifacts, inputs["name"])
        shutil.rmtree(store, ignore_errors=True)
        os.makedirs(store)
        for path in matched:
            if os.path.isdir(path):
                shutil.copytree(path, store, dirs_exist_ok=True)
            else:
                shutil.copy2(path, store)
        return f"upload-artifact {inputs['name']}: " + " ".join(sorted(os.listdir(store)))
    if action == "actions/download-artifact":
        store = os.path.join(artifacts, inputs["name"])
        if not os.path.isdir(store):
            raise Failed(f"download-artifact: no artifact {inputs['name']}")
        shutil.copytree(store, os.path.join(workspace, inputs.get("path", ".")), dirs_exist_ok=True)
        return f"download-artifact {inputs['name']}: " + " ".join(sorted(os.listdir(store)))
    if action == "reactivecircus/android-emulator-runner":
        for required in ("api-level", "arch", "script"):
            if not inputs.get(required):
                raise Failed(f"android-emulator-runner without {required}")
        emulator_env = dict(env, DRYRUN_API=inputs["api-level"],
                            DRYRUN_PAGE_SIZE="16384" if "ps16k" in inputs.get("target", "") else "4096")
        if inputs["api-level"] == "26":
            # The computer thinks longer than the 5 s the emulator test once waited for a settled save.
            emulator_env["DRYRUN_REPLY_SECONDS"] = "8"
        if scenario == "push" and "ps16k" in inputs.get("target", ""):
            # The fake app draws no pieces on this leg: the scripted play fails, which must not fail
            # the job while EMULATOR_PLAY_BLOCKING is false.
            emulator_env["DRYRUN_NO_PIECES"] = "1"
        # A fresh emulator: the fake device starts with nothing installed.
        device = os.path.join(env["DRYRUN_STATE"], "device.json")
        if os.path.exists(device):
            os.remove(device)
        output = [f"emulator: API {inputs['api-level']} {inputs.get('target')} {inputs['arch']} {inputs.get('profile')}"]
        for line in inputs["script"].splitlines():
            if line.strip():
                output.append(f"$ {line}")
                output.append(run_shell(line, emulator_env, workspace, shell=("sh", "-c")) if False else
                              run_script_line(line, emulator_env, workspace))
        return "\n".join(output)
    raise Failed(f"no emulation of the action {uses} in the dry run: add one to .ci/android-dry-run/run.py")


def run_script_line(line, env, cwd):
    process = subprocess.run(["sh", "-c", line], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, errors="replace")
    if process.returncode != 0:
        raise Failed(process.stdout + f"\n(exit {process.returncode})")
    return process.stdout


# Secrets for the release job: a real keystore made here, as the repository's secrets would hold.
secrets = {}
if scenario == "tag":
    keystore = os.path.join(work, "release.jks")
    if not os.path.exists(keystore):
        subprocess.run(["keytool", "-genkeypair", "-keystore", keystore, "-storepass", "dry-run-pass", "-alias", "halma",
                        "-keypass", "dry-run-pass", "-keyalg", "RSA", "-keysize", "2048", "-validity", "1",
                        "-dname", "CN=Dry Run"], check=True, capture_output=True)
    import base64
    secrets = {"ANDROID_KEYSTORE_BASE64": base64.b64encode(open(keystore, "rb").read()).decode(),
               "ANDROID_KEYSTORE_PASSWORD": "dry-run-pass", "ANDROID_KEY_ALIAS": "halma", "ANDROID_KEY_PASSWORD": ""}

# ---------------------------------------------------------------------------------------------
# The jobs, in the order of their `needs`.
def run_workflow():
    outcome = {}
    order = []
    remaining = dict(workflow["jobs"])
    while remaining:
        ready = [j for j, job in remaining.items()
                 if all(n in outcome for n in ([job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", [])))]
        if not ready:
            raise SystemExit("dry-run: the jobs' needs form a cycle")
        for job_id in ready:
            job = remaining.pop(job_id)
            needs = [job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", [])
            if any(not outcome[n] for n in needs):
                say(f"=== job {job_id}: skipped (a job it needs failed)")
                outcome[job_id] = False
                continue
            if "if" in job and not evaluate(re.sub(r"^\$\{\{\s*(.*?)\s*\}\}$", r"\1", str(job["if"])),
                                            {"github": {"ref": ref}, "_failed": False}):
                say(f"=== job {job_id}: skipped (if: {job['if']})")
                outcome[job_id] = None
                continue
            if scenario in ("tag-unsigned", "skia-missing") and job_id == "emulator":
                # What these scenarios are about is in the apk and release jobs; push and tag play.
                say(f"=== job {job_id}: not run in the {scenario} scenario (counted as passed)")
                outcome[job_id] = True
                continue
            matrices = job.get("strategy", {}).get("matrix", {}).get("include") or [None]
            if scenario == "tag" and job_id == "emulator":
                matrices = matrices[:1]  # the push scenario plays every emulator of the matrix; here the apk and release jobs matter
            passed = True
            for matrix in matrices:
                ok, _ = run_job(job_id, job, matrix)
                passed = passed and ok
            outcome[job_id] = passed
            order.append(job_id)
    for job_id, result in list(outcome.items()):
        if result is None:
            outcome[job_id] = True  # skipped by its `if`, as GitHub counts it for `needs`
    say(f"jobs of run {current_run}: {', '.join(f'{j} {chr(10004) if outcome[j] else chr(10008)}' for j in outcome)} ({time.time() - started:.0f} s)")
    return outcome


started = time.time()
open(calls_log, "w").close()
outcomes = []
for current_run in range(1, 3 if scenario == "skia-missing" else 2):
    outcomes.append(run_workflow())
outcome = outcomes[-1]

# ---------------------------------------------------------------------------------------------
# What the stand-ins were asked to do, per scenario.
calls = [json.loads(line) for line in open(calls_log)]
problems = []


def expect(condition, text):
    say(("ok: " if condition else "NOT: ") + text)
    if not condition:
        problems.append(text)


def called(tool, *words, step=None):
    return [c for c in calls if c["tool"] == tool and all(w in c["args"] for w in words)
            and (step is None or step in c["step"])]


installs = [p for c in called("sdkmanager", "--install") if c["step"] != "runner image" for p in c["args"][1:]]
expect(sorted(set(installs)) == sorted({f"platforms;{pins['ANDROID_PLATFORM']}", f"build-tools;{pins['ANDROID_BUILD_TOOLS_VERSION']}",
                                        f"ndk;{pins['ANDROID_NDK_VERSION']}", f"build-tools;{pins['ANDROID_BUILD_TOOLS_VERSION']}"}),
       f"sdkmanager installs exactly the pins: {sorted(set(installs))}")
rust = called("rustup", "toolchain", "install")
expect(bool(rust) and rust[0]["args"][2] == channel and "aarch64-linux-android,x86_64-linux-android" in rust[0]["args"],
       f"rustup installs rust-toolchain.toml's {channel} with both Android targets: {rust and rust[0]['args']}")
expect(not called("rustup", "update") and not called("rustup", "default"), "no `rustup update/default` (nothing newest of the day)")
ndk_install = called("cargo", "install", "cargo-ndk")
expect(bool(ndk_install) and "--version" in ndk_install[0]["args"] and
       ndk_install[0]["args"][ndk_install[0]["args"].index("--version") + 1] == pins["CARGO_NDK_VERSION"],
       f"cargo-ndk installed at the pinned {pins['CARGO_NDK_VERSION']}: {ndk_install and ndk_install[0]['args']}")
heads = called("curl", "-o", "/dev/null")
for triple, value in skia_keys.items():
    skia_tag, key = value.split()
    expect(any(f"skia-binaries-{key}.tar.gz" in " ".join(c["args"]) for c in heads),
           f"skia-prebuilt.sh asks GitHub for skia-binaries-{key}.tar.gz")
expect(bool(heads) and all(c["args"][c["args"].index("-r") + 1] == "0-0" for c in heads if "-r" in c["args"])
       and all("-r" in c["args"] and "-I" not in c["args"] for c in heads),
       "the preflight asks with a one-byte ranged GET (-r 0-0), never a HEAD")
checks = [c for c in called("cargo", "ndk") if "check" in c["args"] and not c.get("full_build")]
builds = [c for c in called("cargo", "ndk") if "build" in c["args"] and not c.get("full_build")]
abis = workflow["env"]["ABIS"].split()
ndk_dir = f"/ndk/{pins['ANDROID_NDK_VERSION']}"
for label, group in (("check", checks), ("build", builds)):
    expect(bool(group), f"cargo ndk {label} ran")
    for c in group:
        # The one call that may build Skia from source: the first run's check, an archive missing.
        from_source = scenario == "skia-missing" and label == "check" and c["run"] == 1
        targets = [c["args"][i + 1] for i, a in enumerate(c["args"]) if a == "-t"]
        expect(targets == abis, f"cargo ndk {label} for every ABI in ABIS: {targets}")
        expect(c["args"][c["args"].index("-P") + 1] == pins["ANDROID_MIN_SDK"], f"cargo ndk {label} -P {pins['ANDROID_MIN_SDK']}")
        expect((c["env"]["ANDROID_NDK_HOME"] or "").endswith(ndk_dir) and (c["env"]["ANDROID_NDK_ROOT"] or "").endswith(ndk_dir),
               f"cargo ndk {label}: ANDROID_NDK_HOME and ANDROID_NDK_ROOT on the pinned NDK, not the image's ({c['env']['ANDROID_NDK_HOME']})")
        if from_source:
            expect((c["env"]["ANDROID_NDK"] or "").endswith(ndk_dir),
                   f"cargo ndk {label}, run {c['run']}: ANDROID_NDK on the pinned NDK, for the build of Skia from source")
        else:
            expect(c["env"]["ANDROID_NDK"] is None,
                   f"cargo ndk {label}, run {c['run']}: ANDROID_NDK unset, so a failed Skia download cannot start a build from source")
        if scenario == "skia-missing":
            expect((c["env"]["SKIA_BINARIES_URL"] or "").endswith("/home/skia-binaries/skia-binaries-{key}.tar.gz")
                   and c["env"]["SKIA_BINARIES_URL"].startswith("file://"),
                   f"cargo ndk {label}, run {c['run']}: Skia from the cache folder ({c['env']['SKIA_BINARIES_URL']})")
        expect((c["env"]["ANDROID_JAR"] or "").endswith(f"/platforms/{pins['ANDROID_PLATFORM']}/android.jar"),
               f"cargo ndk {label}: ANDROID_JAR of the pinned platform")
if scenario in ("push", "tag", "tag-unsigned"):
    expect(all(outcome.values()), "every job passed")
    apks = os.listdir(os.path.join(artifacts, "halma-debug-apk")) if os.path.isdir(os.path.join(artifacts, "halma-debug-apk")) else []
    expect(any(a.endswith("-debug.apk") for a in apks), f"artifact halma-debug-apk: {apks}")
    played = workflow["jobs"]["emulator"]["strategy"]["matrix"]["include"][:None if scenario == "push" else 1]
    for m in played if scenario != "tag-unsigned" else []:  # tag-unsigned runs no emulator
        if "ps16k" in m["target"] and scenario == "push":
            continue  # its play fails on purpose (below)
        folder = os.path.join(artifacts, f"emulator-api{m['api']}-{m['target']}")
        shots = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        result = open(os.path.join(folder, "result.txt")).read() if "result.txt" in shots else ""
        expect(result.startswith("install and launch: ok") and "\nplay: ok" in result and result.endswith("logcat: clean\n"),
               f"emulator-api{m['api']}-{m['target']}: result.txt says install and launch, play and logcat passed: {result!r}")
        expect("logcat.txt" in shots and sum(s.endswith(".png") for s in shots) >= 6,
               f"artifact emulator-api{m['api']}-{m['target']}: logcat.txt and {sum(s.endswith('.png') for s in shots)} screenshots")
        logcat = open(os.path.join(folder, "logcat.txt")).read() if "logcat.txt" in shots else ""
        expect("halma: a shared text arrived" in logcat and any("shared-message" in s for s in shots),
               f"emulator-api{m['api']}-{m['target']}: a message shared while the app ran was read (onNewIntent)")
    expect(scenario == "tag-unsigned" or any("cat /proc/self/smaps" in " ".join(c["args"]) for c in called("adb")),
           "the page size read from /proc/self/smaps")
    expect(not any("getconf" in " ".join(c["args"]) for c in called("adb")), "no getconf PAGE_SIZE")
if scenario in ("tag", "tag-unsigned"):
    links = [c for c in called("aapt2", "link") if "--version-code" in c["args"]]
    expect(bool(links) and all(c["args"][c["args"].index("--version-code") + 1] == "100" for c in links),
           "versionCode 100 from the tag v0.1.0 (0 * 10000 + 1 * 100 + 0)")
    release = os.path.join(artifacts, "halma-release-unsigned")
    expect(os.path.isdir(release) and sorted(os.listdir(release)) ==
           sorted([f"halma-{tag[1:]}-release-unsigned.apk", f"halma-{tag[1:]}-release-unsigned.aab"]),
           f"artifact halma-release-unsigned: {os.listdir(release) if os.path.isdir(release) else None}")
    if os.path.isdir(release):
        with zipfile.ZipFile(os.path.join(release, f"halma-{tag[1:]}-release-unsigned.apk")) as z:
            apk_dex = "classes.dex" in z.namelist()
        with zipfile.ZipFile(os.path.join(release, f"halma-{tag[1:]}-release-unsigned.aab")) as z:
            aab_dex = "base/dex/classes.dex" in z.namelist()
        expect(apk_dex and aab_dex, "the activity's code in the release APK (classes.dex) and AAB (base/dex/classes.dex)")
    uploads = [os.path.basename(a) for c in called("gh", "release", "upload") for a in c["args"][3:] if not a.startswith("--")]
    summary = open(os.path.join(work, "release.summary.md")).read() if os.path.isfile(os.path.join(work, "release.summary.md")) else ""
    apk_summary = open(os.path.join(work, "apk.summary.md")).read() if os.path.isfile(os.path.join(work, "apk.summary.md")) else ""
    expect("unsigned APK and AAB built and checked" in apk_summary, "the apk job's summary: the unsigned APK and AAB built and checked")
    if scenario == "tag":
        expect(sorted(uploads) == sorted([f"halma-{tag[1:]}-release.apk", f"halma-{tag[1:]}-release.aab"]),
               f"gh release upload of the signed APK and AAB: {uploads}")
        expect("UNSIGNED" not in summary, "with the secrets, the release job's summary does not say UNSIGNED")
    else:
        expect(outcome["release"] is True and not called("gh")
               and not [c for c in called("apksigner", "sign") if c["step"].startswith("release")],
               "without signing secrets the release job passes, signs nothing and attaches nothing")
        expect("UNSIGNED" in summary and "ANDROID_KEYSTORE_BASE64" in summary and "halma-release-unsigned" in summary,
               f"the release job's summary says the release is unsigned, which secrets are missing, and names the artifact: {summary!r}")
if scenario == "push":
    expect(outcome.get("release") is True and not called("gh"), "no release job on a branch push")
if scenario == "skia-missing":
    x86_key = skia_keys["x86_64-linux-android"].split()[1]
    arm_key = skia_keys["aarch64-linux-android"].split()[1]
    for number, result in enumerate(outcomes, 1):
        expect(all(result.values()), f"run {number}: every job passed: {result}")
    first_log = open(os.path.join(work, "apk.log")).read()
    second_log = open(os.path.join(work, "apk-run2.log")).read()
    expect(f"::warning title=No prebuilt Skia for x86_64::" in first_log and "arm64-v8a: found prebuilt Skia" in first_log,
           "run 1: the preflight warns about the missing x86_64 archive only, and goes on")
    full = [c for c in calls if c.get("full_build")]
    expect([(c["run"], c["full_build"], c["profile"]) for c in full] == [(1, "x86_64-linux-android", "debug")],
           f"run 1 builds Skia from source once, for x86_64, in the cargo-check preflight; run 2 never: "
           f"{[(c['run'], c['full_build'], c['profile']) for c in full]}")
    expect("cache restore skia-binaries-" in first_log and ": miss" in first_log, "run 1: the Skia cache misses")
    expect(f"packed the Skia built from source as skia-binaries-{x86_key}.tar.gz" in first_log,
           "run 1: the x86_64 Skia built from source is packed under its archive's name")
    expect(f"downloaded the published skia-binaries-{arm_key}.tar.gz" in first_log,
           "run 1: the published arm64 archive is downloaded into the cache folder")
    saved = sorted(os.listdir(cache_store)) if os.path.isdir(cache_store) else []
    expect(len(saved) == 1 and x86_key in saved[0] and arm_key in saved[0] and
           sorted(os.listdir(os.path.join(cache_store, saved[0]))) ==
           sorted([f"skia-binaries-{arm_key}.tar.gz", f"skia-binaries-{x86_key}.tar.gz"]),
           f"run 1 saves one cache entry, keyed on both archives' names, holding both archives: {saved}")
    expect("cache restore skia-binaries-" in second_log and ": hit:" in second_log, "run 2: the Skia cache hits")
    expect(not [c for c in called("curl") if c["run"] == 2 and "-o" in c["args"] and "/dev/null" not in c["args"]],
           "run 2 downloads no archive (the cache has both)")
    expect(not [c for c in checks + builds if c["run"] == 2 and c["env"]["ANDROID_NDK"]],
           "run 2: ANDROID_NDK unset in every cargo ndk call (nothing may build Skia from source)")
    expect("STARTING A FULL BUILD" not in second_log, "run 2: no line says STARTING A FULL BUILD")
if scenario == "push":
    folder = os.path.join(artifacts, "emulator-api36-google_apis_ps16k")
    result = open(os.path.join(folder, "result.txt")).read() if os.path.isfile(os.path.join(folder, "result.txt")) else ""
    expect(outcome["emulator"] and "play: FAILED in step 2. Start and one move" in result
           and "(not blocking: EMULATOR_PLAY_BLOCKING=false)" in result and "logcat: clean" in result
           and "install and launch: ok" in result and os.path.isfile(os.path.join(folder, "logcat.txt"))
           and any(f.endswith("-failure.png") for f in os.listdir(folder)),
           f"a failed scripted play (the 16 KiB leg's fake app draws no pieces) does not fail the job; result.txt "
           f"says so, with failure.png and logcat.txt: {result!r}")
if problems:
    say(f"FAILED ({scenario}): {len(problems)} check(s) above")
    sys.exit(1)
say(f"OK ({scenario}): {time.time() - started:.0f} s")
