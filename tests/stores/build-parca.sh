#!/usr/bin/env bash
# build-parca.sh DIR builds Parca's server from the Go module proxy into
# DIR/parca, for the opt-in Parca test of store/ (make test-stores PARCA=1).
# Nothing of it is committed. The build takes 5-6 minutes on 2 cores and
# about 4 GB of modules. A binary already in DIR is kept.
#
# The module is copied out of the module cache and built in place: go
# install pkg@version needs the proxy's version list, which not every proxy
# serves. -checklinkname=0: parquet-go links to runtime internals that Go
# 1.23 and later refuse by default.
set -euo pipefail
VERSION=v0.21.0
dir=${1:?usage: build-parca.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -x "$dir/parca" ] && [ "$(cat "$dir/VERSION" 2>/dev/null)" = "$VERSION" ]; then
  echo "parca $VERSION already built in $dir"; exit 0
fi
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
src=$(go mod download -json "github.com/parca-dev/parca@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "build-parca: the module proxy did not give github.com/parca-dev/parca@$VERSION" >&2; exit 1; }
rm -rf "$dir/src" && cp -r "$src" "$dir/src" && chmod -R u+w "$dir/src"
cd "$dir/src"
start=$(date +%s)
go build -ldflags=-checklinkname=0 -o "$dir/parca.tmp" ./cmd/parca
mv "$dir/parca.tmp" "$dir/parca"
echo "$VERSION" > "$dir/VERSION"
rm -rf "$dir/src"
echo "built parca $VERSION into $dir in $(( $(date +%s) - start ))s"
