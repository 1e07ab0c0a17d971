#!/usr/bin/env bash
# Builds the SDK generator plugin (main.go says why it exists) once, into `sdkgen/` of the CLI's cache folder, as
# `pulumi-language-python` and `pulumi-language-go`: a folder of its own, put on PATH only for `pulumi package gen-sdk`.
# Prints the folder; prints nothing and exits 0 where Go is missing (the SDK checks are then skipped with the reason).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
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
