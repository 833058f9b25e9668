#!/usr/bin/env bash
# npm run sdk:gen: regenerates sdk/python, sdk/nodejs and (when the schema has language.go) sdk/go
# from schema.json with tools/sdk-gen (built once into <cache>/sdk-gen/<hash of its files>), then
# scripts/sdk-postprocess.js; each sdk/<language> is replaced whole. npm run sdk:check (--check)
# compares instead and exits 1 listing what differs (--diff: and prints the differences).
#   <cache> = ${PULUMI_BLOCKCHAIN_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-blockchain-nodes}
# Options: --check, --diff, --schema FILE, --sdk-dir DIR, --rebuild (sdk-gen), --help.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
repo=$(cd "$script_dir/.." && pwd -P)
tool_src=$repo/tools/sdk-gen

check=0 show_diff=0 rebuild=0
schema=$repo/schema.json
sdk_dir=$repo/sdk
while (($#)); do
  case "$1" in
    --check) check=1 ;;
    --diff) show_diff=1 ;;
    --rebuild) rebuild=1 ;;
    --schema) schema=${2:?--schema needs a file}; shift ;;
    --sdk-dir) sdk_dir=${2:?--sdk-dir needs a directory}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) echo "gen-sdk: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

log() { printf 'gen-sdk: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[[ -f $schema ]] || die "no schema at $schema"
command -v node >/dev/null 2>&1 || die "node is needed (scripts/sdk-postprocess.js)"

# cache_root, tmp_dirs, version_ge, setup_go_env, use_gotmpdir, go_build, lock_build_root, go_mod_min
# shellcheck source=scripts/go-env.sh
source "$script_dir/go-env.sh"
# Minimum Go: the go line of tools/sdk-gen/go.mod (that of the pulumi pkg/v3 it requires).
GO_MIN=$(go_mod_min "$tool_src/go.mod")
readonly GO_MIN

tool_root=$cache_root/sdk-gen
tool_hash=$(cd "$tool_src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
tool_dir=$tool_root/$tool_hash
sdk_gen=$tool_dir/bin/sdk-gen

build_tool() {
  command -v go >/dev/null 2>&1 ||
    die "building tools/sdk-gen needs Go $GO_MIN or newer (https://go.dev/dl/; older Go works if it may download a newer toolchain)"
  lock_build_root "$tool_root" "build of sdk-gen"
  if [[ $rebuild == 0 && -x $sdk_gen ]]; then # built by a concurrent run
    exec 9>&-
    return 0
  fi
  local t=$SECONDS tmp
  log "building sdk-gen ($tool_hash) into $tool_dir (first run only) ..."
  setup_go_env
  tmp=$(mktemp -d "$tool_root/.build-$tool_hash.XXXXXX"); tmp_dirs+=("$tmp")
  use_gotmpdir "$tmp"
  go_build "$tool_src" . "$tmp/bin/sdk-gen"
  rm -rf "$tmp/gotmp"
  chmod 755 "$tmp"
  rm -rf "$tool_dir"
  mv -T "$tmp" "$tool_dir"
  log "  built in $((SECONDS - t))s ($(du -h "$sdk_gen" | cut -f1))"
}

if [[ $rebuild == 1 || ! -x $sdk_gen ]]; then
  build_tool
fi

if [[ $check == 1 ]]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/gen-sdk.XXXXXX")
else
  mkdir -p "$sdk_dir"
  # Next to the destination, so the final renames stay on one file system.
  work=$(mktemp -d "$sdk_dir/.gen-sdk.XXXXXX")
fi
tmp_dirs+=("$work")

# Go only when the schema gives its import path (else the generator makes one up).
LANGUAGES=(python nodejs)
has_go=$(node -e '
  try {
    const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    process.stdout.write(s && s.language && s.language.go ? "1" : "");
  } catch { /* sdk-gen reports an unreadable schema */ }' "$schema")
[[ -n $has_go ]] && LANGUAGES+=(go)

langs_csv=$(IFS=,; echo "${LANGUAGES[*]}")
"$sdk_gen" --schema "$schema" --out "$work" --languages "$langs_csv" ||
  die "sdk-gen failed on $schema (see above); sdk/ left unchanged"
node "$script_dir/sdk-postprocess.js" "$work" "${LANGUAGES[@]}" ||
  die "post-processing failed (see above); sdk/ left unchanged"

rel() { local p=$1; [[ $p == "$repo/"* ]] && p=${p#"$repo/"}; printf '%s' "$p"; }

if [[ $check == 1 ]]; then
  differing=()
  if [[ -z $has_go && -e $sdk_dir/go ]]; then
    differing+=("$(rel "$sdk_dir/go")/ (not generated any more: the schema has no language.go)")
  fi
  for lang in "${LANGUAGES[@]}"; do
    committed=$sdk_dir/$lang
    if [[ ! -d $committed ]]; then
      differing+=("$(rel "$committed")/ (missing)")
      continue
    fi
    # What the SDK's own .gitignore leaves out of git is not compared.
    excludes=()
    if [[ -f $work/$lang/.gitignore ]]; then
      while IFS= read -r pat; do
        pat=${pat%/}; pat=${pat#/}
        [[ -z $pat || $pat == '#'* || $pat == *'!'* || $pat == */* ]] && continue
        excludes+=(-x "$pat")
      done <"$work/$lang/.gitignore"
    fi
    while IFS= read -r line; do
      case "$line" in
        "Files "*" differ")
          f=${line#"Files $committed/"}; f=${f%% and *}
          differing+=("$(rel "$committed")/$f (differs)") ;;
        "Only in $committed"*)
          d=${line#"Only in "}; f=${d#*: }; d=${d%%: *}
          differing+=("$(rel "$d")/$f (not generated any more)") ;;
        "Only in $work/$lang"*)
          d=${line#"Only in "}; f=${d#*: }; d=${d%%: *}; d=${d#"$work/$lang"}
          differing+=("$(rel "$committed")$d/$f (new, not committed)") ;;
        *) differing+=("$line") ;;
      esac
    done < <(diff -rq "${excludes[@]+"${excludes[@]}"}" "$committed" "$work/$lang" || true)
  done
  if ((${#differing[@]})); then
    {
      echo "sdk/ is stale: run npm run sdk:gen and commit"
      printf '  %s\n' "${differing[@]}"
    } >&2
    if [[ $show_diff == 1 ]]; then
      for lang in "${LANGUAGES[@]}"; do
        [[ -d $sdk_dir/$lang ]] && { diff -ru -x __pycache__ -x '*.pyc' -x '*.egg-info' -x node_modules -x bin \
          "$sdk_dir/$lang" "$work/$lang" >&2 || true; }
      done
    else
      echo "(scripts/gen-sdk.sh --check --diff shows the differences)" >&2
    fi
    exit 1
  fi
  log "sdk/ is up to date with $(rel "$schema") (${LANGUAGES[*]})"
  exit 0
fi

for lang in "${LANGUAGES[@]}"; do
  dest=$sdk_dir/$lang
  if [[ -e $dest ]]; then
    mv -T "$dest" "$work/.old-$lang"
  fi
  mv -T "$work/$lang" "$dest"
  rm -rf "$work/.old-$lang"
done
if [[ -z $has_go && -e $sdk_dir/go ]]; then
  log "removing $(rel "$sdk_dir/go"): the schema has no language.go section"
  rm -rf "$sdk_dir/go"
fi
log "wrote $(for l in "${LANGUAGES[@]}"; do printf '%s ' "$(rel "$sdk_dir/$l")"; done)from $(rel "$schema")"
