#!/bin/bash
# The table of algorithms (src/algorithms.def) feeds the documentation:
# every algorithm must appear in the README's table of algorithms, in the
# man page's INTERGATHER_ALGORITHM values, and in the README's
# configuration table, so that adding a row without documenting it fails.
set -eu
top=${IG_TOP_SRCDIR:-.}
names=$(sed -n 's/^IG_ALGORITHM([A-Z_]*, "\([a-z-]*\)".*/\1/p' "$top/src/algorithms.def")
[ -n "$names" ] || { echo "no algorithms found in src/algorithms.def" >&2; exit 1; }
status=0
for name in $names; do
    grep -q "^| \`$name\` | \`src/algo_" "$top/README" || { echo "README: no row for \`$name\` in the table of algorithms" >&2; status=1; }
    grep -q "^| \`INTERGATHER_ALGORITHM\`.*\`$name\`" "$top/README" || { echo "README: INTERGATHER_ALGORITHM does not list $name" >&2; status=1; }
    man_name=$(echo "$name" | sed 's/-/\\\\-/g')
    sed -n '/^\.B INTERGATHER_ALGORITHM$/,/^\.TP/p' "$top/man/intergather.7" | grep -q "^\.BR $man_name " || { echo "man page: INTERGATHER_ALGORITHM does not list $name" >&2; status=1; }
    [ -f "$top/src/algo_$(echo "$name" | tr - _).c" ] || { echo "no src/algo_$(echo "$name" | tr - _).c for $name" >&2; status=1; }
done
[ $status = 0 ] && echo "ok: $(echo $names | wc -w) algorithms, each with its file and documented"
exit $status
