# Shared by scripts/demo and scripts/check: the repository root, messages, and installing missing
# Debian packages (apt-get, as root or through sudo, only for packages that are not installed).
# shellcheck shell=bash disable=SC2034

GPUPLAN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="$(nproc 2>/dev/null || echo 2)"

say() { printf '\n==> [%d s] %s\n' "$SECONDS" "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# ensure_debian_packages PKG...: installs those of PKG that dpkg does not list as installed.
ensure_debian_packages() {
  local missing=() p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
      missing+=("$p")
    fi
  done
  ((${#missing[@]} == 0)) && return 0
  command -v apt-get >/dev/null 2>&1 ||
    die "missing packages: ${missing[*]}; this script installs them with apt-get (Debian 12), which is not here"
  local run=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 ||
      die "missing packages: ${missing[*]}; run as root, or install them: apt-get install ${missing[*]}"
    run=(sudo)
  fi
  say "installing Debian packages: ${missing[*]}"
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
}
