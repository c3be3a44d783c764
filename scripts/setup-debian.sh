#!/bin/bash
# Install what a fresh Debian machine lacks to build and test intergather,
# then build it.  Safe to run again: installs only what is missing.
#   scripts/setup-debian.sh            install + configure + make
#   IG_CONFIGURE_FLAGS="--prefix=..."  extra flags for ./configure
set -euo pipefail
cd "$(dirname "$0")/.."

packages="build-essential autoconf automake libtool pkg-config check openmpi-bin libopenmpi-dev"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
    autoreconf -fi >/dev/null
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ]; then
    ./configure -q ${IG_CONFIGURE_FLAGS:-}
fi
make -s -j"$(nproc)"
echo "setup: built src/.libs/libintergather.so"
