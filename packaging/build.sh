#!/usr/bin/env bash
# Build the standalone executable and check it the way a user runs it.
#   bash packaging/build.sh             one-dir build in dist/plyground/   (make package)
#   bash packaging/build.sh --onefile   one file in dist/onefile/plyground (make package ONEFILE=1)
#   bash packaging/build.sh --release   one-dir build + dist/plyground-<version>-linux-<arch>.tar.gz
#                                       and the matching source archive    (make release)
#   --no-strip                          keep the bundled libraries' symbols (default: strip them;
#                                       145 -> 120 MB, mostly libpython's debug info)
# Checks (packaging/check_frozen.py): the app's self-test offscreen with spawn workers of the
# frozen executable and nothing left running, the bundled font with no system fonts, the CLI,
# the licence files; then the one-dir size limit.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.venv/bin"
SIZE_LIMIT_MB=150
ONEFILE=0; STRIP=1; RELEASE=0
for arg in "$@"; do
    case "$arg" in
        --onefile) ONEFILE=1 ;;
        --no-strip) STRIP=0 ;;
        --release) RELEASE=1 ;;
        *) echo "build.sh: unknown option $arg (use --onefile, --no-strip, --release)" >&2; exit 2 ;;
    esac
done
if [ "$ONEFILE" = 1 ] && [ "$RELEASE" = 1 ]; then
    echo "build.sh: a release archives the one-dir build; build --onefile separately" >&2; exit 2
fi

# The build host must have every library the bundle should carry (xcb included: a missing one
# is silently left out), and PyInstaller itself.
bash "$ROOT/.ci/qt-system-libs" --xcb
"$BIN/python" -c "import PyInstaller" 2>/dev/null || "$BIN/python" -m pip install -q -e '.[package]'

if [ "$ONEFILE" = 1 ]; then DIST="$ROOT/dist/onefile"; WORK="$ROOT/build/pyinstaller-onefile"
else DIST="$ROOT/dist"; WORK="$ROOT/build/pyinstaller"; fi
LOG="$ROOT/build/pyinstaller.log"
mkdir -p "$ROOT/build"
started=$(date +%s)
PLYGROUND_ONEFILE=$ONEFILE PLYGROUND_STRIP=$STRIP "$BIN/pyinstaller" --noconfirm --clean \
    --distpath "$DIST" --workpath "$WORK" packaging/plyground.spec > "$LOG" 2>&1 || {
    tail -30 "$LOG" >&2; echo "build.sh: PyInstaller failed (log: $LOG)" >&2; exit 1; }
echo "build took $(( $(date +%s) - started )) s (log: build/pyinstaller.log)"
grep -E "WARNING: (Library not found|no licence|no dpkg)|ERROR" "$LOG" || true
# A host library PyInstaller could not find is missing from the bundle (notes: libxcb-icccm,
# libxcb-keysyms); only the gtk3 platform theme's, whose plugin we drop, are expected.
if grep "Library not found" "$LOG" | grep -v -E "gtk|gdk|atk|cairo|pango"; then
    echo "build.sh: libraries missing from the bundle (install them on the build host)" >&2
    exit 1
fi

if [ "$ONEFILE" = 1 ]; then EXE="$DIST/plyground"; else EXE="$DIST/plyground/plyground"; fi
"$BIN/python" packaging/check_frozen.py "$EXE" --screenshot "$ROOT/build/self-test.png"
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate packaging/linux/plyground.desktop && echo "ok  desktop-file-validate"
fi

size_mb=$(( $(du -sb "$EXE" | cut -f1) / 1000000 ))
if [ "$ONEFILE" = 1 ]; then
    echo "one-file executable: $size_mb MB ($EXE)"
else
    size_mb=$(( $(du -sb "$DIST/plyground" | cut -f1) / 1000000 ))
    echo "one-dir build: $size_mb MB ($DIST/plyground)"
    if [ "$size_mb" -ge "$SIZE_LIMIT_MB" ]; then
        echo "build.sh: the one-dir build is $size_mb MB, over the $SIZE_LIMIT_MB MB limit" >&2; exit 1
    fi
fi

if [ "$RELEASE" = 1 ]; then
    version=$("$BIN/python" -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])")
    name="plyground-$version-linux-$(uname -m)"
    rm -f "$ROOT/dist/$name.tar.gz"
    tar -C "$DIST" --transform "s|^plyground|$name|" -czf "$ROOT/dist/$name.tar.gz" plyground
    # The GPL's corresponding source travels with the binary: the committed tree of this build.
    if ! git diff --quiet HEAD 2>/dev/null; then
        echo "build.sh: warning: uncommitted changes are in the binary but not in the source archive" >&2
    fi
    git archive --format=tar.gz --prefix="plyground-$version/" -o "$ROOT/dist/plyground-$version-source.tar.gz" HEAD
    (cd "$ROOT/dist" && sha256sum "$name.tar.gz" "plyground-$version-source.tar.gz" > "plyground-$version.sha256")
    ls -l "$ROOT/dist/$name.tar.gz" "$ROOT/dist/plyground-$version-source.tar.gz"
fi
