#!/usr/bin/env bash
# Installs the Debian 12 packages relax needs, when they are missing. Safe to run repeatedly.
# Usage: scripts/setup.sh            (uses sudo when not root)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  llvm-19-dev
  libtree-sitter-dev
  nlohmann-json3-dev
  libuv1-dev
  catch2
  libdlpack-dev
  libcli11-dev
  libtomlplusplus-dev
  libjemalloc-dev
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libffi-dev
  # the fuzz preset (scripts/fuzz.sh): clang 19 and its libFuzzer and sanitizer runtimes
  clang-19 libclang-rt-19-dev
  # the Neovim plugin's headless test (tests/editors/nvim)
  neovim
)
# The VS Code extension (editors/vscode) and the formatter's oracle need Node.js and npm: from
# Debian when the machine has none of its own.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

# npm packages, pinned by their lockfiles, once Node.js is there: ruff's WebAssembly build (the
# formatter's differential test and benchmark) and the VS Code extension's dependencies (its
# `npm test`, tests/editors).
install_npm_packages() {
  command -v npm >/dev/null 2>&1 || return 0
  local root oracle ruff_pin ruff_have vscode
  root="$(cd "$(dirname "$0")/.." && pwd)"
  oracle="$root/tools/ruff-oracle"
  ruff_pin=$(grep -o '"@astral-sh/ruff-wasm-nodejs": "[^"]*"' "$oracle/package.json" | cut -d'"' -f4)
  ruff_have=$(grep -so '"version": "[^"]*"' "$oracle/node_modules/@astral-sh/ruff-wasm-nodejs/package.json" |
    cut -d'"' -f4 || true)
  if [[ "$ruff_have" != "$ruff_pin" ]]; then
    (cd "$oracle" && npm ci --no-audit --no-fund --loglevel=error) ||
      echo "setup: npm ci in tools/ruff-oracle failed; the ruff differential test will skip itself" >&2
  fi
  vscode="$root/editors/vscode"
  if [[ ! -f "$vscode/node_modules/.package-lock.json" ||
        "$vscode/package-lock.json" -nt "$vscode/node_modules/.package-lock.json" ]]; then
    (cd "$vscode" && npm ci --no-audit --no-fund --loglevel=error) ||
      echo "setup: npm ci in editors/vscode failed; its npm test will fail" >&2
  fi
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all packages present"
  install_npm_packages
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq || echo "setup: apt-get update failed; trying with the current package lists" >&2
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_npm_packages
