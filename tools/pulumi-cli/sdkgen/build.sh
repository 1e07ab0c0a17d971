#!/usr/bin/env bash
# Builds the SDK generator plugin (main.go says why it exists) once, into `sdkgen/` of the CLI's cache folder, as
# `pulumi-language-python` and `pulumi-language-go`: a folder of its own, put on PATH only for `pulumi package gen-sdk`.
# Prints the folder; prints nothing and exits 0 where Go is missing (the SDK checks are then skipped with the reason).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# The generator must be the CLI's own: the same pkg/v3 in both go.mod files (bump them together).
required() { awk -v m="$2" '$1 == m { print $2 }' "$1"; }
cli_version=$(required "$here/../go.mod" github.com/pulumi/pulumi/pkg/v3)
own_version=$(required "$here/go.mod" github.com/pulumi/pulumi/pkg/v3)
if [ "$cli_version" != "$own_version" ]; then
  echo "tools/pulumi-cli/sdkgen: go.mod requires pkg/v3 $own_version but the CLI is $cli_version: set the same version (and go mod tidy) in tools/pulumi-cli/sdkgen/go.mod" >&2
  exit 1
fi
cli_dir="$(bash "$here/../build.sh")"
[ -n "$cli_dir" ] || exit 0
dir="$cli_dir/sdkgen"
if ! [ -x "$dir/pulumi-language-python" ] || ! [ -x "$dir/pulumi-language-go" ] || [ "$here/main.go" -nt "$dir/pulumi-language-python" ]; then
  echo "tools/pulumi-cli/sdkgen: building the SDK generator plugin (cold: a few minutes on 2 cores)" >&2
  mkdir -p "$dir"
  (cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$dir/pulumi-language-python.partial" .)
  cp "$dir/pulumi-language-python.partial" "$dir/pulumi-language-go.partial"
  mv "$dir/pulumi-language-go.partial" "$dir/pulumi-language-go"
  mv "$dir/pulumi-language-python.partial" "$dir/pulumi-language-python"
fi
echo "$dir"
