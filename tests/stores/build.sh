#!/usr/bin/env bash
# build.sh pyroscope|parca DIR builds a profile store's server from the Go
# module proxy into DIR/NAME, for the store tests of store/ and
# tests/stores/fleet. Nothing of it is committed: proflens only talks to
# the binary over HTTP (Pyroscope's server is AGPL-3.0). A binary of the
# same version already in DIR is kept (make clean removes it).
#
# The module is copied out of the module cache and built in place, because
# go install pkg@version cannot build either here: it needs the proxy's
# version list (which this proxy refuses), and Pyroscope's go.mod has
# replace directives, ./api among them, a separate module absent from the
# zip, which is pointed at the published api module instead. Parca needs
# -checklinkname=0 with Go 1.23 and later: parquet-go links to runtime
# internals the linker refuses by default.
#
# Cost on 2 cores: Pyroscope v1.12.0 about 4 minutes from cold caches,
# 30 s with warm ones; Parca v0.21.0 5-6 minutes and 4 GB of modules.
set -euo pipefail
name=${1:?usage: build.sh pyroscope|parca DIR}
dir=${2:?usage: build.sh pyroscope|parca DIR}
case $name in
  pyroscope) module=github.com/grafana/pyroscope VERSION=v1.12.0 ldflags= ;;
  parca) module=github.com/parca-dev/parca VERSION=v0.21.0 ldflags=-checklinkname=0 ;;
  *) echo "build.sh: no store named $name (pyroscope or parca)" >&2; exit 2 ;;
esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -x "$dir/$name" ] && [ "$(cat "$dir/VERSION" 2>/dev/null)" = "$VERSION" ]; then
  echo "$name $VERSION already built in $dir"; exit 0
fi
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
src=$(go mod download -json "$module@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "build.sh: the module proxy did not give $module@$VERSION" >&2; exit 1; }
rm -rf "$dir/src" && cp -r "$src" "$dir/src" && chmod -R u+w "$dir/src"
cd "$dir/src"
rm -f go.work go.work.sum
if [ "$name" = pyroscope ]; then
  sed -i 's#github.com/grafana/pyroscope/api => ./api#github.com/grafana/pyroscope/api => github.com/grafana/pyroscope/api v1.1.0#' go.mod
fi
start=$(date +%s)
go build -mod=mod -ldflags="$ldflags" -o "$dir/$name.tmp" "./cmd/$name"
mv "$dir/$name.tmp" "$dir/$name"
echo "$VERSION" > "$dir/VERSION"
rm -rf "$dir/src"
echo "built $name $VERSION into $dir in $(( $(date +%s) - start ))s"
