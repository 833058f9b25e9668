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
const zlib = require("zlib");
const { execFileSync } = require("child_process");
const util = require("util");

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
  try {
    const out = execFileSync("git", ["log", "-1", "--format=%ct"], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    });
    if (/^\d+\s*$/.test(out.toString())) return Number(out.toString());
  } catch {
    // not a checkout
  }
  return Math.floor(Date.now() / 1000);
}

/** One ustar header block for a regular file. */
function tarHeader(name, size, mode, mtime) {
  const block = Buffer.alloc(512);
  const put = (value, offset, length) => block.write(value, offset, length, "ascii");
  const octal = (value, length) => value.toString(8).padStart(length - 1, "0") + "\0";
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long: ${name}`);
  put(name, 0, 100);
  put(octal(mode, 8), 100, 8);
  put(octal(0, 8), 108, 8); // uid
  put(octal(0, 8), 116, 8); // gid
  put(octal(size, 12), 124, 12);
  put(octal(mtime, 12), 136, 12);
  put("        ", 148, 8); // checksum, counted as spaces
  put("0", 156, 1); // regular file
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  put("root", 265, 32);
  put("root", 297, 32);
  const checksum = block.reduce((sum, byte) => sum + byte, 0);
  put(checksum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return block;
}

/** A gzipped tar of the files of the tarball for `os`, sorted by name. */
function tarGz(os, mtime) {
  const launcher = (suffix, mode) => [`${NAME}${suffix}`, path.join(root, "bin", `${NAME}${suffix}`), mode];
  const entries = [
    ...(os === "windows" ? [launcher(".cmd", 0o755)] : []),
    launcher("", 0o755),
    [`${NAME}.js`, BUNDLE, 0o644],
    [`${NAME}.THIRD-PARTY-LICENSES.txt`, LICENSES, 0o644],
  ].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const parts = [];
  let unpacked = 0;
  for (const [name, file, mode] of entries) {
    const data = fs.readFileSync(file);
    unpacked += data.length;
    const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
    parts.push(tarHeader(name, data.length, mode, mtime), data, padding);
  }
  parts.push(Buffer.alloc(1024)); // two empty blocks end the archive
  return { data: zlib.gzipSync(Buffer.concat(parts), { level: 9 }), unpacked };
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
  const [os, arch] = [OSES[process.platform], ARCHES[process.arch]];
  if (!values.all && (!os || !arch)) throw new Error(`no plugin for ${process.platform}/${process.arch}`);
  const platforms = values.all
    ? Object.values(OSES).flatMap((o) => Object.values(ARCHES).map((a) => [o, a]))
    : [[os, arch]];
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
