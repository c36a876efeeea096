#!/usr/bin/env bash
# build-pyroscope.sh DIR builds Grafana Pyroscope's server from the Go module
# proxy into DIR/pyroscope (the store the integration test of store/ runs).
# Nothing of it is committed: Pyroscope is AGPL-3.0 and proflens only talks to
# the binary over HTTP. A binary already in DIR is kept (make clean removes it).
#
# go install pkg@version cannot build it: the module's go.mod has replace
# directives (./api among them, which is a separate module absent from the
# zip), so the source is copied and ./api pointed at the published api module.
set -euo pipefail
VERSION=v1.12.0
API=v1.1.0
dir=${1:?usage: build-pyroscope.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -x "$dir/pyroscope" ] && [ "$(cat "$dir/VERSION" 2>/dev/null)" = "$VERSION" ]; then
  echo "pyroscope $VERSION already built in $dir"; exit 0
fi
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
src=$(go mod download -json "github.com/grafana/pyroscope@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "build-pyroscope: the module proxy did not give github.com/grafana/pyroscope@$VERSION" >&2; exit 1; }
rm -rf "$dir/src" && cp -r "$src" "$dir/src" && chmod -R u+w "$dir/src"
cd "$dir/src"
rm -f go.work go.work.sum
sed -i "s#github.com/grafana/pyroscope/api => ./api#github.com/grafana/pyroscope/api => github.com/grafana/pyroscope/api $API#" go.mod
start=$(date +%s)
go build -mod=mod -o "$dir/pyroscope.tmp" ./cmd/pyroscope
mv "$dir/pyroscope.tmp" "$dir/pyroscope"
echo "$VERSION" > "$dir/VERSION"
rm -rf "$dir/src"
echo "built pyroscope $VERSION into $dir in $(( $(date +%s) - start ))s"
