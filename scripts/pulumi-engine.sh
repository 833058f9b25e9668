#!/usr/bin/env bash
# Provision a Pulumi engine (CLI + Node.js, YAML and Python language hosts)
# that works offline.
#
# stdout: ONLY the absolute path of a directory containing the executables
#           pulumi                          the CLI (v3.274.1 when built here)
#           pulumi-language-nodejs          Node.js language host
#           pulumi-language-yaml            YAML language host (pulumi-yaml v1.11.0 when built here)
#           pulumi-language-python          Python language host (sdk v3.65.0 when built here)
#           pulumi-language-python-exec     its program runner, next to the real host binary
#           pulumi-python                   the Python of a virtualenv holding the `pulumi`
#                                           Python SDK 3.272.0 (shell wrapper, see below)
#         and, except when taken as-is from PATH, `pulumi-resource-pulumi-nodejs`.
#         Everything else (logs, with the time each piece took): stderr.
#
# Python programs: the Python host built here (sdk v3.65.0) ignores
# `runtime.options.virtualenv` as the engine passes it and runs `python3` from
# PATH unless PULUMI_PYTHON_CMD is set. Callers running Python programs set
#     PULUMI_PYTHON_CMD=<dir>/pulumi-python
# which runs  <cache>/engine/python-3.272.0/venv/bin/python  (a virtualenv made
# with `python3` >= 3.10, or $PULUMI_ENGINE_PYTHON, and `pip install
# pulumi==3.272.0` from PyPI). Programs needing more packages install them into
# that virtualenv or use their own interpreter in PULUMI_PYTHON_CMD.
# YAML programs (`runtime: yaml`) need nothing besides the directory on PATH.
#
# Resolution order:
#   (a) `pulumi` on PATH (skipped when PULUMI_ENGINE_IGNORE_PATH=1):
#       - if all the executables above sit in the same directory (e.g. PATH
#         already holds a directory printed by this script), it is printed;
#       - otherwise (e.g. an official Pulumi install, which has no
#         `pulumi-python`) a shim directory  <cache>/engine/path-shim/bin  is
#         printed, holding a hard link (else a symlink) to the PATH `pulumi`,
#         symlinks to language hosts (the one next to the PATH `pulumi`, else
#         the one on PATH, else the cached engine's, else one built from Go
#         modules into <cache>/engine/langhost-v3.65.0/bin (nodejs, python) or
#         <cache>/engine/yaml-v1.11.0/bin), `pulumi-python` and the
#         dynamic-provider wrapper.
#   (b) a cached build in <cache>/engine/v3.274.1/bin whose `pulumi version`
#       prints v3.274.1 and that holds all the executables above (and the
#       virtualenv) is reused. When only the CLI and the Node.js host are there
#       (a cache made before the YAML/Python pieces existed), only the missing
#       pieces are built and added.
#   (c) with `go` available, the binaries are built from Go modules into a
#       temporary directory next to the cache and renamed into place, so an
#       interrupted build never leaves a partial cache (pieces added to an
#       existing directory are renamed in one file at a time; the virtualenv
#       is built in a temporary directory and renamed too).
#   (d) otherwise: exit 1 with installation instructions.
#
#   <cache> = ${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
#
# First build on 2 cores, with empty Go and pip caches: CLI + Node.js host
# about 5-7 minutes, plus about 3 minutes for the other pieces (measured when
# adding them to an existing cache): YAML host ~10-40 s of module download +
# ~2 min compile; Python host ~5 s download + ~30 s compile (same modules as
# the Node.js host: less when built with it); virtualenv ~5 s + ~10 s of pip.
# Later runs: under a second.
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
#   --build   ignore PATH and a valid cache; rebuild the cached engine and
#             the virtualenv.
#   --help    show this header.
set -euo pipefail

readonly ENGINE_VERSION=v3.274.1
# The stand-alone language host modules are not served by the Go proxy; sdk/v3
# at this version still contains nodejs/cmd/pulumi-language-nodejs and
# python/cmd/pulumi-language-python.
readonly LANGHOST_SDK_VERSION=v3.65.0
# The newest github.com/pulumi/pulumi-yaml the Go proxy serves.
readonly YAML_VERSION=v1.11.0
# The `pulumi` Python SDK installed from PyPI into the virtualenv.
# PyPI has no pulumi 3.274.1: the newest release it serves.
readonly PYTHON_SDK_VERSION=3.272.0
readonly PYTHON_MIN=3.10
# What the virtualenv holds: the pulumi SDK, and what the generated SDK in sdk/python needs
# (its pyproject.toml: parver, semver), pinned.
readonly PYTHON_PACKAGES="pulumi==$PYTHON_SDK_VERSION parver==0.5 semver==3.0.4"
python_stamp=".packages-$(printf '%s' "$PYTHON_PACKAGES" | cksum | cut -d' ' -f1)"
readonly python_stamp
# Minimum Go: the go directive of github.com/pulumi/pulumi/pkg/v3 v3.274.1.
readonly GO_MIN=1.26.6

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
[[ $cache_root == /* ]] || cache_root=$PWD/$cache_root
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
  local dir=$1 ver=${2:-}
  [[ -n $ver ]] || ver=$(pulumi_version "$dir/pulumi" || true)
  log "engine: $dir (pulumi $ver); provisioning took $(elapsed)s"
  log "Python programs: PULUMI_PYTHON_CMD=$dir/pulumi-python"
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

# ---- Python: virtualenv and the `pulumi-python` wrapper ----------------------

# The wrapper's last line. A script rather than a symlink: Python finds its
# virtualenv from the path it is started as.
python_wrapper_exec_line() {
  printf "exec '%s' \"\$@\"" "${venv_dir//\'/\'\\\'\'}/bin/python"
}

venv_valid() { [[ -x $venv_dir/bin/python && -f $venv_dir/$python_stamp ]]; }

python_wrapper_valid() { # DIR
  [[ -x $1/pulumi-python ]] && grep -qxF "$(python_wrapper_exec_line)" "$1/pulumi-python"
}

write_python_wrapper() { # DIR (written atomically)
  local tmp_file
  tmp_file=$(mktemp "$1/.pulumi-python.XXXXXX")
  {
    printf '%s\n' '#!/bin/sh' \
      "# Python with the pulumi SDK $PYTHON_SDK_VERSION (a virtualenv made by scripts/pulumi-engine.sh)." \
      '# Python programs: PULUMI_PYTHON_CMD=<this file>.'
    python_wrapper_exec_line
    printf '\n'
  } >"$tmp_file"
  chmod 755 "$tmp_file"
  mv -f "$tmp_file" "$1/pulumi-python"
}

# ---- Go-built language hosts ---------------------------------------------------

have_host() { # DIR NAME: NAME (and, for the Python host, its -exec script) in DIR
  [[ -x $1/$2 ]] || return 1
  [[ $2 != pulumi-language-python || -x $1/pulumi-language-python-exec ]]
}

engine_core_valid() {
  [[ -x $engine_dir/bin/pulumi && -x $engine_dir/bin/pulumi-language-nodejs ]] || return 1
  [[ $(pulumi_version "$engine_dir/bin/pulumi") == "$ENGINE_VERSION" ]]
}

cache_valid() {
  local h
  for h in "${HOSTS[@]}"; do have_host "$engine_dir/bin" "$h" || return 1; done
  venv_valid && python_wrapper_valid "$engine_dir/bin" && engine_core_valid
}

use_cache() {
  [[ -x $engine_dir/bin/pulumi-resource-pulumi-nodejs ]] || write_dynamic_provider_wrapper "$engine_dir/bin"
  finish "$engine_dir/bin" "$ENGINE_VERSION"
}

# ---- build helpers ----------------------------------------------------------

tmp_dirs=()
# shellcheck disable=SC2329 # called by the EXIT trap
cleanup() { local d; for d in "${tmp_dirs[@]+"${tmp_dirs[@]}"}"; do rm -rf "$d"; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# version_ge, setup_go_env, use_gotmpdir, go_build, lock_build_root
# shellcheck source=scripts/go-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/go-env.sh"

readonly SDK_VERSION_VAR=github.com/pulumi/pulumi/sdk/v3/go/common/version.Version

build_host_into() { # DIR NAME
  local dir=$1 name=$2 t=$SECONDS pkg src
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
      # The host runs the program through this script, looked up next to its
      # own (symlink-resolved) executable.
      src=$(cd "$tools_dir/langhost" && go list -f '{{.Dir}}' "$pkg")/../pulumi-language-python-exec
      cp "$src" "$dir/pulumi-language-python-exec"
      chmod 755 "$dir/pulumi-language-python-exec" ;;
    *) log "internal error: unknown host $name"; exit 1 ;;
  esac
  log "$name: built in $((SECONDS - t))s"
}

need_go() { # WHAT
  command -v go >/dev/null 2>&1 && return 0
  cat >&2 <<EOF
pulumi-engine: cannot provision the Pulumi engine $ENGINE_VERSION:
  $1 is missing (no usable \`pulumi\` with its language hosts on PATH, no
  complete cached build in $engine_dir/bin), and there is no \`go\` to build it.
Either
  - install the Pulumi CLI: https://www.pulumi.com/docs/install/
    (then make sure \`pulumi\` and its \`pulumi-language-*\` hosts are on PATH), or
  - install Go $GO_MIN or newer (https://go.dev/dl/; older Go works if it may
    download a newer toolchain) and rerun this script.
EOF
  exit 1
}

# Serialize concurrent callers (e.g. parallel test workers) on a lock file.
have_lock=0
take_lock() {
  [[ $have_lock == 0 ]] || return 0
  have_lock=1
  lock_build_root "$engine_root" "provisioning run"
}

# install_hosts DIR NAME...: build the hosts missing from DIR in a temporary
# directory and rename them into DIR one file at a time (the Python host after
# its -exec script, so a present host means a complete pair).
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

python_ok() { # PYTHON: is it >= PYTHON_MIN?
  local v
  v=$("$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || return 1
  version_ge "$v" "$PYTHON_MIN"
}

# The virtualenv: made in a temporary directory, renamed to $python_dir.
ensure_venv() {
  [[ $force_build == 0 ]] && venv_valid && return 0
  take_lock
  [[ $force_build == 0 ]] && venv_valid && return 0 # made meanwhile
  local py=${PULUMI_ENGINE_PYTHON:-python3} tmp t
  if ! command -v "$py" >/dev/null 2>&1 || ! python_ok "$py"; then
    cat >&2 <<EOF
pulumi-engine: cannot make the Python virtualenv for the pulumi SDK $PYTHON_SDK_VERSION:
  \`$py\` is missing or older than Python $PYTHON_MIN. Install Python $PYTHON_MIN+
  (with the venv module), or point PULUMI_ENGINE_PYTHON at one, and rerun.
EOF
    exit 1
  fi
  log "making the Python virtualenv $venv_dir ($PYTHON_PACKAGES, $("$py" --version 2>&1)) ..."
  tmp=$(mktemp -d "$engine_root/.build-python.XXXXXX"); tmp_dirs+=("$tmp")
  t=$SECONDS
  "$py" -m venv "$tmp/venv" >&2
  log "  venv took $((SECONDS - t))s"
  t=$SECONDS
  # shellcheck disable=SC2086 # a list of requirements
  "$tmp/venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off \
    $PYTHON_PACKAGES >&2
  log "  pip install took $((SECONDS - t))s ($(du -sh "$tmp/venv" | cut -f1))"
  "$tmp/venv/bin/python" -c 'import pulumi, pulumi.runtime' >&2
  # Scripts in bin/ (pip, activate) name the temporary path: point them at the final one.
  relocate_venv "$tmp/venv" "$venv_dir"
  : >"$tmp/venv/$python_stamp"
  chmod 755 "$tmp"
  rm -rf "$python_dir"
  mv -T "$tmp" "$python_dir"
}

# ---- (a) PATH ---------------------------------------------------------------

# A usable language host for the shim: next to the PATH pulumi, else on PATH,
# else in the cached engine; prints its resolved path.
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

if [[ ${PULUMI_ENGINE_IGNORE_PATH:-0} != 1 && $force_build == 0 ]] && path_pulumi=$(command -v pulumi 2>/dev/null); then
  path_pulumi=$(readlink -f "$path_pulumi")
  path_ver=$(pulumi_version "$path_pulumi" || true)
  if [[ -z $path_ver ]]; then
    log "ignoring $path_pulumi on PATH: \`pulumi version\` failed"
  else
    [[ $path_ver == "$ENGINE_VERSION" ]] || log "note: using pulumi $path_ver from PATH (pinned engine is $ENGINE_VERSION)"
    path_dir=$(dirname "$path_pulumi")
    complete=1
    for h in "${HOSTS[@]}"; do have_host "$path_dir" "$h" || complete=0; done
    if [[ $complete == 1 ]] && venv_valid && python_wrapper_valid "$path_dir"; then
      finish "$path_dir" "$path_ver"
    fi
    # Something missing next to pulumi: build a shim directory.
    mkdir -p "$shim_dir/bin"
    for h in "${HOSTS[@]}"; do
      if ! target=$(find_host "$h"); then
        case $h in
          pulumi-language-yaml) d=$yaml_dir/bin ;;
          *) d=$langhost_dir/bin ;;
        esac
        log "no $h next to the PATH pulumi; using $d"
        install_hosts "$d" "$h"
        target=$d/$h
      fi
      ln -sfn "$target" "$shim_dir/bin/$h"
    done
    ensure_venv
    python_wrapper_valid "$shim_dir/bin" || write_python_wrapper "$shim_dir/bin"
    # A hard link (when on the same file system) makes pulumi see the shim
    # directory as its own, so it loads the plugins there as bundled ones
    # instead of warning "using ... from $PATH".
    ln -f "$path_pulumi" "$shim_dir/bin/pulumi" 2>/dev/null || ln -sfn "$path_pulumi" "$shim_dir/bin/pulumi"
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

# ---- (c) build --------------------------------------------------------------

# CLI and Node.js host cached, other pieces missing: add just those.
if [[ $force_build == 0 ]] && engine_core_valid; then
  ensure_venv
  install_hosts "$engine_dir/bin" "${HOSTS[@]}"
  python_wrapper_valid "$engine_dir/bin" || write_python_wrapper "$engine_dir/bin"
  use_cache
fi

need_go "the Pulumi CLI"
take_lock
if [[ $force_build == 0 ]] && cache_valid; then # built by a concurrent run
  use_cache
fi

log "building the Pulumi engine $ENGINE_VERSION from Go modules (first run only, about 8-10 minutes on 2 cores)..."
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
log "pulumi version: $got"
write_dynamic_provider_wrapper "$tmp/bin"
write_python_wrapper "$tmp/bin"
rm -rf "$tmp/gotmp"
chmod 755 "$tmp"

rm -rf "$engine_dir"
mv -T "$tmp" "$engine_dir"
finish "$engine_dir/bin" "$got"
