# shellcheck shell=bash
# Sourced by scripts/pulumi-engine.sh and scripts/gen-sdk.sh: the one way this repository builds
# Go programs. The sourcing script defines GO_MIN and log() first.

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
