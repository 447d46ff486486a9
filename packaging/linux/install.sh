#!/bin/sh
# Install this Plyground build for the current user, or system-wide with PREFIX=/usr/local.
#   ./install.sh               program in ~/.local/lib/plyground, command ~/.local/bin/plyground,
#                              menu entry and icons in ~/.local/share
#   ./install.sh --uninstall   remove exactly what the install put there
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-$HOME/.local}
PROGRAM_DIR="$PREFIX/lib/plyground"
SIZES="16 24 32 48 64 128 256"

uninstall() {
    rm -f "$PREFIX/bin/plyground" "$PREFIX/share/applications/plyground.desktop" \
          "$PREFIX/share/icons/hicolor/scalable/apps/plyground.svg"
    for size in $SIZES; do rm -f "$PREFIX/share/icons/hicolor/${size}x${size}/apps/plyground.png"; done
    rm -rf "$PROGRAM_DIR"
}

refresh_caches() {
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$PREFIX/share/applications" || true
    command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$PREFIX/share/icons/hicolor" || true
}

if [ "${1:-}" = "--uninstall" ]; then
    uninstall
    refresh_caches
    echo "Plyground removed from $PREFIX"
    exit 0
fi
if [ ! -x "$HERE/plyground" ]; then
    echo "install.sh: run it from the unpacked Plyground folder (no plyground executable in $HERE)" >&2
    exit 1
fi
uninstall
mkdir -p "$PROGRAM_DIR" "$PREFIX/bin" "$PREFIX/share/applications"
cp -a "$HERE/." "$PROGRAM_DIR/"
rm -rf "$PROGRAM_DIR/share" "$PROGRAM_DIR/install.sh"
ln -s "$PROGRAM_DIR/plyground" "$PREFIX/bin/plyground"
sed "s|^Exec=plyground|Exec=$PROGRAM_DIR/plyground|" "$HERE/share/applications/plyground.desktop" \
    > "$PREFIX/share/applications/plyground.desktop"
cp -a "$HERE/share/icons" "$PREFIX/share/"
refresh_caches
echo "Plyground installed: $PREFIX/bin/plyground, with a menu entry"
