#!/usr/bin/env bash
# Builds the acceptance tests of bunny.net's Terraform provider (internal/provider, a Go test binary) from the source
# beside the repository (../shared/peers/terraform-provider-bunnynet, MPL-2.0, unmodified) into a cache folder keyed
# by a hash of that source, once; later runs reuse it (and Go's module and build caches). The source is copied into
# the cache folder first: it is never built in place, nor copied into this repository. Prints the test binary's path;
# prints nothing and exits 0 where the source or Go is missing (the reason on stderr), so the test that runs the suite
# is skipped with the reason instead of failing.
#
# Go fetches the provider's dependencies from the module proxy (it refuses the provider's own module, hence the copy).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="${BUNNYNET_TERRAFORM_PROVIDER_SOURCE:-$here/../../../shared/peers/terraform-provider-bunnynet}"
if [ ! -f "$source_dir/go.mod" ]; then
  echo "tools/terraform-judge: no Terraform provider source at $source_dir" >&2
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "tools/terraform-judge: Go is not on PATH" >&2
  exit 0
fi
source_dir="$(cd "$source_dir" && pwd)"
# The hash of every file's content and name: a changed source is a new folder, never a stale binary.
hash=$(cd "$source_dir" && find . -type f -not -path './.git/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
dir="${BUNNYNET_TERRAFORM_JUDGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bunnynet-pulumi/terraform-judge}/$hash"
binary="$dir/provider.test"
if [ ! -x "$binary" ]; then
  echo "tools/terraform-judge: building the Terraform provider's acceptance tests (cold: a few minutes on 2 cores; cached after)" >&2
  start=$(date +%s)
  rm -rf "$dir/source"
  mkdir -p "$dir"
  cp -R "$source_dir" "$dir/source"
  # -p 2: the machines that run this are shared; the binary is renamed into place only once whole.
  (cd "$dir/source" && go test -p 2 -c -o "$binary.partial" ./internal/provider)
  mv "$binary.partial" "$binary"
  echo "tools/terraform-judge: built in $(( $(date +%s) - start )) s" >&2
fi
echo "$binary"
