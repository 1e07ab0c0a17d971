#!/usr/bin/env bash
# Builds the real Pulumi CLI and its language hosts (Node.js, Python, Go, YAML) from the Go module proxy into a cache
# folder keyed by the CLI's and the Node.js host's versions, once; later runs reuse it (Go's module and build caches
# are kept too). Prints the folder, which holds `pulumi`, `pulumi-language-*` and `pulumi-resource-pulumi-nodejs` as
# Pulumi's release archives do; prints nothing and exits 0 where Go is missing, so the tests that need the CLI are
# skipped with the reason instead of failing.
#
# Versions: the CLI is the one go.mod beside this file requires; the hosts the ones language-hosts/ (Node.js, Python),
# go-host/ and yaml-host/ require (why each is older than the CLI is written in its go.mod). A host whose version
# changes is built again (its version is kept in `.<name>.version` beside it). Flags as Pulumi's releases build them (.goreleaser.yml and scripts/go-wrapper.sh in
# pulumi/pulumi): CGO off, -trimpath, tags osusergo,grpcnotrace, and the version stamped into
# sdk/v3/go/common/version (without it `pulumi version` is empty).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
required() { awk -v m="$2" '$1 == m { print $2 }' "$1"; }
cli=$(required "$here/go.mod" github.com/pulumi/pulumi/pkg/v3)
host=$(required "$here/language-hosts/go.mod" github.com/pulumi/pulumi/sdk/v3)
goHost=$(required "$here/go-host/go.mod" github.com/pulumi/pulumi/sdk/v3)
yamlHost=$(required "$here/yaml-host/go.mod" github.com/pulumi/pulumi-yaml)
[ -n "$cli" ] && [ -n "$host" ] && [ -n "$goHost" ] && [ -n "$yamlHost" ] || { echo "tools/pulumi-cli: a go.mod requires no pulumi version" >&2; exit 1; }
dir="${BUNNYNET_PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bunnynet-pulumi/pulumi-cli}/${cli}_nodejs-${host}"

# The dynamic-provider plugin ships in the Node SDK's package; Pulumi's release archives put it beside `pulumi`, where
# the engine looks after PATH (it warns when it finds a bundled plugin on PATH instead). The script only starts
# `node` on the SDK's cmd/dynamic-provider as resolved from the program's folder, so one copy serves every SDK version.
besideCli() {
  local plugin="$here/../../node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  if [ -f "$plugin" ] && ! cmp -s "$plugin" "$dir/pulumi-resource-pulumi-nodejs"; then
    cp "$plugin" "$dir/pulumi-resource-pulumi-nodejs.partial" && chmod 0755 "$dir/pulumi-resource-pulumi-nodejs.partial"
    mv "$dir/pulumi-resource-pulumi-nodejs.partial" "$dir/pulumi-resource-pulumi-nodejs"
  fi
}

# build <module folder> <package> <version> <binary name> [<version variable>]: renamed into place only once whole, so an interrupted build
# never leaves a binary that looks ready.
build() {
  echo "tools/pulumi-cli: building $4 $3 (cold: a few minutes on 2 cores; cached after)" >&2
  local start
  start=$(date +%s)
  (cd "$1" && CGO_ENABLED=0 go build -trimpath -tags osusergo,grpcnotrace \
    -ldflags "-X ${5:-github.com/pulumi/pulumi/sdk/v3/go/common/version.Version}=$3" -o "$dir/$4.partial" "$2")
  mv "$dir/$4.partial" "$dir/$4"
  echo "tools/pulumi-cli: built $4 $3 in $(( $(date +%s) - start )) s" >&2
}

# The Python host runs programs through this shim, which it looks for beside itself (on PATH).
pythonShim() {
  local shim
  shim="$(cd "$here/language-hosts" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec"
  cp "$shim" "$dir/pulumi-language-python-exec.partial" && chmod 0755 "$dir/pulumi-language-python-exec.partial"
  mv "$dir/pulumi-language-python-exec.partial" "$dir/pulumi-language-python-exec"
}

# host <module folder> <package> <version> <binary name> [<version variable>]: builds the host unless the one there has that version.
host() {
  [ -x "$dir/$4" ] && [ "$(cat "$dir/.$4.version" 2>/dev/null)" = "$3" ] && return 0
  build "$@"
  echo "$3" > "$dir/.$4.version"
}

ready() {
  [ -x "$dir/pulumi" ] && "$dir/pulumi" version >/dev/null 2>&1 && [ -x "$dir/pulumi-language-python-exec" ] || return 1
  local name version
  for pair in "pulumi-language-nodejs:$host" "pulumi-language-python:$host" "pulumi-language-go:$goHost" "pulumi-language-yaml:$yamlHost"; do
    name=${pair%%:*} version=${pair#*:}
    [ -x "$dir/$name" ] && [ "$(cat "$dir/.$name.version" 2>/dev/null)" = "$version" ] || return 1
  done
}
if ! ready; then
  if ! command -v go >/dev/null 2>&1; then
    echo "tools/pulumi-cli: go is not on PATH; the tests that need the Pulumi CLI will be skipped" >&2
    exit 0
  fi
  mkdir -p "$dir"
  [ -x "$dir/pulumi" ] || build "$here" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$cli" pulumi
  # The Node.js host built before hosts kept their version: it is the one language-hosts/go.mod names (the folder's key).
  [ -x "$dir/pulumi-language-nodejs" ] && [ ! -f "$dir/.pulumi-language-nodejs.version" ] && echo "$host" > "$dir/.pulumi-language-nodejs.version"
  host "$here/language-hosts" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs "$host" pulumi-language-nodejs
  host "$here/language-hosts" github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python "$host" pulumi-language-python
  host "$here/go-host" github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go "$goHost" pulumi-language-go
  host "$here/yaml-host" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml "$yamlHost" pulumi-language-yaml github.com/pulumi/pulumi-yaml/pkg/version.Version
  pythonShim
fi
besideCli
echo "$dir"
