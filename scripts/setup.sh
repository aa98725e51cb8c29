#!/bin/sh
# Set up Watershed Inspector from a checkout: the system libraries Qt and the PDF tools need
# (Debian 12, Ubuntu 22.04 or newer), a virtual environment in .venv, and the app in it.
#
#   sh scripts/setup.sh          the app
#   sh scripts/setup.sh --test   the app in editable form, with the test and lint tools
#
# Run it as root or as a user who may use sudo. Set INSPECTOR_SETUP_SKIP_APT=1 to skip the
# system packages when they are already installed (or on a system without apt-get).
set -eu
cd "$(dirname "$0")/.."

mode=app
case "${1:-}" in
    "") ;;
    --test) mode=test ;;
    *) echo "scripts/setup.sh: unknown option '$1'; use no option, or --test." >&2; exit 2 ;;
esac

# Qt 6 (PySide6) loads these at start and for a real window (xcb); libcups2 lets the print
# dialog find printers; poppler-utils turns PDFs into pictures for the letter tests.
PACKAGES="python3-venv libglib2.0-0 libegl1 libgl1 libfontconfig1 libfreetype6 libdbus-1-3
 libx11-6 libx11-xcb1 libxkbcommon0 libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4
 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xfixes0
 libxcb-xinerama0 libxcb-xkb1 libcups2 poppler-utils"

if [ "${INSPECTOR_SETUP_SKIP_APT:-0}" != 1 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "scripts/setup.sh: apt-get was not found; install the packages listed in" \
             "scripts/setup.sh with your system's package manager, then run it again with" \
             "INSPECTOR_SETUP_SKIP_APT=1." >&2
        exit 2
    fi
    if [ "$(id -u)" -eq 0 ]; then
        as_root=""
    elif command -v sudo >/dev/null 2>&1; then
        as_root="sudo"
    else
        echo "scripts/setup.sh: installing system packages needs root; run it as root, or" \
             "install sudo, or install the packages listed in scripts/setup.sh and run it" \
             "with INSPECTOR_SETUP_SKIP_APT=1." >&2
        exit 2
    fi
    echo "== system packages"
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    # shellcheck disable=SC2086
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends $PACKAGES >/dev/null
fi

echo "== the app in .venv"
python3 -m venv .venv
if [ "$mode" = test ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
else
    .venv/bin/python -m pip install -q --disable-pip-version-check .
fi
echo "== set up: .venv/bin/inspector-app is ready"
