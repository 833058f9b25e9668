#!/usr/bin/env bash
# npm run sdk:gen: regenerates sdk/python, sdk/nodejs and sdk/go from schema.json with
# tools/sdk-gen (built once into <cache>/sdk-gen/<hash of its files>), then
# scripts/sdk-postprocess.js; each sdk/<language> is replaced whole. npm run sdk:check (--check)
# compares instead and exits 1 listing what differs.
#   <cache> = ${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
repo=$(cd "$script_dir/.." && pwd -P)
tool_src=$repo/tools/sdk-gen
schema=$repo/schema.json
sdk_dir=$repo/sdk
LANGUAGES=(python nodejs go)

check=0
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) echo "gen-sdk: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

log() { printf 'gen-sdk: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=scripts/go-env.sh
source "$script_dir/go-env.sh"
# Minimum Go: the go line of tools/sdk-gen/go.mod (that of the pulumi pkg/v3 it requires).
GO_MIN=$(go_mod_min "$tool_src/go.mod")
readonly GO_MIN

tool_root=$cache_root/sdk-gen
tool_hash=$(cd "$tool_src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
tool_dir=$tool_root/$tool_hash
sdk_gen=$tool_dir/bin/sdk-gen

if [[ ! -x $sdk_gen ]]; then
  command -v go >/dev/null 2>&1 ||
    die "building tools/sdk-gen needs Go $GO_MIN or newer (https://go.dev/dl/; older Go works if it may download a newer toolchain)"
  lock_build_root "$tool_root" "build of sdk-gen"
  if [[ ! -x $sdk_gen ]]; then # else built by a concurrent run
    log "building sdk-gen ($tool_hash) into $tool_dir (first run only) ..."
    setup_go_env
    tmp=$(mktemp -d "$tool_root/.build-$tool_hash.XXXXXX"); tmp_dirs+=("$tmp")
    use_gotmpdir "$tmp"
    go_build "$tool_src" . "$tmp/bin/sdk-gen"
    rm -rf "$tmp/gotmp" "$tool_dir"
    chmod 755 "$tmp"
    mv -T "$tmp" "$tool_dir"
  fi
  exec 9>&-
fi

# Next to the destination when writing, so the final renames stay on one file system.
if [[ $check == 1 ]]; then work=$(mktemp -d "${TMPDIR:-/tmp}/gen-sdk.XXXXXX"); else
  mkdir -p "$sdk_dir"
  work=$(mktemp -d "$sdk_dir/.gen-sdk.XXXXXX")
fi
tmp_dirs+=("$work")

langs_csv=$(IFS=,; echo "${LANGUAGES[*]}")
"$sdk_gen" --schema "$schema" --out "$work" --languages "$langs_csv" ||
  die "sdk-gen failed on $schema (see above); sdk/ left unchanged"
node "$script_dir/sdk-postprocess.js" "$work" "${LANGUAGES[@]}" ||
  die "post-processing failed (see above); sdk/ left unchanged"

if [[ $check == 0 ]]; then
  for lang in "${LANGUAGES[@]}"; do
    [[ -e $sdk_dir/$lang ]] && mv -T "$sdk_dir/$lang" "$work/.old-$lang"
    mv -T "$work/$lang" "$sdk_dir/$lang"
  done
  log "wrote sdk/{$langs_csv} from schema.json"
  exit 0
fi

# What each SDK's own .gitignore leaves out of git is not compared.
differing=$(for lang in "${LANGUAGES[@]}"; do
  excludes=()
  if [[ -f $work/$lang/.gitignore ]]; then
    while IFS= read -r pat; do
      pat=${pat%/}; pat=${pat#/}
      [[ -z $pat || $pat == '#'* || $pat == *'!'* || $pat == */* ]] || excludes+=(-x "$pat")
    done <"$work/$lang/.gitignore"
  fi
  diff -rq "${excludes[@]+"${excludes[@]}"}" "$sdk_dir/$lang" "$work/$lang" 2>&1 || true
done | sed -e "s|$work/|generated sdk/|g" -e "s|$repo/||g")
if [[ -z $differing ]]; then
  log "sdk/ is up to date with schema.json (${LANGUAGES[*]})"
  exit 0
fi
{
  echo "sdk/ is stale: run npm run sdk:gen and commit (git diff sdk/ then shows the differences)"
  printf '%s\n' "$differing" | sed 's/^/  /'
} >&2
exit 1
