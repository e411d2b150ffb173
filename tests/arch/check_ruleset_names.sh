#!/usr/bin/env bash
# tests/arch/check_ruleset_names.sh — the layers above the rules name no ruleset.
#
# core/, ai/, io/ and display/ must not name a ruleset (its folder name under rulesets/ or
# its prefix, case-insensitive) in .c, .h or CMake files; tools/ may only where it
# registers. A ruleset's prefixes and the words only its rules use are read from its folder
# (`set(OPFOR_RULESET_PREFIX vk_ patrol)` in rulesets/NAME/ruleset.cmake); its name is the
# folder's. Files that still name a ruleset
# while the move is under way are listed in tests/arch/ruleset_names.allow with the number
# of lines they may keep: a file not listed, or a count above its allowance, fails. The list
# only shrinks: when a file gets better, lower its number (the check says which).
# Usage: check_ruleset_names.sh [SOURCE_DIR]
set -u
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src" || exit 2
allow=tests/arch/ruleset_names.allow

words=()
for d in rulesets/*/; do
    name=$(basename "$d")
    [ "$name" = include ] && continue
    words+=("$name")
    if [ -f "$d/ruleset.cmake" ]; then
        for p in $(sed -n 's/.*OPFOR_RULESET_PREFIX[[:space:]]\+\([A-Za-z0-9_ ]\+\)).*/\1/p' \
                       "$d/ruleset.cmake"); do
            words+=("$p")
        done
    fi
done
if [ ${#words[@]} -eq 0 ]; then
    echo "check_ruleset_names: no ruleset found under rulesets/" >&2
    exit 2
fi
pattern=$(IFS='|'; echo "${words[*]}")

declare -A allowed=()
if [ -f "$allow" ]; then
    while read -r path count _; do
        case "$path" in ''|\#*) continue ;; esac
        allowed[$path]=$count
    done <"$allow"
fi

fail=0 checked=0 better=()
while IFS= read -r f; do
    checked=$((checked + 1))
    n=$(grep -ciE -- "$pattern" "$f")
    a=${allowed[$f]:-0}
    if [ "$n" -gt "$a" ]; then
        if [ "$a" -eq 0 ]; then
            echo "check_ruleset_names: $f names a ruleset ($n lines; the layers above the rules" \
                 "reach a ruleset only through rulesets/include/opfor/):" >&2
        else
            echo "check_ruleset_names: $f names a ruleset on $n lines, more than the $a it" \
                 "may keep ($allow):" >&2
        fi
        grep -niE -- "$pattern" "$f" | head -5 | sed 's/^/    /' >&2
        fail=1
    elif [ "$n" -lt "$a" ]; then
        better+=("$f: $a -> $n")
    fi
done < <(git ls-files -- 'core/*' 'ai/*' 'io/*' 'display/*' 'tools/*' 2>/dev/null |
         grep -E '(\.[ch]|CMakeLists\.txt|\.cmake)$')
if [ "$checked" -eq 0 ]; then
    echo "check_ruleset_names: no source file found (not a git checkout?)" >&2
    exit 2
fi
for b in "${better[@]+"${better[@]}"}"; do
    echo "check_ruleset_names: better than allowed, lower it in $allow: $b"
done
total=0
for k in "${!allowed[@]}"; do total=$((total + allowed[$k])); done
if [ "$fail" -ne 0 ]; then
    echo "check_ruleset_names: FAILED (names: ${words[*]})" >&2
    exit 1
fi
echo "check_ruleset_names: $checked files clean or within their allowance" \
     "(${#allowed[@]} files still allowed $total lines; names: ${words[*]})"
