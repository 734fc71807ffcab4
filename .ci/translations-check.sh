#!/usr/bin/env bash
# Translations keep up with the interface (#42): fails when a catalogue
# locales/<lang>/LC_MESSAGES/halma.po
#   - lacks a msgid of locales/halma.pot (or has one the template no longer has),
#   - has a fuzzy entry, an empty translation or an obsolete (#~) entry,
#   - or when a source reference (#: ui/<file>.slint:<line>) of the template or of a
#     catalogue no longer points at the @tr string it names.
# tests/translations.rs checks that halma.pot lists exactly the @tr strings of ui/*.slint;
# this check needs no build, only GNU gettext and python3, and says what to do.
# Fix: run locales/update.sh, translate what it reports, then run this again.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "translations-check: $*"; }

command -v msgcmp >/dev/null 2>&1 || {
    say "installing gettext"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null
}

template=locales/halma.pot
status=0
problem() {
    say "$*"
    status=1
}

for po in locales/*/LC_MESSAGES/halma.po; do
    msgfmt --check -o /dev/null "$po" || problem "$po: msgfmt --check fails"
    # Every msgid of the template, translated: msgcmp counts a fuzzy or empty entry as missing.
    if ! msgcmp "$po" "$template" 2>"$po.msgcmp.log"; then
        problem "$po: lacks a msgid of $template (or leaves it fuzzy or empty):"
        sed 's/^/    /' "$po.msgcmp.log" | head -n 20
    fi
    rm -f "$po.msgcmp.log"
    # Nothing the template no longer has.
    if ! msgcmp --use-untranslated --use-fuzzy "$template" "$po" >/dev/null 2>&1; then
        problem "$po: has a msgid that $template no longer has (run locales/update.sh)"
    fi
    fuzzy="$(msgattrib --only-fuzzy --no-obsolete "$po" | grep -c '^msgid ' || true)"
    [ "$fuzzy" -eq 0 ] || problem "$po: $((fuzzy - 1)) fuzzy entr(y/ies) (check the translation, remove '#, fuzzy')"
    empty="$(msgattrib --untranslated --no-obsolete "$po" | grep -c '^msgid ' || true)"
    [ "$empty" -eq 0 ] || problem "$po: $((empty - 1)) untranslated entr(y/ies)"
    if grep -q '^#~' "$po"; then
        problem "$po: obsolete (#~) entries (run locales/update.sh, which drops them)"
    fi
done

# Source references: each "#: ui/<file>:<line>" names a line with @tr and the start of its
# msgid (the template's and every catalogue's, which must match the template's).
python3 - "$template" locales/*/LC_MESSAGES/halma.po <<'PYTHON' || status=1
import re
import sys


def entries(path):
    """(msgctxt, msgid) -> references of a PO file, obsolete entries left out."""
    found = {}
    refs, key, field, context, msgid = [], None, None, None, None
    def close():
        nonlocal refs, context, msgid
        if msgid is not None:
            found[(context, msgid)] = refs
        refs, context, msgid = [], None, None
    for line in open(path, encoding="utf-8").read().split("\n") + [""]:
        if not line.strip():
            close()
            field = None
            continue
        if line.startswith("#:"):
            refs += line[2:].split()
        elif line.startswith("msgctxt "):
            context, field = line[8:].strip()[1:-1], "ctx"
        elif line.startswith("msgid "):
            msgid, field = line[6:].strip()[1:-1], "id"
        elif line.startswith('"') and field in ("id", "ctx"):
            if field == "id":
                msgid += line.strip()[1:-1]
            else:
                context += line.strip()[1:-1]
        elif line.startswith("msg"):
            field = None
    return {key: value for key, value in found.items() if key[1] != ""}


problems = []
template, catalogues = sys.argv[1], sys.argv[2:]
reference = entries(template)
sources = {}
for (context, msgid), refs in sorted(reference.items(), key=str):
    for ref in refs:
        path, _, line = ref.rpartition(":")
        if not path.startswith("ui/"):
            continue  # Slint's own widgets (locales/slint-widgets.pot)
        if path not in sources:
            try:
                sources[path] = open(path, encoding="utf-8").read().split("\n")
            except OSError:
                sources[path] = []
        lines = sources[path]
        number = int(line) if line.isdigit() else 0
        text = lines[number - 1] if 0 < number <= len(lines) else ""
        # The msgid as written in the .slint source: both escape \" and \\ alike.
        start = re.split(r"\\n|\\t|\\u|\{", msgid)[0][:24]
        if "@tr(" not in text or start not in text:
            problems.append(f"{template}: {ref} does not hold @tr(\"{msgid[:40]}…\") (run locales/update.sh)")
for catalogue in catalogues:
    for key, refs in entries(catalogue).items():
        if key in reference and refs != reference[key]:
            problems.append(f"{catalogue}: the references of \"{key[1][:40]}…\" differ from {template}'s")
for problem in problems[:40]:
    print(f"translations-check: {problem}")
if len(problems) > 40:
    print(f"translations-check: … and {len(problems) - 40} more")
sys.exit(1 if problems else 0)
PYTHON

if [ "$status" -eq 0 ]; then
    say "ok: every catalogue translates every msgid of $template, nothing fuzzy or empty, references current"
else
    say "run locales/update.sh, translate what it reports (see docs/glossary/), then run this again"
fi
exit "$status"
