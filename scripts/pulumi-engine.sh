#!/usr/bin/env bash
# Prints (alone on stdout) the folder of an offline Pulumi engine: the CLI, the nodejs, yaml and
# python language hosts, `pulumi-python` (Python with the pulumi SDK in a virtualenv: Python
# programs set PULUMI_PYTHON_CMD to it) and the dynamic providers' `pulumi-resource-pulumi-nodejs`.
# Taken from, in order: `pulumi` on PATH (unless PULUMI_ENGINE_IGNORE_PATH=1), in a shim folder
# with whatever it lacks; a complete cached build in <cache>/engine/<version>/bin; a build from Go
# modules (about 8 to 10 minutes on 2 cores, once), renamed into place so that none is ever partial.
#   <cache> = ${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
set -euo pipefail

for arg in "$@"; do
  case "$arg" in
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) echo "pulumi-engine: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

start_s=$SECONDS
log() { printf 'pulumi-engine: %s\n' "$*" >&2; }

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
tools_dir=$(cd "$script_dir/../tools/pulumi-engine" && pwd -P)
# shellcheck source=scripts/go-env.sh
source "$script_dir/go-env.sh"

# Each version from its one place (CONTRIBUTING.md, "Versions and times").
ENGINE_VERSION=$(go_mod_require "$tools_dir/cli/go.mod" github.com/pulumi/pulumi/pkg/v3)
# The newest sdk/v3 that still holds the nodejs and python language hosts' commands.
LANGHOST_SDK_VERSION=$(go_mod_require "$tools_dir/langhost/go.mod" github.com/pulumi/pulumi/sdk/v3)
# The newest github.com/pulumi/pulumi-yaml the Go proxy serves.
YAML_VERSION=$(go_mod_require "$tools_dir/yaml/go.mod" github.com/pulumi/pulumi-yaml)
GO_MIN=$(go_mod_min "$tools_dir"/*/go.mod)
# The pulumi Python SDK: PyPI does not have every CLI version, so the newest release it serves.
versions=$(versions_json python.min python.pulumiSdk engine.firstBuildMinutes)
{ read -r PYTHON_MIN; read -r PYTHON_SDK_VERSION; read -r first_build_minutes; } <<<"$versions"
readonly ENGINE_VERSION LANGHOST_SDK_VERSION YAML_VERSION GO_MIN PYTHON_MIN PYTHON_SDK_VERSION first_build_minutes
# The pulumi SDK, and what sdk/python's pyproject.toml needs.
readonly PYTHON_PACKAGES="pulumi==$PYTHON_SDK_VERSION parver==0.5 semver==3.0.4"
python_stamp=".packages-$(printf '%s' "$PYTHON_PACKAGES" | cksum | cut -d' ' -f1)"
readonly python_stamp

engine_root=$cache_root/engine
engine_dir=$engine_root/$ENGINE_VERSION
langhost_dir=$engine_root/langhost-$LANGHOST_SDK_VERSION
yaml_dir=$engine_root/yaml-$YAML_VERSION
python_dir=$engine_root/python-$PYTHON_SDK_VERSION
venv_dir=$python_dir/venv
shim_dir=$engine_root/path-shim

readonly HOSTS=(pulumi-language-nodejs pulumi-language-yaml pulumi-language-python)

# `pulumi version` without update checks or a login.
pulumi_version() {
  PULUMI_SKIP_UPDATE_CHECK=true "$1" version 2>/dev/null | tr -d '\r' | head -n1
}

finish() {
  local dir=$1 ver=$2
  log "engine: $dir (pulumi $ver); provisioning took $((SECONDS - start_s))s"
  log "Python programs: PULUMI_PYTHON_CMD=$dir/pulumi-python"
  [[ -x $dir/pulumi-resource-pulumi-nodejs ]] ||
    log "hint: dynamic resources also need <project>/node_modules/@pulumi/pulumi on PATH (pulumi-resource-pulumi-nodejs)"
  printf '%s\n' "$dir"
  exit 0
}

write_executable() { # DIR NAME: stdin into DIR/NAME, atomically
  local tmp_file
  tmp_file=$(mktemp "$1/.$2.XXXXXX")
  cat >"$tmp_file"
  chmod 755 "$tmp_file"
  mv -f "$tmp_file" "$1/$2"
}

# The wrapper official Pulumi installs ship beside `pulumi` (there, the engine loads it as bundled).
write_dynamic_provider_wrapper() { # DIR
  write_executable "$1" pulumi-resource-pulumi-nodejs <<'WRAPPER'
#!/bin/sh
# Pulumi plugin for dynamic resources: runs the dynamic provider of the
# @pulumi/pulumi package that node resolves from the current directory or NODE_PATH.
script=$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))") || exit 1
exec node "$script" "$@"
WRAPPER
}

# A script rather than a symlink: Python finds its virtualenv from the path it is started as.
python_wrapper() {
  printf '%s\n' '#!/bin/sh' \
    "# Python with the pulumi SDK $PYTHON_SDK_VERSION (a virtualenv made by scripts/pulumi-engine.sh)." \
    '# Python programs: PULUMI_PYTHON_CMD=<this file>.' \
    "exec '${venv_dir//\'/\'\\\'\'}/bin/python' \"\$@\""
}

venv_valid() { [[ -x $venv_dir/bin/python && -f $venv_dir/$python_stamp ]]; }

python_wrapper_valid() { # DIR: its pulumi-python runs this virtualenv's Python
  [[ -x $1/pulumi-python ]] && grep -qxF "$(python_wrapper | tail -n1)" "$1/pulumi-python"
}

have_host() { # DIR NAME: NAME (and, for the Python host, its -exec script) in DIR
  [[ -x $1/$2 ]] || return 1
  [[ $2 != pulumi-language-python || -x $1/pulumi-language-python-exec ]]
}

cache_valid() {
  local h
  for h in "${HOSTS[@]}"; do have_host "$engine_dir/bin" "$h" || return 1; done
  venv_valid && python_wrapper_valid "$engine_dir/bin" && [[ -x $engine_dir/bin/pulumi ]] &&
    [[ $(pulumi_version "$engine_dir/bin/pulumi") == "$ENGINE_VERSION" ]]
}

use_cache() {
  [[ -x $engine_dir/bin/pulumi-resource-pulumi-nodejs ]] || write_dynamic_provider_wrapper "$engine_dir/bin"
  finish "$engine_dir/bin" "$ENGINE_VERSION"
}

readonly SDK_VERSION_VAR=github.com/pulumi/pulumi/sdk/v3/go/common/version.Version

build_host_into() { # DIR NAME
  local dir=$1 name=$2 pkg src
  case $name in
    pulumi-language-nodejs)
      go_build "$tools_dir/langhost" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs \
        "$dir/$name" "$SDK_VERSION_VAR=$LANGHOST_SDK_VERSION" ;;
    pulumi-language-yaml)
      go_build "$tools_dir/yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml \
        "$dir/$name" "github.com/pulumi/pulumi-yaml/pkg/version.Version=$YAML_VERSION" ;;
    pulumi-language-python)
      pkg=github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
      go_build "$tools_dir/langhost" "$pkg" "$dir/$name" "$SDK_VERSION_VAR=$LANGHOST_SDK_VERSION"
      # The host runs programs through this script, found beside its own executable.
      src=$(cd "$tools_dir/langhost" && go list -f '{{.Dir}}' "$pkg")/../pulumi-language-python-exec
      cp "$src" "$dir/pulumi-language-python-exec"
      chmod 755 "$dir/pulumi-language-python-exec" ;;
  esac
}

need_go() { # WHAT
  command -v go >/dev/null 2>&1 && return 0
  log "cannot provision the Pulumi engine $ENGINE_VERSION: $1 is missing and there is no \`go\` to build it."
  log "Install Go $GO_MIN or newer (https://go.dev/dl/) and rerun, or install the Pulumi CLI (https://www.pulumi.com/docs/install/)."
  exit 1
}

# Concurrent callers (parallel test workers) wait for one another.
take_lock() { lock_build_root "$engine_root" "provisioning run"; }

# install_hosts DIR NAME...: builds the hosts DIR lacks and renames them in, the Python host
# after its -exec script (a present host means a complete pair).
install_hosts() {
  local dir=$1 name tmp missing=()
  shift
  for name in "$@"; do have_host "$dir" "$name" || missing+=("$name"); done
  ((${#missing[@]})) || return 0
  need_go "${missing[*]}"
  take_lock
  local todo=()
  for name in "${missing[@]}"; do have_host "$dir" "$name" || todo+=("$name"); done # built meanwhile?
  ((${#todo[@]})) || return 0
  log "building ${todo[*]} into $dir ..."
  setup_go_env
  tmp=$(mktemp -d "$engine_root/.build-hosts.XXXXXX"); tmp_dirs+=("$tmp")
  use_gotmpdir "$tmp"
  for name in "${todo[@]}"; do build_host_into "$tmp/bin" "$name"; done
  mkdir -p "$dir"
  for name in "${todo[@]}"; do
    [[ $name != pulumi-language-python ]] || mv -f "$tmp/bin/pulumi-language-python-exec" "$dir/"
    mv -f "$tmp/bin/$name" "$dir/"
  done
  rm -rf "$tmp"
}

ensure_venv() {
  venv_valid && return 0
  take_lock
  venv_valid && return 0 # made meanwhile
  local tmp t=$SECONDS
  tmp=$(mktemp -d "$engine_root/.build-python.XXXXXX"); tmp_dirs+=("$tmp")
  make_venv "$tmp/venv" "$PYTHON_PACKAGES"
  log "  venv and pip install took $((SECONDS - t))s ($(du -sh "$tmp/venv" | cut -f1))"
  "$tmp/venv/bin/python" -c 'import pulumi, pulumi.runtime' >&2
  relocate_venv "$tmp/venv" "$venv_dir"
  : >"$tmp/venv/$python_stamp"
  chmod 755 "$tmp"
  rm -rf "$python_dir"
  mv -T "$tmp" "$python_dir"
}

# A language host for the shim: beside the PATH pulumi, else on PATH, else in the cached engine.
find_host() { # NAME
  local c d
  for c in "$path_dir/$1" "$(command -v "$1" 2>/dev/null || true)" "$engine_dir/bin/$1"; do
    [[ -n $c && -x $c ]] || continue
    c=$(readlink -f "$c")
    d=$(dirname "$c")
    have_host "$d" "$1" && { printf '%s\n' "$c"; return 0; }
  done
  return 1
}

if [[ ${PULUMI_ENGINE_IGNORE_PATH:-0} != 1 ]] && path_pulumi=$(command -v pulumi 2>/dev/null); then
  path_pulumi=$(readlink -f "$path_pulumi")
  path_ver=$(pulumi_version "$path_pulumi" || true)
  if [[ -z $path_ver ]]; then
    log "ignoring $path_pulumi on PATH: \`pulumi version\` failed"
  else
    [[ $path_ver == "$ENGINE_VERSION" ]] || log "note: using pulumi $path_ver from PATH (pinned engine is $ENGINE_VERSION)"
    path_dir=$(dirname "$path_pulumi")
    complete=1
    for h in "${HOSTS[@]}"; do have_host "$path_dir" "$h" || complete=0; done
    [[ $complete == 1 ]] && venv_valid && python_wrapper_valid "$path_dir" && finish "$path_dir" "$path_ver"
    mkdir -p "$shim_dir/bin"
    for h in "${HOSTS[@]}"; do
      if ! target=$(find_host "$h"); then
        d=$langhost_dir/bin
        [[ $h != pulumi-language-yaml ]] || d=$yaml_dir/bin
        log "no $h next to the PATH pulumi; using $d"
        install_hosts "$d" "$h"
        target=$d/$h
      fi
      ln -sfn "$target" "$shim_dir/bin/$h"
    done
    ensure_venv
    python_wrapper_valid "$shim_dir/bin" || python_wrapper | write_executable "$shim_dir/bin" pulumi-python
    # A hard link makes pulumi take the shim folder as its own (no "using ... from $PATH" warning).
    ln -f "$path_pulumi" "$shim_dir/bin/pulumi" 2>/dev/null || ln -sfn "$path_pulumi" "$shim_dir/bin/pulumi"
    if [[ -x $path_dir/pulumi-resource-pulumi-nodejs ]]; then
      ln -sfn "$path_dir/pulumi-resource-pulumi-nodejs" "$shim_dir/bin/pulumi-resource-pulumi-nodejs"
    else
      write_dynamic_provider_wrapper "$shim_dir/bin"
    fi
    finish "$shim_dir/bin" "$path_ver"
  fi
fi

cache_valid && use_cache

need_go "the Pulumi CLI"
take_lock
cache_valid && use_cache # built by a concurrent run

log "building the Pulumi engine $ENGINE_VERSION from Go modules (first run only, about $first_build_minutes minutes on 2 cores)..."
ensure_venv
setup_go_env
tmp=$(mktemp -d "$engine_root/.build-$ENGINE_VERSION.XXXXXX"); tmp_dirs+=("$tmp")
use_gotmpdir "$tmp"
for h in "${HOSTS[@]}"; do build_host_into "$tmp/bin" "$h"; done
go_build "$tools_dir/cli" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$tmp/bin/pulumi" "$SDK_VERSION_VAR=$ENGINE_VERSION"

got=$(pulumi_version "$tmp/bin/pulumi" || true)
if [[ $got != "$ENGINE_VERSION" ]]; then
  log "error: built pulumi reports version '${got}', expected $ENGINE_VERSION"
  exit 1
fi
write_dynamic_provider_wrapper "$tmp/bin"
python_wrapper | write_executable "$tmp/bin" pulumi-python
rm -rf "$tmp/gotmp"
chmod 755 "$tmp"

rm -rf "$engine_dir"
mv -T "$tmp" "$engine_dir"
finish "$engine_dir/bin" "$got"
