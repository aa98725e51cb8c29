#!/bin/sh
# Set up Watershed Inspector from a checkout: the system libraries Qt and the PDF tools need
# (Debian 12, Ubuntu 22.04 or newer), a virtual environment in .venv, and the app in it.
#
#   sh scripts/setup.sh                  the app
#   sh scripts/setup.sh --test           the app in editable form, with the test and lint
#                                        tools, and PostgreSQL with PostGIS for the tests
#   sh scripts/setup.sh --office-server  the app, and PostgreSQL with PostGIS for an office
#                                        database (docs/office-server.md)
#
# The options may be given together. The app itself never needs a PostgreSQL server (a
# laptop never does); this script installs one but starts none. Run it as root or as a
# user who may use sudo. Set INSPECTOR_SETUP_SKIP_APT=1 to skip the system packages when
# they are already installed (or on a system without apt-get).
set -eu
cd "$(dirname "$0")/.."

mode=app
postgresql=no
for option in "$@"; do
    case "$option" in
        --test) mode=test; postgresql=yes ;;
        --office-server) postgresql=yes ;;
        *) echo "scripts/setup.sh: unknown option '$option'; use no option, --test or" \
                "--office-server." >&2; exit 2 ;;
    esac
done

# Qt 6 (PySide6) loads these at start and for a real window (xcb); libcups2 lets the print
# dialog find printers; poppler-utils turns PDFs into pictures for the letter tests.
PACKAGES="python3-venv libglib2.0-0 libegl1 libgl1 libfontconfig1 libfreetype6 libdbus-1-3
 libx11-6 libx11-xcb1 libxkbcommon0 libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4
 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xfixes0
 libxcb-xinerama0 libxcb-xkb1 libcups2 poppler-utils"

# The oldest PostgreSQL the office database runs on (tests/pg_cluster.py checks the same).
PG_MAJOR_MIN=15

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
    if [ "$postgresql" = yes ]; then
        # The distribution's own PostgreSQL (the major version its `postgresql` package
        # depends on) and the PostGIS built for it: postgresql-NN-postgis-3.
        major=$(apt-cache depends postgresql 2>/dev/null |
                sed -n 's/^ *Depends: postgresql-\([0-9][0-9]*\)$/\1/p' | sort -n | tail -n 1)
        if [ -z "$major" ]; then
            echo "scripts/setup.sh: apt-get offers no PostgreSQL server package" \
                 "('postgresql'); install PostgreSQL $PG_MAJOR_MIN or newer with PostGIS 3" \
                 "by hand (docs/office-server.md)." >&2
            exit 2
        fi
        if [ "$major" -lt "$PG_MAJOR_MIN" ]; then
            echo "scripts/setup.sh: this system offers PostgreSQL $major, and the office" \
                 "database needs $PG_MAJOR_MIN or newer; add the PostgreSQL project's" \
                 "apt repository (apt.postgresql.org) and run this again." >&2
            exit 2
        fi
        echo "== PostgreSQL $major and PostGIS"
        $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends postgresql "postgresql-$major-postgis-3" >/dev/null
    fi
fi

echo "== the app in .venv"
python3 -m venv .venv
if [ "$mode" = test ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
else
    .venv/bin/python -m pip install -q --disable-pip-version-check .
fi
echo "== set up: .venv/bin/inspector-app is ready"
