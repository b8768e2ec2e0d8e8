#!/usr/bin/env bash
# Installs Tendril's build and test dependencies from Debian 12 packages.
# Skips apt-get entirely when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libeigen3-dev libyaml-cpp-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-numpy python3-yaml python3-cvxopt
  python3-matplotlib python3-vtk9 ffmpeg chromium nodejs  # viewer, plots, export, render
)
# npm ships with some nodejs builds (NodeSource); Debian's own nodejs needs the npm package
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
