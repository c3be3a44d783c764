# Sourced by build.sh (POSIX sh) and common.sh: which C files make up the
# library, read from Makefile.am so that no script keeps its own list.

# makefile_sources TOP LIBS: the C files (src/NAME.c) Makefile.am lists for
# the libraries LIBS names (an awk pattern: "igplan", "igplan|intergather").
makefile_sources() {
    awk -v libs="$2" '$0 ~ "^src_lib(" libs ")_la_SOURCES[ \t]*=" { on = 1 }
         on { for (i = 1; i <= NF; i++) if ($i ~ /\.c$/) print $i; if ($0 !~ /\\$/) on = 0 }' "$1/Makefile.am"
}
