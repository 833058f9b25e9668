#!/usr/bin/env bash
# Provision a Pulumi engine (CLI + Node.js language host) that works offline.
#
# stdout: ONLY the absolute path of a directory containing the executables
#         `pulumi` and `pulumi-language-nodejs` (and, except when taken as-is
#         from PATH, `pulumi-resource-pulumi-nodejs`). Everything else: stderr.
#
# Resolution order:
#   (a) `pulumi` on PATH (skipped when PULUMI_ENGINE_IGNORE_PATH=1):
#       - if `pulumi-language-nodejs` sits in the same directory (as in every
#         official Pulumi install), that directory is printed;
#       - otherwise a shim directory  <cache>/engine/path-shim/bin  is printed,
#         holding a hard link (else a symlink) to the PATH `pulumi`, a symlink
#         to a language host (the one on PATH, else the cached one, else one
#         built from Go modules into <cache>/engine/langhost-v3.65.0) and the
#         dynamic-provider wrapper.
#   (b) a cached build in <cache>/engine/v3.259.0/bin whose `pulumi version`
#       prints v3.259.0 is reused.
#   (c) with `go` available, both binaries are built from Go modules into a
#       temporary directory next to the cache and renamed into place, so an
#       interrupted build never leaves a partial cache.
#   (d) otherwise: exit 1 with installation instructions.
#
#   <cache> = ${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
#
# Dynamic resources need `pulumi-resource-pulumi-nodejs`. Official Pulumi installs
# ship it next to `pulumi`; for the cached engine this script writes the same
# small wrapper next to `pulumi` (bundled location, so the engine prints no
# "using ... from $PATH" warning). The copy in node_modules/@pulumi/pulumi works
# too when that folder is put on PATH. Either wrapper runs the dynamic provider
# of the @pulumi/pulumi package that `node` resolves from the engine's current
# directory (a folder program's directory; for inline Automation API programs,
# the Node process's cwd) or from NODE_PATH.
#
# Options:
#   --build   ignore PATH and a valid cache; rebuild the cached engine.
#   --help    show this header.
set -euo pipefail

readonly ENGINE_VERSION=v3.259.0
# The stand-alone language host module is not served by the Go proxy; sdk/v3 at
# this version still contains nodejs/cmd/pulumi-language-nodejs.
readonly LANGHOST_SDK_VERSION=v3.65.0
# Minimum Go: the go directive of github.com/pulumi/pulumi/pkg/v3 v3.259.0.
readonly GO_MIN=1.25.11

force_build=0
for arg in "$@"; do
  case "$arg" in
    --build) force_build=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) echo "pulumi-engine: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

start_s=$SECONDS
log() { printf 'pulumi-engine: %s\n' "$*" >&2; }
elapsed() { echo "$((SECONDS - start_s))"; }

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
tools_dir=$(cd "$script_dir/../tools/pulumi-engine" && pwd -P)
cache_root=${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
engine_root=$cache_root/engine
engine_dir=$engine_root/$ENGINE_VERSION
langhost_dir=$engine_root/langhost-$LANGHOST_SDK_VERSION
shim_dir=$engine_root/path-shim

# `pulumi version` without update checks or a login.
pulumi_version() {
  PULUMI_SKIP_UPDATE_CHECK=true "$1" version 2>/dev/null | tr -d '\r' | head -n1
}

finish() {
  local dir=$1 ver=${2:-}
  [[ -n $ver ]] || ver=$(pulumi_version "$dir/pulumi" || true)
  log "engine: $dir (pulumi $ver); provisioning took $(elapsed)s"
  [[ -x $dir/pulumi-resource-pulumi-nodejs ]] ||
    log "hint: dynamic resources also need <project>/node_modules/@pulumi/pulumi on PATH (pulumi-resource-pulumi-nodejs)"
  printf '%s\n' "$dir"
  exit 0
}

# Same behaviour as the `pulumi-resource-pulumi-nodejs` wrapper shipped in the
# @pulumi/pulumi npm package and in official Pulumi installs.
write_dynamic_provider_wrapper() { # DIR (written atomically)
  local tmp_file
  tmp_file=$(mktemp "$1/.pulumi-resource-pulumi-nodejs.XXXXXX")
  cat >"$tmp_file" <<'WRAPPER'
#!/bin/sh
# Pulumi plugin for dynamic resources: runs the dynamic provider of the
# @pulumi/pulumi package that node resolves from the current directory or NODE_PATH.
script=$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))") || exit 1
exec node "$script" "$@"
WRAPPER
  chmod 755 "$tmp_file"
  mv -f "$tmp_file" "$1/pulumi-resource-pulumi-nodejs"
}

cache_valid() {
  [[ -x $engine_dir/bin/pulumi && -x $engine_dir/bin/pulumi-language-nodejs ]] || return 1
  [[ $(pulumi_version "$engine_dir/bin/pulumi") == "$ENGINE_VERSION" ]]
}

use_cache() {
  [[ -x $engine_dir/bin/pulumi-resource-pulumi-nodejs ]] || write_dynamic_provider_wrapper "$engine_dir/bin"
  finish "$engine_dir/bin" "$ENGINE_VERSION"
}

# ---- Go build helpers -------------------------------------------------------

tmp_dirs=()
cleanup() { local d; for d in "${tmp_dirs[@]+"${tmp_dirs[@]}"}"; do rm -rf "$d"; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

version_ge() { # version_ge A B: A >= B (dotted numbers)
  [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1) == "$2" ]]
}

setup_go_env() {
  local gov
  gov=$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null) || gov=
  gov=${gov#go}
  # Module-only build: no VCS stamping (the repository may have no commits),
  # go.sum is authoritative, no go.work from a parent directory, no cgo/C compiler.
  export GOFLAGS="-mod=readonly -buildvcs=false${GOFLAGS:+ $GOFLAGS}"
  export GOWORK=off
  export CGO_ENABLED=0
  if [[ -z ${GOTOOLCHAIN:-} ]]; then
    if [[ -n $gov ]] && version_ge "$gov" "$GO_MIN"; then
      export GOTOOLCHAIN=local
    else
      log "go ${gov:-?} is older than $GO_MIN; letting go fetch a newer toolchain (GOTOOLCHAIN=auto)"
      export GOTOOLCHAIN=auto
    fi
  fi
  log "using $(go version) (GOMODCACHE=$(go env GOMODCACHE), GOTOOLCHAIN=$GOTOOLCHAIN)"
}

# Keep go's scratch files inside the build directory, so that they are removed
# with it even when a build is killed.
use_gotmpdir() { # BUILD_DIR
  mkdir -p "$1/bin" "$1/gotmp"
  export GOTMPDIR=$1/gotmp
}

# go_build MODULE_DIR PACKAGE OUTPUT VERSION
go_build() {
  local mod_dir=$1 pkg=$2 out=$3 ver=$4 t
  t=$SECONDS
  log "downloading Go modules for $(basename "$mod_dir") ..."
  # Load the package graph instead of `go mod download`: the latter also asks
  # the proxy for .info files, which it refuses for some pseudo-versions
  # (e.g. gocloud.dev), while .mod/.zip (all a build needs) are served.
  (cd "$mod_dir" && go list -deps "$pkg" >/dev/null) >&2
  log "  download took $((SECONDS - t))s"
  t=$SECONDS
  log "compiling $pkg ..."
  (cd "$mod_dir" && go build -trimpath \
      -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$ver" \
      -o "$out" "$pkg") >&2
  log "  compile took $((SECONDS - t))s ($(du -h "$out" | cut -f1))"
}

build_langhost_into() { # DIR
  go_build "$tools_dir/langhost" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs \
    "$1/pulumi-language-nodejs" "$LANGHOST_SDK_VERSION"
}

need_go() {
  command -v go >/dev/null 2>&1 && return 0
  cat >&2 <<EOF
pulumi-engine: cannot provision the Pulumi engine $ENGINE_VERSION:
  no \`pulumi\` (with \`pulumi-language-nodejs\`) on PATH, no cached build in
  $engine_dir/bin, and no \`go\` to build one.
Either
  - install the Pulumi CLI: https://www.pulumi.com/docs/install/
    (then make sure \`pulumi\` and \`pulumi-language-nodejs\` are on PATH), or
  - install Go $GO_MIN or newer (https://go.dev/dl/; older Go works if it may
    download a newer toolchain) and rerun this script.
EOF
  exit 1
}

# Serialize concurrent callers (e.g. parallel test workers) on a lock file.
take_lock() {
  mkdir -p "$engine_root"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$engine_root/.lock"
    if ! flock -n 9; then
      log "waiting for another provisioning run (lock $engine_root/.lock) ..."
      flock 9
    fi
    # Holding the lock, any leftover build directory is from a killed run.
    rm -rf "$engine_root"/.build-*
  fi
}

# ---- (a) PATH ---------------------------------------------------------------

if [[ ${PULUMI_ENGINE_IGNORE_PATH:-0} != 1 && $force_build == 0 ]] && path_pulumi=$(command -v pulumi 2>/dev/null); then
  path_pulumi=$(readlink -f "$path_pulumi")
  path_ver=$(pulumi_version "$path_pulumi" || true)
  if [[ -z $path_ver ]]; then
    log "ignoring $path_pulumi on PATH: \`pulumi version\` failed"
  else
    [[ $path_ver == "$ENGINE_VERSION" ]] || log "note: using pulumi $path_ver from PATH (pinned engine is $ENGINE_VERSION)"
    path_dir=$(dirname "$path_pulumi")
    if [[ -x $path_dir/pulumi-language-nodejs ]]; then
      finish "$path_dir" "$path_ver"
    fi
    # Language host missing next to pulumi: build a shim directory.
    if lh=$(command -v pulumi-language-nodejs 2>/dev/null); then
      lh=$(readlink -f "$lh")
    elif cache_valid; then
      lh=$engine_dir/bin/pulumi-language-nodejs
    else
      take_lock
      if [[ ! -x $langhost_dir/bin/pulumi-language-nodejs ]]; then
        need_go
        log "pulumi on PATH has no pulumi-language-nodejs next to it; building the language host ($LANGHOST_SDK_VERSION) ..."
        setup_go_env
        tmp=$(mktemp -d "$engine_root/.build-langhost.XXXXXX"); tmp_dirs+=("$tmp")
        use_gotmpdir "$tmp"
        build_langhost_into "$tmp/bin"
        rm -rf "$tmp/gotmp"
        chmod 755 "$tmp"
        rm -rf "$langhost_dir"
        mv -T "$tmp" "$langhost_dir"
      fi
      lh=$langhost_dir/bin/pulumi-language-nodejs
    fi
    mkdir -p "$shim_dir/bin"
    # A hard link (when on the same file system) makes pulumi see the shim
    # directory as its own, so it loads the plugins there as bundled ones
    # instead of warning "using ... from $PATH".
    ln -f "$path_pulumi" "$shim_dir/bin/pulumi" 2>/dev/null || ln -sfn "$path_pulumi" "$shim_dir/bin/pulumi"
    ln -sfn "$lh" "$shim_dir/bin/pulumi-language-nodejs"
    if [[ -x $path_dir/pulumi-resource-pulumi-nodejs ]]; then
      ln -sfn "$path_dir/pulumi-resource-pulumi-nodejs" "$shim_dir/bin/pulumi-resource-pulumi-nodejs"
    else
      write_dynamic_provider_wrapper "$shim_dir/bin"
    fi
    finish "$shim_dir/bin" "$path_ver"
  fi
fi

# ---- (b) cache --------------------------------------------------------------

if [[ $force_build == 0 ]] && cache_valid; then
  use_cache
fi

# ---- (c) build from Go modules ----------------------------------------------

need_go
take_lock
if [[ $force_build == 0 ]] && cache_valid; then # built by a concurrent run
  use_cache
fi

log "building the Pulumi engine $ENGINE_VERSION from Go modules (first run only, about 5-7 minutes on 2 cores)..."
setup_go_env
tmp=$(mktemp -d "$engine_root/.build-$ENGINE_VERSION.XXXXXX"); tmp_dirs+=("$tmp")
use_gotmpdir "$tmp"
build_langhost_into "$tmp/bin"
go_build "$tools_dir/cli" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$tmp/bin/pulumi" "$ENGINE_VERSION"

got=$(pulumi_version "$tmp/bin/pulumi" || true)
if [[ $got != "$ENGINE_VERSION" ]]; then
  log "error: built pulumi reports version '${got}', expected $ENGINE_VERSION"
  exit 1
fi
log "pulumi version: $got"
write_dynamic_provider_wrapper "$tmp/bin"
rm -rf "$tmp/gotmp"
chmod 755 "$tmp"

rm -rf "$engine_dir"
mv -T "$tmp" "$engine_dir"
finish "$engine_dir/bin" "$got"
