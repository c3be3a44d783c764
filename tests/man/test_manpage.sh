#!/bin/bash
# intergather(7): formats without a single warning (mandoc -T lint and
# groff -ww, whichever are installed; at least one must be), carries this
# version, and describes every variable of the README's configuration table,
# which names every setting src/settings.h defines; the modulefile templates
# set every default of that table.
set -eu
src=${IG_TOP_SRCDIR:-.}
page=$src/man/intergather.7
checked=""
if command -v mandoc >/dev/null; then
    out=$(mandoc -T lint -W warning "$page" 2>&1) || { echo "$out" >&2; exit 1; }
    [ -z "$out" ] || { echo "mandoc -T lint:" >&2; echo "$out" >&2; exit 1; }
    checked="$checked mandoc"
fi
if command -v groff >/dev/null; then
    out=$(groff -man -ww -z -Tutf8 "$page" 2>&1) || { echo "$out" >&2; exit 1; }
    [ -z "$out" ] || { echo "groff -ww:" >&2; echo "$out" >&2; exit 1; }
    checked="$checked groff"
fi
[ -n "$checked" ] || { echo "neither mandoc nor groff is installed: apt-get install mandoc (scripts/setup-debian.sh does)" >&2; exit 1; }

if [ -n "${IG_VERSION:-}" ]; then
    grep -q "^\.TH INTERGATHER 7 .* \"intergather $IG_VERSION\"" "$page" \
        || { echo "the .TH line of $page does not say intergather $IG_VERSION" >&2; exit 1; }
fi
vars=$(sed -n 's/^| `\(INTERGATHER_[A-Z_]*\)`.*/\1/p' "$src/README")
[ -n "$vars" ] || { echo "no INTERGATHER_ variable found in the README's table" >&2; exit 1; }
# The table is the library's settings, all of them: the names src/settings.h
# defines (IG_ENV_*, the one place the code names them).
code_vars=$(sed -n 's/^#define IG_ENV_[A-Z_]* *"\(INTERGATHER_[A-Z_]*\)".*/\1/p' "$src/src/settings.h" | sort)
[ -n "$code_vars" ] || { echo "no IG_ENV_ name found in src/settings.h" >&2; exit 1; }
[ "$code_vars" = "$(echo "$vars" | tr ' ' '\n' | sort)" ] || {
    echo "src/settings.h and the README's configuration table name different settings:" >&2
    diff <(echo "$code_vars") <(echo "$vars" | tr ' ' '\n' | sort) >&2
    exit 1
}
for v in $vars; do
    grep -q "^\.B $v\$" "$page" || { echo "$page does not describe $v (README's table does)" >&2; exit 1; }
done
echo "ok: intergather(7) lint-clean ($checked ), version ${IG_VERSION:-unchecked}, describes" $vars

# The modulefiles set the README's defaults, all of them.
rows=$(sed -n 's/^| `\(INTERGATHER_[A-Z_]*\)` *|[^|]*| `\([^`]*\)` *|.*/\1 \2/p' "$src/README")
[ "$(echo "$rows" | wc -l)" = "$(echo "$vars" | wc -w)" ] || { echo "cannot read every default of the README's table" >&2; exit 1; }
while read -r v d; do
    grep -q "{ \"$v\", *\"$d\" }" "$src/modules/intergather.lua.in" \
        || { echo "modules/intergather.lua.in does not set $v=$d (README's default)" >&2; exit 1; }
    grep -qE "^ +$v +$d\$" "$src/modules/intergather.tcl.in" \
        || { echo "modules/intergather.tcl.in does not set $v=$d (README's default)" >&2; exit 1; }
done <<<"$rows"
echo "ok: the modulefiles set the README's defaults:" $rows
