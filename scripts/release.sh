#!/usr/bin/env bash
# npm run release: builds into release/ (or --out DIR; emptied first) what a release v<version>
# publishes, and their SHA256SUMS; publishes nothing. The npm package (npm pack), the plugin
# tarballs of every platform (scripts/plugin-pack.js), the Python SDK's sdist and wheel, the
# Node.js SDK compiled and packed, the Go SDK module zipped. Needs `npm ci` done and Python 3.9+
# (python3, or $PULUMI_ENGINE_PYTHON): `build` and `setuptools`, pinned below, go into a
# virtualenv in <cache>/release, made once.
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
source "$script_dir/go-env.sh" # cache_root, tmp_dirs, make_venv, lock_build_root

cd "$repo"
version=$(node -p 'require("./package.json").version')
[[ -d node_modules ]] || die "node_modules is missing: run npm ci first"
work=$(mktemp -d "${TMPDIR:-/tmp}/blockchain-release.XXXXXX"); tmp_dirs+=("$work")
rm -rf "$out"
mkdir -p "$out"
log "version $version into $out"

step "npm pack (prepack: clean and build)"
npm pack --pack-destination "$out" --loglevel warn >/dev/null
[[ -f $out/pulumi-blockchain-nodes-$version.tgz ]] || die "npm pack made no pulumi-blockchain-nodes-$version.tgz"

step "plugin tarballs"
node scripts/plugin-pack.js --all --out "$out" >/dev/null

build_root=$cache_root/release
build_dir=$build_root/python-build-$(printf '%s' "$PYTHON_BUILD_PACKAGES" | cksum | cut -d' ' -f1)
venv=$build_dir/venv

step "Python SDK (sdist and wheel)"
# Made in place under the lock; one without .complete is a killed run's, made again.
if [[ ! -f $venv/.complete ]]; then
  lock_build_root "$build_root" "virtualenv build"
  if [[ ! -f $venv/.complete ]]; then
    rm -rf "$build_dir"
    make_venv "$venv" "$PYTHON_BUILD_PACKAGES"
    : >"$venv/.complete"
  fi
  exec 9>&-
fi
cp -r sdk/python "$work/python"
rm -rf "$work/python/build" "$work/python"/*.egg-info
# --no-isolation: the pinned setuptools of the virtualenv builds it, no download per build.
"$venv/bin/python" -m build --no-isolation --sdist --wheel --outdir "$out" "$work/python" >"$work/python-build.log" 2>&1 ||
  { cat "$work/python-build.log" >&2; die "python -m build failed"; }
compgen -G "$out/pulumi_blockchain-$version-*.whl" >/dev/null || die "no wheel pulumi_blockchain-$version-*.whl"
[[ -f $out/pulumi_blockchain-$version.tar.gz ]] || die "no sdist pulumi_blockchain-$version.tar.gz"

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

step "Go SDK"
[[ -f sdk/go/go.mod ]] || die "sdk/go/go.mod is missing: run npm run sdk:gen"
"$venv/bin/python" - "$repo/sdk/go" "$out/blockchain-sdk-go-v$version.zip" "blockchain-sdk-go-v$version" <<'PY'
import os, pathlib, sys, zipfile
src, dest, top = sys.argv[1:4]
with zipfile.ZipFile(dest, "w") as z:
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            info = zipfile.ZipInfo(os.path.join(top, os.path.relpath(path, src)), (1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, pathlib.Path(path).read_bytes(), zipfile.ZIP_DEFLATED)
PY

step "SHA256SUMS"
(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)

log "done in $((SECONDS - step_start)) s:"
(cd "$out" && for f in *; do printf '  %8s  %s\n' "$(du -h "$f" | cut -f1)" "$f"; done) >&2
