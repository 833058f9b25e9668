#!/usr/bin/env bash
# npm run release: builds into release/ (gitignored) everything a release v<version> publishes,
# <version> being package.json's, and a SHA256SUMS of them. Publishes nothing.
#
#   pulumi-blockchain-nodes-<version>.tgz          the npm package (`npm pack`: its prepack cleans
#                                                  and builds dist/, the bundled plugin included)
#   pulumi-resource-blockchain-v<version>-<os>-<arch>.tar.gz
#                                                  the provider plugin for linux, darwin and windows
#                                                  on amd64 and arm64 (scripts/plugin-pack.js): the
#                                                  names `pulumi plugin install --server` downloads
#   pulumi_blockchain-<version>.tar.gz, pulumi_blockchain-<version>-py3-none-any.whl
#                                                  the Python SDK (`python -m build` on a copy of
#                                                  sdk/python)
#   pulumi-blockchain-<version>.tgz                the Node.js SDK (a copy of sdk/nodejs compiled
#                                                  into its bin/, package.json and README beside,
#                                                  `npm pack` of bin/)
#   blockchain-sdk-go-v<version>.zip               the Go SDK module (sdk/go with its go.mod, in a
#                                                  folder blockchain-sdk-go-v<version>/)
#   SHA256SUMS                                     `sha256sum --check SHA256SUMS` in release/
#
# Needs `npm ci` done, Python 3.9 or later (python3, or $PULUMI_ENGINE_PYTHON) and PyPI the first
# time: `build` and `setuptools`, pinned below, go into a virtualenv kept in
# <cache>/release/python-build-<pins hash>/venv, made once like the engine's (scripts/pulumi-engine.sh).
#   <cache> = ${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
#
# Options: --out DIR (default: release at the repository root; emptied first), --help.
set -euo pipefail

readonly PYTHON_BUILD_PACKAGES="build==1.6.1 setuptools==84.2.1"
readonly PYTHON_MIN=3.9

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
repo=$(cd "$script_dir/.." && pwd -P)
out=$repo/release
while (($#)); do
  case "$1" in
    --out) out=${2:?--out needs a directory}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) echo "release: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
[[ $out == /* ]] || out=$PWD/$out

log() { printf 'release: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
step_start=$SECONDS
step() { log "$* (at $((SECONDS - step_start)) s)"; }

# shellcheck source=scripts/go-env.sh
source "$script_dir/go-env.sh" # version_ge, lock_build_root, relocate_venv

tmp_dirs=()
cleanup() { local d; for d in "${tmp_dirs[@]+"${tmp_dirs[@]}"}"; do rm -rf "$d"; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cd "$repo"
version=$(node -p 'require("./package.json").version')
[[ -d node_modules ]] || die "node_modules is missing: run npm ci first"
work=$(mktemp -d "${TMPDIR:-/tmp}/blockchain-release.XXXXXX"); tmp_dirs+=("$work")
rm -rf "$out"
mkdir -p "$out"
log "version $version into $out"

# ---- the npm package and the plugin tarballs ----------------------------------

step "npm pack (prepack: clean and build)"
npm pack --pack-destination "$out" --loglevel warn >/dev/null
[[ -f $out/pulumi-blockchain-nodes-$version.tgz ]] || die "npm pack made no pulumi-blockchain-nodes-$version.tgz"

step "plugin tarballs"
node scripts/plugin-pack.js --all --out "$out" >/dev/null

# ---- the Python SDK ---------------------------------------------------------

python_ok() { # PYTHON: is it >= PYTHON_MIN?
  local v
  v=$("$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || return 1
  version_ge "$v" "$PYTHON_MIN"
}

cache_root=${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
[[ $cache_root == /* ]] || cache_root=$PWD/$cache_root
build_root=$cache_root/release
build_dir=$build_root/python-build-$(printf '%s' "$PYTHON_BUILD_PACKAGES" | cksum | cut -d' ' -f1)
venv=$build_dir/venv

# The virtualenv with `build` and `setuptools`: made in a temporary folder, renamed into place.
ensure_build_venv() {
  [[ -x $venv/bin/python && -f $venv/.complete ]] && return 0
  lock_build_root "$build_root" "virtualenv build"
  [[ -x $venv/bin/python && -f $venv/.complete ]] && return 0
  local py=${PULUMI_ENGINE_PYTHON:-python3} tmp
  command -v "$py" >/dev/null 2>&1 && python_ok "$py" ||
    die "\`$py\` is missing or older than Python $PYTHON_MIN: install one (with venv), or set PULUMI_ENGINE_PYTHON"
  log "making the virtualenv $venv ($PYTHON_BUILD_PACKAGES, $("$py" --version 2>&1)) ..."
  tmp=$(mktemp -d "$build_root/.build-python.XXXXXX"); tmp_dirs+=("$tmp")
  "$py" -m venv "$tmp/venv" >&2
  # shellcheck disable=SC2086 # a list of requirements
  "$tmp/venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off -q \
    $PYTHON_BUILD_PACKAGES >&2
  # Scripts in bin/ name the temporary path: point them at the final one.
  relocate_venv "$tmp/venv" "$venv"
  : >"$tmp/venv/.complete"
  rm -rf "$build_dir"
  mkdir -p "$build_dir"
  mv -T "$tmp/venv" "$venv"
  exec 9>&-
}

step "Python SDK (sdist and wheel)"
ensure_build_venv
cp -r sdk/python "$work/python"
rm -rf "$work/python/build" "$work/python"/*.egg-info
# --no-isolation: the pinned setuptools of the virtualenv builds it, no download per build.
"$venv/bin/python" -m build --no-isolation --sdist --wheel --outdir "$out" "$work/python" >"$work/python-build.log" 2>&1 ||
  { cat "$work/python-build.log" >&2; die "python -m build failed"; }
compgen -G "$out/pulumi_blockchain-$version-*.whl" >/dev/null || die "no wheel pulumi_blockchain-$version-*.whl"
[[ -f $out/pulumi_blockchain-$version.tar.gz ]] || die "no sdist pulumi_blockchain-$version.tar.gz"

# ---- the Node.js SDK ---------------------------------------------------------

step "Node.js SDK"
sdk=$work/nodejs
mkdir -p "$sdk"
(cd sdk/nodejs && tar --exclude=./node_modules --exclude=./bin -cf - .) | (cd "$sdk" && tar -xf -)
# What it compiles against: this repository's @pulumi/pulumi and @types/node (as the e2e test does).
mkdir -p "$sdk/node_modules/@pulumi" "$sdk/node_modules/@types"
ln -s "$repo/node_modules/@pulumi/pulumi" "$sdk/node_modules/@pulumi/pulumi"
ln -s "$repo/node_modules/@types/node" "$sdk/node_modules/@types/node"
node "$repo/node_modules/typescript/bin/tsc" -p "$sdk"
cp "$sdk/package.json" "$sdk/README.md" "$sdk/bin/"
(cd "$sdk/bin" && npm pack --pack-destination "$out" --ignore-scripts --loglevel warn >/dev/null)
[[ -f $out/pulumi-blockchain-$version.tgz ]] || die "npm pack made no pulumi-blockchain-$version.tgz"

# ---- the Go SDK --------------------------------------------------------------

step "Go SDK"
[[ -f sdk/go/go.mod ]] || die "sdk/go/go.mod is missing: run npm run sdk:gen"
"$venv/bin/python" - "$repo/sdk/go" "$out/blockchain-sdk-go-v$version.zip" "blockchain-sdk-go-v$version" <<'PY'
import os, sys, zipfile
src, dest, top = sys.argv[1:4]
with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            info = zipfile.ZipInfo(os.path.join(top, os.path.relpath(path, src)), (1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as f:
                z.writestr(info, f.read())
PY

# ---- SHA256SUMS --------------------------------------------------------------

step "SHA256SUMS"
node - "$out" <<'JS'
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const dir = process.argv[2];
const lines = fs
  .readdirSync(dir)
  .filter((f) => f !== "SHA256SUMS")
  .sort()
  .map((f) => `${crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, f))).digest("hex")}  ${f}`);
fs.writeFileSync(path.join(dir, "SHA256SUMS"), `${lines.join("\n")}\n`);
JS

log "done in $((SECONDS - step_start)) s:"
(cd "$out" && for f in *; do printf '  %8s  %s\n' "$(du -h "$f" | cut -f1)" "$f"; done) >&2
