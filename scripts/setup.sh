#!/usr/bin/env bash
# Installs Tendril's build and test dependencies from Debian 12 packages.
# Skips apt-get entirely when everything is already installed. Also makes the Python module importable
# by the system python3: a tendril.pth in its site-packages lists python/ and build/release/python
# (where the release build puts the _tendril extension; docs/python.md).
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libeigen3-dev libyaml-cpp-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-numpy python3-yaml python3-cvxopt
  python3-matplotlib python3-vtk9 ffmpeg chromium nodejs  # viewer, plots, export, render
  python3-dev pybind11-dev python3-pytest python3-scipy python3-pandas python3-distributed  # Python module
  universal-ctags clang-format  # scripts/check_function_length.py, check_format.py (tests/style)
  coinor-libipopt-dev  # IPOPT: the vine joint state and parameter estimation (src/tendril/fit)
  clang libclang-rt-14-dev  # the fuzzers (preset fuzz: libFuzzer, ASan, UBSan; scripts/fuzz.sh)
)
# npm ships with some nodejs builds (NodeSource); Debian's own nodejs needs the npm package
command -v npm >/dev/null 2>&1 || packages+=(npm)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

install_pth() {
  local repo site pth
  repo="$(cd "$(dirname "$0")/.." && pwd)"
  site="$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])')"
  pth="$(printf '%s\n%s\n' "$repo/python" "$repo/build/release/python")"
  if [ "$(cat "$site/tendril.pth" 2>/dev/null)" != "$pth" ]; then
    echo "setup: $site/tendril.pth -> $repo/python, $repo/build/release/python"
    $sudo mkdir -p "$site"
    printf '%s\n' "$pth" | $sudo tee "$site/tendril.pth" >/dev/null
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  install_pth
  exit 0
fi

echo "setup: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
install_pth
