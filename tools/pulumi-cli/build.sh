#!/usr/bin/env bash
# Builds the real Pulumi CLI and its Node.js language host from the Go module proxy into a cache folder keyed by their
# versions, once; later runs reuse it (Go's module and build caches are kept too). Prints the folder, which holds
# `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs` as Pulumi's release archives do; prints nothing
# and exits 0 where Go is missing, so the tests that need the CLI are skipped with the reason instead of failing.
#
# Versions: the CLI is the one go.mod beside this file requires; the host the one nodejs-host/go.mod requires (why it
# is older is written there). Flags as Pulumi's releases build them (.goreleaser.yml and scripts/go-wrapper.sh in
# pulumi/pulumi): CGO off, -trimpath, tags osusergo,grpcnotrace, and the version stamped into
# sdk/v3/go/common/version (without it `pulumi version` is empty).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
required() { awk -v m="$2" '$1 == m { print $2 }' "$1"; }
cli=$(required "$here/go.mod" github.com/pulumi/pulumi/pkg/v3)
host=$(required "$here/nodejs-host/go.mod" github.com/pulumi/pulumi/sdk/v3)
[ -n "$cli" ] && [ -n "$host" ] || { echo "tools/pulumi-cli: a go.mod requires no pulumi version" >&2; exit 1; }
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

# build <module folder> <package> <version> <binary name>: renamed into place only once whole, so an interrupted build
# never leaves a binary that looks ready.
build() {
  echo "tools/pulumi-cli: building $4 $3 (cold: a few minutes on 2 cores; cached after)" >&2
  local start
  start=$(date +%s)
  (cd "$1" && CGO_ENABLED=0 go build -trimpath -tags osusergo,grpcnotrace \
    -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$3" -o "$dir/$4.partial" "$2")
  mv "$dir/$4.partial" "$dir/$4"
  echo "tools/pulumi-cli: built $4 $3 in $(( $(date +%s) - start )) s" >&2
}

ready() { [ -x "$dir/pulumi" ] && [ -x "$dir/pulumi-language-nodejs" ] && "$dir/pulumi" version >/dev/null 2>&1; }
if ! ready; then
  if ! command -v go >/dev/null 2>&1; then
    echo "tools/pulumi-cli: go is not on PATH; the tests that need the Pulumi CLI will be skipped" >&2
    exit 0
  fi
  mkdir -p "$dir"
  [ -x "$dir/pulumi" ] || build "$here" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$cli" pulumi
  [ -x "$dir/pulumi-language-nodejs" ] || build "$here/nodejs-host" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs "$host" pulumi-language-nodejs
fi
besideCli
echo "$dir"
