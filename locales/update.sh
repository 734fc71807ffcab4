#!/bin/sh
# Regenerates locales/halma.pot from the @tr strings of ui/*.slint and merges it
# into every catalogue locales/<lang>/LC_MESSAGES/halma.po.
#
# Run it after changing any @tr string, from anywhere:   locales/update.sh
# Then translate what it reports as fuzzy or untranslated (msgstr "" entries, and
# entries flagged "#, fuzzy" whose old text is kept in "#| msgid" comments: fix
# the translation and delete the fuzzy flag), and check with
#   cargo test --test translations
#
# Needs:
#   slint-tr-extractor, the same version as slint in Cargo.toml:
#     cargo install slint-tr-extractor --version 1.18.1 --locked
#     (or point SLINT_TR_EXTRACTOR at the binary)
#   GNU gettext (msgcat, msgmerge, msgattrib, msgfmt, msginit):
#     Debian/Ubuntu: apt-get install gettext    macOS: brew install gettext
#
# build.rs bundles the catalogues with no default translation context, so the
# template is extracted with --no-default-translation-context: msgids are the
# plain source strings, with a msgctxt only for an explicit @tr("ctx" => "...").
set -eu

LANGUAGES="fr uk id fil"
DOMAIN=halma

cd "$(dirname "$0")/.."

extractor=${SLINT_TR_EXTRACTOR:-slint-tr-extractor}
missing=""
if ! command -v "$extractor" >/dev/null 2>&1; then
    missing="$missing
  - slint-tr-extractor ($extractor): cargo install slint-tr-extractor --version 1.18.1 --locked
    (or set SLINT_TR_EXTRACTOR=/path/to/slint-tr-extractor)"
fi
for tool in msgcat msgmerge msgattrib msgfmt msginit; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        missing="$missing
  - $tool, from GNU gettext: apt-get install gettext (Debian/Ubuntu), brew install gettext (macOS)"
    fi
done
if [ -n "$missing" ]; then
    echo "locales/update.sh cannot run; missing:$missing" >&2
    exit 1
fi

# The extractor must parse the .slint files like the slint version we build with.
slint_version=$(sed -n 's/^slint = { version = "=\{0,1\}\([0-9.]*\)".*/\1/p' Cargo.toml | head -n 1)
extractor_version=$("$extractor" --version 2>/dev/null | awk '{print $NF}')
if [ -n "$slint_version" ] && [ "$extractor_version" != "$slint_version" ]; then
    echo "warning: slint-tr-extractor is version ${extractor_version:-unknown}, slint is $slint_version" >&2
fi
package_version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The template, in gettext's own layout. POT-Creation-Date changes on every
#    run: keep the old template when nothing else changed, to keep diffs quiet.
"$extractor" --no-default-translation-context --package-name "$DOMAIN" --package-version "$package_version" \
    -o "$work/extracted.pot" ui/*.slint
# Slint's own widgets show a few @tr strings of their own (a text field's context
# menu): locales/slint-widgets.pot lists them, and the template carries them too.
msgcat --force-po --use-first -o "$work/$DOMAIN.pot" "$work/extracted.pot" locales/slint-widgets.pot
template="locales/$DOMAIN.pot"
if [ -f "$template" ] &&
    grep -v '^"POT-Creation-Date:' "$template" >"$work/old" &&
    grep -v '^"POT-Creation-Date:' "$work/$DOMAIN.pot" >"$work/new" &&
    cmp -s "$work/old" "$work/new"; then
    echo "$template: unchanged"
else
    cp "$work/$DOMAIN.pot" "$template"
    echo "$template: updated"
fi

# 2. Every catalogue: new strings are added untranslated, changed ones become
#    fuzzy (with the previous msgid kept as "#|"), removed ones are dropped.
status=0
for lang in $LANGUAGES; do
    po="locales/$lang/LC_MESSAGES/$DOMAIN.po"
    if [ ! -f "$po" ]; then
        mkdir -p "$(dirname "$po")"
        msginit --no-translator --locale="$lang" --input="$template" --output-file="$po"
        echo "$po: created; check its Plural-Forms header against tests/translations.rs" >&2
    fi
    msgmerge --quiet --update --backup=none --previous "$po" "$template"
    msgattrib --no-obsolete --output-file="$work/merged.po" "$po"
    if ! cmp -s "$work/merged.po" "$po"; then
        cp "$work/merged.po" "$po"
    fi
    printf '%s: ' "$po"
    msgfmt --check --statistics -o /dev/null "$po" 2>&1 || status=1
done

echo "Translate any fuzzy or untranslated message above, then run:"
echo "  cargo test --test translations"
exit $status
