#!/usr/bin/env bash
# Builds the real Pulumi CLI from the Go module proxy into a cache folder keyed by its version, once; later runs
# reuse it (Go's module and build caches are kept too). Prints the folder holding `pulumi`; prints nothing and exits 0
# where Go is missing, so the real-engine tests are skipped with the reason instead of failing the run.
#
# The version is the one go.mod beside this file requires. Flags as Pulumi's releases build it (.goreleaser.yml and
# scripts/go-wrapper.sh in pulumi/pulumi): CGO off, -trimpath, tags osusergo,grpcnotrace, and the version stamped
# into sdk/v3/go/common/version (without it `pulumi version` is empty).
#
# The Node.js language host (module github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is not built:
# the module proxy these machines reach answers 403 "This module version is not available" for every version of it
# (as for the Python and Go hosts). Programs run through the engine's "client" runtime instead, served by the Node SDK's
# own language server: tests/support/sdkLanguageServer.ts says how.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version=$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2 }' "$here/go.mod")
[ -n "$version" ] || { echo "tools/pulumi-cli/go.mod requires no github.com/pulumi/pulumi/pkg/v3" >&2; exit 1; }
dir="${BUNNYNET_PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bunnynet-pulumi/pulumi-cli}/$version"
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
if [ -x "$dir/pulumi" ] && "$dir/pulumi" version >/dev/null 2>&1; then
  besideCli
  echo "$dir"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "tools/pulumi-cli: go is not on PATH; the real-engine tests will be skipped" >&2
  exit 0
fi
echo "tools/pulumi-cli: building pulumi $version (cold: about 4 minutes on 2 cores with the modules downloaded; cached after)" >&2
mkdir -p "$dir"
start=$(date +%s)
(cd "$here" && CGO_ENABLED=0 go build -trimpath -tags osusergo,grpcnotrace \
  -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version" \
  -o "$dir/pulumi.partial" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
# Renamed only once whole: an interrupted build never leaves a binary that looks ready.
mv "$dir/pulumi.partial" "$dir/pulumi"
besideCli
echo "tools/pulumi-cli: built $("$dir/pulumi" version) in $(( $(date +%s) - start )) s" >&2
echo "$dir"
