# shellcheck shell=bash
# Sourced by android/build-apk.sh (and tested by .ci/android-toolchain-test.sh): choosing one SDK
# platform, build-tools or NDK out of what an SDK folder holds, by the pin of android/toolchain.env.
# Bash 3.2 and BSD tools (macOS) compatible: no `sort -V`, no `find -printf`.

# A key that sorts version-like names (35.0.0, android-36, android-36-ext19, 28.2.13676358) in
# version order with a plain `sort`: every number zero-padded.
version_key() {
    printf '%s\n' "$1" | awk '{
        key = ""; rest = $0
        while (match(rest, /[0-9]+/)) {
            key = key sprintf("%012d.", substr(rest, RSTART, RLENGTH)); rest = substr(rest, RSTART + RLENGTH)
        }
        print key
    }'
}

# True for a preview: a name or revision with rc, beta, alpha, preview or canary in it
# (android-37.2-beta, 37.0.0-rc1, an NDK whose Pkg.Revision is 29.0.13113456-beta1), or a platform
# named by a codename only (android-Baklava).
is_preview() {
    case "$(printf '%s %s' "$1" "${2:-}" | tr '[:upper:]' '[:lower:]')" in
        *rc[0-9]* | *-rc* | *" rc"* | *beta* | *alpha* | *preview* | *canary*) return 0 ;;
    esac
    case "$1" in *[0-9]*) return 1 ;; esac
    return 0
}

# The version part of a name: 36 for android-36, 36.0.0 for 36.0.0.
version_part() {
    printf '%s\n' "${1#android-}"
}

# Reads candidates, one a line: a folder name, optionally a tab and its Pkg.Revision. Prints the one
# to use for the pin $1, or nothing:
#   - a full pin, as sdkmanager names packages (android-36, 36.0.0, 28.2.13676358), is taken
#     exactly: the candidate of that name, or nothing;
#   - a short pin (36, 36.0, 28) takes the candidate named exactly so (36 is android-36) if there is
#     one, else the highest final release whose version starts with it (36 matches 36.0.0, 36.1.0,
#     android-36-ext19, not 360), and a preview only when no final release matches.
select_version() {
    local pin="$1" pin_version name revision version final=() preview=() exact="" short=true
    pin_version="$(version_part "$pin")"
    case "$pin" in android-* | *.*.*) short=false ;; esac
    while IFS="$(printf '\t')" read -r name revision || [ -n "$name" ]; do
        [ -n "$name" ] || continue
        if [ "$name" = "$pin" ] || { $short && [ "$name" = "android-$pin" ]; }; then
            exact="$name"
            continue
        fi
        $short || continue
        version="$(version_part "$name")"
        case "$version" in
            "$pin_version".* | "$pin_version"-*) ;;
            *) continue ;;
        esac
        if is_preview "$name" "$revision"; then preview+=("$name"); else final+=("$name"); fi
    done
    if [ -n "$exact" ]; then
        printf '%s\n' "$exact"
        return 0
    fi
    local pool=()
    if [ "${#final[@]}" -gt 0 ]; then pool=("${final[@]}"); elif [ "${#preview[@]}" -gt 0 ]; then pool=("${preview[@]}"); fi
    [ "${#pool[@]}" -gt 0 ] || return 0
    for name in "${pool[@]}"; do
        printf '%s\t%s\n' "$(version_key "$name")" "$name"
    done | sort | tail -n 1 | cut -f 2
}

# The candidates of an SDK folder ($1: .../platforms, .../build-tools, .../ndk) for select_version:
# each subfolder that contains $2, with the Pkg.Revision of its source.properties.
sdk_candidates() {
    local parent="$1" wanted="$2" path name revision
    [ -d "$parent" ] || return 0
    for path in "$parent"/*/; do
        [ -d "$path" ] || continue
        name="$(basename "$path")"
        [ -e "$parent/$name/$wanted" ] || continue
        revision=""
        if [ -f "$parent/$name/source.properties" ]; then
            revision="$(sed -n 's/^Pkg\.Revision *= *//p' "$parent/$name/source.properties" | head -n 1 | tr -d '\r')"
        fi
        printf '%s\t%s\n' "$name" "$revision"
    done
}

# The NDK's Pkg.Revision (28.2.13676358), or nothing.
ndk_revision() {
    [ -f "$1/source.properties" ] || return 0
    sed -n 's/^Pkg\.Revision *= *//p' "$1/source.properties" | head -n 1 | tr -d '\r'
}
