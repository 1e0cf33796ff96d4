#!/usr/bin/env bash
# Builds the Debian package (CPack DEB) from a build dir, after checking the desktop entry and
# AppStream metadata it installs. Prints the path of the .deb on the last line.
#   scripts/package.sh                  build the .deb
#   scripts/package.sh --install-check  also install it with apt, run the installed programs from
#                                       /usr/bin with no display, then remove it (CI; needs root
#                                       or sudo)
# LANEBENCH_BUILD_DIR: build dir (default ./build; configured here when it does not exist).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LANEBENCH_BUILD_DIR:-$root/build}"
desktop="$root/resources/desktop"
app_id=org.lanebench.LaneBench

# desktop-file-utils and appstream come with scripts/bootstrap.sh.
desktop-file-validate "$desktop/$app_id.desktop"
appstreamcli validate --no-net "$desktop/$app_id.metainfo.xml" >&2

# cpack runs the install step, which by default first builds every target (tests, benchmarks);
# the package holds only the three programs, built here.
if [[ -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >/dev/null
else
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >/dev/null
fi
programs=(lanebench-cli lanebench-sim)
if grep -q '^LANEBENCH_BUILD_GUI:BOOL=ON' "$build/CMakeCache.txt"; then programs+=(lanebench); fi
cmake --build "$build" --parallel "$(nproc)" --target "${programs[@]}" >&2
rm -f "$build"/package/lanebench_*.deb
(cd "$build" && cpack -G DEB --config CPackConfig.cmake >&2)
deb="$(ls "$build"/package/lanebench_*.deb)"
dpkg-deb --info "$deb" >&2

if [[ "${1:-}" == "--install-check" ]]; then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  # A lanebench already installed on this machine is someone's: upgrade it, but do not remove it.
  installed_before=false
  if dpkg-query -W -f='${Status}' lanebench 2>/dev/null | grep -q "install ok installed"; then
    installed_before=true
  fi
  remove() {
    if ! $installed_before; then
      DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get remove -y -qq lanebench >/dev/null
    fi
  }
  trap remove EXIT
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "$deb" >&2
  "$root/scripts/package_check.sh" "${programs[@]}" >&2
fi
echo "$deb"
