#!/usr/bin/env node
/**
 * `npm run plugin:pack [-- --all] [--out DIR]`: packs the provider plugin into the tarballs
 * `pulumi plugin install resource blockchain <version> --file|--server` takes,
 * `pulumi-resource-blockchain-v<version>-<os>-<arch>.tar.gz` (default: this machine's, in
 * build/plugin; `--all`: every OS and architecture): the bundle `npm run build` made, its licences
 * and the launcher of its OS from bin/. Reproducible: entries in a fixed order, owner 0, one
 * timestamp (SOURCE_DATE_EPOCH, else the last commit's). Prints each tarball's path.
 */
"use strict";
const { Buffer } = require("buffer");
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const util = require("util");
const tar = require("tar");

const root = path.resolve(__dirname, "..");
const log = (line) => process.stderr.write(`plugin:pack: ${line}\n`);
const OSES = { linux: "linux", darwin: "darwin", win32: "windows" };
const ARCHES = { x64: "amd64", arm64: "arm64" };
const NAME = "pulumi-resource-blockchain";
const BUNDLE = path.join(root, "dist", "plugin", `${NAME}.js`);
const LICENSES = path.join(root, "dist", "plugin", `${NAME}.THIRD-PARTY-LICENSES.txt`);

/** Seconds since the epoch for every entry: SOURCE_DATE_EPOCH, else the last commit's time, else now. */
function timestamp() {
  if (/^\d+$/.test(process.env.SOURCE_DATE_EPOCH ?? "")) return Number(process.env.SOURCE_DATE_EPOCH);
  // Empty outside a git checkout (or without git).
  const out = spawnSync("git", ["log", "-1", "--format=%ct"], { cwd: root, encoding: "utf8" }).stdout ?? "";
  if (/^\d+\s*$/.test(out)) return Number(out);
  return Math.floor(Date.now() / 1000);
}

/** A gzipped tar of the files of the tarball for `platform`, sorted by name; owners left out (tar's `portable`). */
function tarGz(platform, mtime) {
  const launcher = (suffix) => [`${NAME}${suffix}`, path.join(root, "bin", `${NAME}${suffix}`), 0o755];
  const entries = [
    ...(platform === "windows" ? [launcher(".cmd")] : []),
    launcher(""),
    [`${NAME}.js`, BUNDLE, 0o644],
    [`${NAME}.THIRD-PARTY-LICENSES.txt`, LICENSES, 0o644],
  ].sort(([a], [b]) => (a < b ? -1 : 1));
  let unpacked = 0;
  const options = {
    cwd: root,
    portable: true,
    mtime: new Date(mtime * 1000),
    gzip: { level: 9 },
    sync: true,
    // Each file under its name alone and with its mode, whatever the checkout's umask.
    onWriteEntry: (entry) => {
      [entry.path, , entry.stat.mode] = entries.find(([, file]) => file === entry.absolute);
      unpacked += entry.stat.size;
    },
  };
  const files = entries.map(([, file]) => file);
  const data = Buffer.concat([...tar.create(options, files)]);
  return { data, unpacked };
}

function main() {
  const { values } = util.parseArgs({ options: { all: { type: "boolean" }, out: { type: "string" } } });
  const out = path.resolve(values.out ?? path.join(root, "build", "plugin"));
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  for (const file of [BUNDLE, LICENSES])
    if (!fs.existsSync(file))
      throw new Error(`${path.relative(root, file)} is missing: run npm run build first`);
  // The bundle must be this version's (a stale build would report another one).
  if (!fs.readFileSync(BUNDLE, "utf8").startsWith(`/* ${NAME} ${version} build `))
    throw new Error(`${path.relative(root, BUNDLE)} is not a build of version ${version}: run npm run build`);
  const [system, arch] = [OSES[process.platform], ARCHES[process.arch]];
  if (!values.all && (!system || !arch)) throw new Error(`no plugin for ${process.platform}/${process.arch}`);
  const platforms = values.all
    ? Object.values(OSES).flatMap((o) => Object.values(ARCHES).map((a) => [o, a]))
    : [[system, arch]];
  const mtime = timestamp();
  fs.mkdirSync(out, { recursive: true });
  const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
  for (const [o, a] of platforms) {
    const tarball = path.join(out, `${NAME}-v${version}-${o}-${a}.tar.gz`);
    const { data, unpacked } = tarGz(o, mtime);
    fs.writeFileSync(tarball, data);
    log(`${path.basename(tarball)}: ${kb(data.length)} (${kb(unpacked)} unpacked)`);
    process.stdout.write(`${tarball}\n`);
    if (!values.all)
      log(
        `install it: pulumi plugin install resource blockchain ${version} --file ${path.relative(process.cwd(), tarball)}`,
      );
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`plugin:pack: ${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
}
