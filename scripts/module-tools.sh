#!/bin/bash
# The two module systems tests/modules/test_modules.sh loads intergather's
# modulefiles with: Lmod (Debian package lmod) and Environment Modules
# (Debian package environment-modules).
#
# Debian's two packages conflict (each provides the `module` command), so
# only one can be installed.  `install` installs lmod (or keeps
# environment-modules if that is the one installed) and unpacks the other
# from its unmodified Debian package (apt-get download, dpkg-deb -x) into
# $IG_TOOLS_DIR (default ~/.cache/intergather-tools), installing only its
# dependencies; both run from where they are, as the test needs them.
#
#   scripts/module-tools.sh install     make both available (apt-get; root or sudo)
#   scripts/module-tools.sh where       print where they are, or fail saying why
#   . scripts/module-tools.sh; ig_module_tools
#       set IG_LMOD_CMD (Lmod's command) and IG_MODULECMD_TCL (Environment
#       Modules' modulecmd.tcl), or fail saying how to get them

ig_tools_dir() {
    echo "${IG_TOOLS_DIR:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/intergather-tools}"
}

ig_pkg_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

ig_module_tools() {
    local dir
    dir=$(ig_tools_dir)
    IG_LMOD_CMD=
    IG_MODULECMD_TCL=
    for c in /usr/share/lmod/lmod/libexec/lmod "$dir/lmod/usr/share/lmod/lmod/libexec/lmod"; do
        [ -x "$c" ] && { IG_LMOD_CMD=$c; break; }
    done
    for c in /usr/lib/modulecmd.tcl "$dir/environment-modules/usr/lib/modulecmd.tcl"; do
        [ -f "$c" ] && { IG_MODULECMD_TCL=$c; break; }
    done
    if [ -z "$IG_LMOD_CMD" ] || [ -z "$IG_MODULECMD_TCL" ]; then
        echo "module-tools: Lmod (${IG_LMOD_CMD:-missing}) and Environment Modules" \
             "(${IG_MODULECMD_TCL:-missing}) are both needed: run scripts/module-tools.sh install" \
             "(scripts/setup-debian.sh does)" >&2
        return 1
    fi
}

# ig_unpack PACKAGE DEPENDENCIES...: install the dependencies, unpack the
# package itself into $(ig_tools_dir)/PACKAGE without installing it.
ig_unpack() {
    local pkg=$1 dir tmp; shift
    dir=$(ig_tools_dir)
    ig_apt_install "$@"
    tmp=$(mktemp -d)
    echo "module-tools: unpacking Debian's $pkg into $dir/$pkg (it conflicts with the installed one)"
    (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >/dev/null)
    rm -rf "${dir:?}/$pkg"
    mkdir -p "$dir/$pkg"
    dpkg-deb -x "$tmp"/"$pkg"_*.deb "$dir/$pkg"
    rm -rf "$tmp"
}

ig_apt_install() {
    local missing="" p sudo=""
    for p in "$@"; do ig_pkg_installed "$p" || missing="$missing $p"; done
    [ -n "$missing" ] || return 0
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "module-tools: installing$missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

ig_module_tools_install() {
    local dir
    dir=$(ig_tools_dir)
    if ! ig_pkg_installed lmod && [ ! -x "$dir/lmod/usr/share/lmod/lmod/libexec/lmod" ]; then
        if ig_pkg_installed environment-modules; then
            ig_unpack lmod lua5.3 lua-posix lua-filesystem lua-json lua-term tcl
        else
            ig_apt_install lmod
        fi
    fi
    if ! ig_pkg_installed environment-modules && [ ! -f "$dir/environment-modules/usr/lib/modulecmd.tcl" ]; then
        # apt-get download needs the package lists.
        [ -n "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v -e lock -e partial)" ] \
            || { [ "$(id -u)" = 0 ] && apt-get update -qq || sudo apt-get update -qq; }
        ig_unpack environment-modules tcl8.6 procps less
    fi
    ig_module_tools
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    case ${1:-} in
        install) ig_module_tools_install
                 echo "module-tools: Lmod $IG_LMOD_CMD, Environment Modules $IG_MODULECMD_TCL" ;;
        where) ig_module_tools; echo "lmod=$IG_LMOD_CMD"; echo "modulecmd_tcl=$IG_MODULECMD_TCL" ;;
        *) echo "usage: $0 install|where" >&2; exit 2 ;;
    esac
fi
