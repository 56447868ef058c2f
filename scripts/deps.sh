#!/bin/sh
# deps.sh - installs the Debian packages tprof needs to build and test.
# As root it runs apt-get; otherwise it prints the exact command and stops.
# `deps.sh fuzz` also installs what the fuzz targets need (make fuzz).
set -u

# chromium: the HTML report's browser and screenshot tests (skipped without it)
PKGS="build-essential pkg-config libpcre2-dev libcsv-dev libxlsxwriter-dev libcriterion-dev zlib1g-dev gnuplot-nox unzip zsh libvectorscan-dev libsqlite3-dev libpq-dev postgresql chromium"
# Only for `make fuzz` (sh scripts/deps.sh fuzz): clang and libFuzzer's runtime.
FUZZ_PKGS="clang libclang-rt-dev"

for group in "$@"; do
	case $group in
	fuzz) PKGS="$PKGS $FUZZ_PKGS" ;;
	*) echo "deps: unknown package group '$group' (known: fuzz)" >&2; exit 2 ;;
	esac
done

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages:$missing (no apt-get here: install them with your package manager)" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run:  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || exit 1
apt-get install -y -qq --no-install-recommends $missing >/dev/null || exit 1
