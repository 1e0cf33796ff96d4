#!/usr/bin/env bash
# Runs the README's two set-up commands on a Debian 12 machine that has nothing installed: a
# minimal root made with debootstrap from Debian's archive, entered with chroot. It catches an
# install step that a developer's machine hides because a package was once installed by hand.
#
#   scripts/fresh-machine-check.sh [--root DIR] [--keep] [--mirror URL] [--skip-tests]
#
# 1. debootstrap --variant=minbase bookworm into DIR (default: a new folder under /var/tmp);
# 2. a clone of this checkout's HEAD into DIR/root/lanebench;
# 3. inside the root: ./scripts/demo.sh, offscreen, which installs, builds and starts the
#    workbench; `--quit-when-shown` closes it once its window is on screen;
# 4. inside the root: CI=true ./scripts/test.sh, every test (skipped with --skip-tests).
# Each step's wall time goes to stderr and to DIR/fresh-machine-check.log. Needs root (chroot,
# mounts) and Debian's archive on the network. Exits non-zero at the first step that fails.
# The root is removed at the end unless --keep is given. docs/building.md has the last result.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
root_dir=""
keep=0
mirror="http://deb.debian.org/debian"
run_tests=1
while (($# > 0)); do
  case "$1" in
    --root) root_dir="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --mirror) mirror="$2"; shift 2 ;;
    --skip-tests) run_tests=0; shift ;;
    *) echo "fresh-machine-check: unknown argument \"$1\"" >&2; exit 2 ;;
  esac
done
if [[ $(id -u) -ne 0 ]]; then
  echo "fresh-machine-check: needs root (debootstrap, chroot and mounts)" >&2
  exit 2
fi
if [[ -z "$root_dir" ]]; then root_dir="$(mktemp -d /var/tmp/lanebench-fresh.XXXXXX)"; fi
mkdir -p "$root_dir"
if [[ -n "$(ls -A "$root_dir")" ]]; then
  echo "fresh-machine-check: $root_dir is not empty; give an empty or new folder" >&2
  exit 2
fi
log="$root_dir.log"
: >"$log"
say() { echo "fresh-machine-check: $*" | tee -a "$log" >&2; }

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  if ((keep == 0)); then rm -rf --one-file-system "$root_dir"; fi
}
trap cleanup EXIT

step() {  # name command...
  local start=$SECONDS rc=0
  say "$1: started"
  "${@:2}" >>"$log" 2>&1 || rc=$?
  say "$1: $( ((rc == 0)) && echo ok || echo "FAILED (exit $rc)") after $((SECONDS - start)) s"
  if ((rc != 0)); then
    tail -n 60 "$log" >&2
    say "the whole log: $log"
    exit 1
  fi
}

host_setup() {
  if ! command -v debootstrap >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
  fi
}

make_root() {
  debootstrap --variant=minbase bookworm "$root_dir" "$mirror"
  # The same suites as a Debian 12 machine: updates and security fixes too.
  cat >"$root_dir/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
  cp /etc/resolv.conf "$root_dir/etc/resolv.conf"
}

mount_into_root() {
  local what
  for what in proc sys dev dev/pts dev/shm; do
    mkdir -p "$root_dir/$what"
    mount --bind "/$what" "$root_dir/$what"
    mounted+=("$root_dir/$what")
  done
}

clone_checkout() {
  git clone --quiet --no-hardlinks "$src" "$root_dir/root/lanebench"
  say "checkout: $(git -C "$root_dir/root/lanebench" log -1 --format='%h %s')"
}

in_root() {  # command line, run by bash in the project folder inside the root
  chroot "$root_dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb CI=true /bin/bash -c "cd /root/lanebench && $1"
}

start=$SECONDS
say "root: $root_dir, log: $log"
step "host: debootstrap present" host_setup
step "debootstrap bookworm (minbase)" make_root
mount_into_root
step "clone HEAD" clone_checkout
# The first README command; offscreen, since the root has no display, and closed once shown.
step "README 1: ./scripts/demo.sh" in_root "QT_QPA_PLATFORM=offscreen ./scripts/demo.sh --quit-when-shown"
grep -q "lanebench: main window shown" "$log" || { say "the demo did not report its window"; exit 1; }
if ((run_tests == 1)); then
  step "README 2: ./scripts/test.sh" in_root "./scripts/test.sh"
fi
say "passed in $((SECONDS - start)) s"
