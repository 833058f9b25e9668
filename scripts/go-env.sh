# shellcheck shell=bash
# Sourced by pulumi-engine.sh, gen-sdk.sh and release.sh: how this repository builds Go programs
# and virtualenvs, and where the versions they need are read (go_mod_min, go_mod_require,
# versions_json: each version has one place, see CONTRIBUTING.md, "Versions and times").
# The sourcing script defines log() first, and GO_MIN or PYTHON_MIN before the functions use them.

cache_root=${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
[[ $cache_root == /* ]] || cache_root=$PWD/$cache_root

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

# printed_or_die WHAT VALUE: prints VALUE, or exits saying there is no WHAT.
printed_or_die() { [[ -n $2 ]] || { log "error: $1"; exit 1; }; printf '%s\n' "$2"; }
# go_mod_min GO.MOD...: the highest `go` line among them, the oldest Go that builds them all.
go_mod_min() { printed_or_die "no go line in $*" "$(awk '$1 == "go" && NF == 2 { print $2 }' "$@" | sort -V | tail -n1)"; }
# go_mod_require GO.MOD MODULE: the version of MODULE that GO.MOD requires.
go_mod_require() {
  printed_or_die "$1 requires no $2" \
    "$(awk -v m="$2" '$1 == "require" && $2 == m { print $3; exit } $1 == m && $2 ~ /^v/ { print $2; exit }' "$1")"
}

# versions_json KEY...: the values of KEYs (dotted paths) in versions.json, one a line.
versions_json() {
  command -v node >/dev/null 2>&1 || { log "error: reading $repo_root/versions.json needs node"; exit 1; }
  # shellcheck disable=SC2016 # JavaScript, not shell
  node -e '
    const [file, ...keys] = process.argv.slice(1);
    for (const key of keys) {
      const v = key.split(".").reduce((o, k) => o?.[k], require(file));
      if (typeof v !== "string" && typeof v !== "number") {
        console.error(`${file}: no ${key}`);
        process.exit(1);
      }
      console.log(v);
    }' "$repo_root/versions.json" "$@"
}

# Temporary directories, removed on exit.
tmp_dirs=()
# shellcheck disable=SC2329 # called by the EXIT trap
cleanup() { local d; for d in "${tmp_dirs[@]+"${tmp_dirs[@]}"}"; do rm -rf "$d"; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

version_ge() { # version_ge A B: A >= B (dotted numbers)
  [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1) == "$2" ]]
}

# make_venv DIR PACKAGES: a virtualenv in DIR with PACKAGES (requirements), made by
# $PULUMI_ENGINE_PYTHON or python3, which must be Python PYTHON_MIN or newer.
make_venv() {
  local py=${PULUMI_ENGINE_PYTHON:-python3} v
  v=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || v=
  if ! version_ge "$v" "$PYTHON_MIN"; then
    log "error: \`$py\` is missing or older than Python $PYTHON_MIN: install one (with venv), or set PULUMI_ENGINE_PYTHON"
    exit 1
  fi
  log "making the virtualenv $1 ($2, $("$py" --version 2>&1)) ..."
  "$py" -m venv "$1" >&2
  # shellcheck disable=SC2086 # a list of requirements
  "$1/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off -q $2 >&2
}

go_env_ready=0
# Module-only builds, no VCS stamping, go.work or cgo; a Go older than GO_MIN may fetch a newer toolchain.
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

# Go's scratch files inside the build directory: removed with it even when a build is killed.
use_gotmpdir() { # BUILD_DIR
  mkdir -p "$1/bin" "$1/gotmp"
  export GOTMPDIR=$1/gotmp
}

# go_build MODULE_DIR PACKAGE OUTPUT [VERSION_VAR=VALUE]
go_build() {
  local mod_dir=$1 pkg=$2 out=$3 xdef=${4:-} t=$SECONDS
  log "downloading Go modules for $(basename "$out") ($(basename "$mod_dir")) ..."
  # Not `go mod download`: it asks for .info files the proxy refuses for some pseudo-versions.
  (cd "$mod_dir" && go list -deps "$pkg" >/dev/null) >&2
  log "  download took $((SECONDS - t))s; compiling $pkg ..."
  t=$SECONDS
  (cd "$mod_dir" && go build -trimpath -ldflags "-s -w${xdef:+ -X $xdef}" -o "$out" "$pkg") >&2
  log "  compile took $((SECONDS - t))s ($(du -h "$out" | cut -f1))"
}

# lock_build_root DIR WHAT: one build into DIR at a time (DIR/.lock on descriptor 9, held until
# exit or closed; taken once); then any DIR/.build-* left is a killed run's, removed.
lock_build_root() {
  [[ ${locked_root:-} != "$1" ]] || return 0
  locked_root=$1
  mkdir -p "$1"
  command -v flock >/dev/null 2>&1 || return 0
  exec 9>"$1/.lock"
  if ! flock -n 9; then
    log "waiting for another $2 (lock $1/.lock) ..."
    flock 9
  fi
  rm -rf "$1"/.build-*
}

# relocate_venv FROM TO: the scripts in bin/ of a virtualenv built in FROM, to be renamed TO, name TO.
relocate_venv() {
  "$1/bin/python" - "$1" "$2" <<'PY'
import pathlib, sys
old, new = sys.argv[1].encode(), sys.argv[2].encode()
for p in pathlib.Path(sys.argv[1], "bin").iterdir():
    data = b"" if p.is_symlink() or not p.is_file() else p.read_bytes()
    if old in data and b"\0" not in data:
        p.write_bytes(data.replace(old, new))
PY
}
