# shellcheck shell=bash
# Sourced by scripts/pulumi-engine.sh and scripts/gen-sdk.sh: the one way this repository builds
# Go programs (environment, scratch directory, build, lock of the build cache). The sourcing script defines GO_MIN and log() first.

version_ge() { # version_ge A B: A >= B (dotted numbers)
  [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1) == "$2" ]]
}

go_env_ready=0
# Module-only build: no VCS stamping (the repository may have no commits), go.sum is
# authoritative, no go.work from a parent directory, no cgo/C compiler; a Go older than GO_MIN
# may fetch a newer toolchain. Idempotent.
setup_go_env() {
  [[ $go_env_ready == 0 ]] || return 0
  go_env_ready=1
  local gov
  gov=$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null) || gov=
  gov=${gov#go}
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

# go_build MODULE_DIR PACKAGE OUTPUT [VERSION_VAR=VALUE]
go_build() {
  local mod_dir=$1 pkg=$2 out=$3 xdef=${4:-} t
  t=$SECONDS
  log "downloading Go modules for $(basename "$out") ($(basename "$mod_dir")) ..."
  # Load the package graph instead of `go mod download`: the latter also asks
  # the proxy for .info files, which it refuses for some pseudo-versions
  # (e.g. gocloud.dev), while .mod/.zip (all a build needs) are served.
  (cd "$mod_dir" && go list -deps "$pkg" >/dev/null) >&2
  log "  download took $((SECONDS - t))s"
  t=$SECONDS
  log "compiling $pkg ..."
  (cd "$mod_dir" && go build -trimpath -ldflags "-s -w${xdef:+ -X $xdef}" -o "$out" "$pkg") >&2
  log "  compile took $((SECONDS - t))s ($(du -h "$out" | cut -f1))"
}

# lock_build_root DIR WHAT: serialize concurrent builds into DIR on DIR/.lock (file descriptor 9,
# held until the script exits or closes it); holding it, any leftover DIR/.build-* is from a
# killed run and is removed.
lock_build_root() {
  mkdir -p "$1"
  command -v flock >/dev/null 2>&1 || return 0
  exec 9>"$1/.lock"
  if ! flock -n 9; then
    log "waiting for another $2 (lock $1/.lock) ..."
    flock 9
  fi
  rm -rf "$1"/.build-*
}

# relocate_venv FROM TO: a virtualenv built in FROM is about to be renamed to TO; its scripts in
# bin/ (pip, activate, ...) name FROM: point them at TO. Binary files are left alone.
relocate_venv() {
  "$1/bin/python" - "$1" "$2" <<'PY'
import os, sys
old, new = sys.argv[1].encode(), sys.argv[2].encode()
bindir = os.path.join(sys.argv[1], "bin")
for name in os.listdir(bindir):
    p = os.path.join(bindir, name)
    if os.path.islink(p) or not os.path.isfile(p):
        continue
    with open(p, "rb") as f:
        data = f.read()
    if old in data and b"\0" not in data:
        with open(p, "wb") as f:
            f.write(data.replace(old, new))
PY
}
