#!/usr/bin/env bash
# Headless test of the Neovim plugin (editors/nvim) with the real language server.
#
#   tests/editors/nvim/run.sh RELAX_BINARY PARSER_SO
#
# Runs `nvim --headless -u NONE -i NONE` (no user configuration) with editors/nvim on the
# runtimepath, RELAX_BINARY's directory first on PATH and PARSER_SO as parser/relax.so of a
# temporary runtimepath directory, on copies of the examples and fixtures in a temporary
# directory (nothing in the repository is modified). NVIM=... picks another nvim.
# Prints each check's result; exits non-zero on any failure. Bounded: at most 60 s.
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 RELAX_BINARY PARSER_SO" >&2
  exit 2
fi
nvim_bin=${NVIM:-nvim}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
relax_bin=$(realpath "$1") || exit 2
parser_so=$(realpath "$2") || exit 2
for f in "$relax_bin" "$parser_so"; do
  if [ ! -f "$f" ]; then
    echo "FAIL setup: $f does not exist" >&2
    exit 2
  fi
done
if ! command -v "$nvim_bin" >/dev/null; then
  echo "FAIL setup: $nvim_bin not found" >&2
  exit 2
fi

tmp=$(realpath "$(mktemp -d)")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/rtp/parser" "$tmp/work/proj/sub" "$tmp/bin" "$tmp/home"
cp "$parser_so" "$tmp/rtp/parser/relax.so"
cp "$root"/examples/*.relax "$here"/fixtures/*.relax "$tmp/work/"
touch "$tmp/work/proj/relax.toml"
cp "$here/fixtures/small.relax" "$tmp/work/proj/sub/nested.relax"
# The plugin runs `relax lsp`: make sure that name is the binary under test.
if [ "$(basename "$relax_bin")" != relax ]; then
  ln -s "$relax_bin" "$tmp/bin/relax"
fi

# Keep Neovim's state (LSP log, swap, shada) out of the real home directory.
export HOME="$tmp/home"
export XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share"
export XDG_STATE_HOME="$tmp/home/.local/state" XDG_CACHE_HOME="$tmp/home/.cache"
export PATH="$tmp/bin:$(dirname "$relax_bin"):$PATH"
export RELAX_TEST_WORK="$tmp/work" RELAX_TEST_BINARY="$relax_bin"

# rtp^= prepends: the temporary parser directory ends up before editors/nvim (whose own
# parser/relax.so, when built, would otherwise be found first).
timeout -k 5 60 "$nvim_bin" --headless -u NONE -i NONE -n \
  --cmd "set rtp^=$root/editors/nvim" --cmd "set rtp^=$tmp/rtp" \
  -c 'filetype plugin on' -c 'runtime! plugin/relax.lua' \
  -c "luafile $here/test.lua" </dev/null
rc=$?
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
  echo "FAIL timeout: nvim ran over 60 s" >&2
fi
if [ $rc -ne 0 ]; then
  echo "nvim plugin test: FAILED (exit $rc)" >&2
  exit 1
fi
echo "nvim plugin test: all checks passed"
