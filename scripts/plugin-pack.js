#!/usr/bin/env node
/**
 * `npm run plugin:pack [-- --all | --os linux --arch arm64] [--out DIR]`: packs the provider
 * plugin into the tarballs `pulumi plugin install resource blockchain <version> --file|--server`
 * takes, `pulumi-resource-blockchain-v<version>-<os>-<arch>.tar.gz` (default: this machine's, in
 * build/plugin): the bundle `npm run build` made, its licences and the launcher of its OS from
 * bin/. Reproducible: entries in a fixed order, owner 0, one timestamp (SOURCE_DATE_EPOCH, else
 * the last commit's). Prints each tarball's path.
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

const OSES = ["linux", "darwin", "windows"];
const ARCHES = ["amd64", "arm64"];

const BUNDLE = path.join(root, "dist", "plugin", "pulumi-resource-blockchain.js");
const LICENSES = path.join(root, "dist", "plugin", "pulumi-resource-blockchain.THIRD-PARTY-LICENSES.txt");
const LAUNCHER = path.join(root, "bin", "pulumi-resource-blockchain");
const LAUNCHER_CMD = path.join(root, "bin", "pulumi-resource-blockchain.cmd");

function hostPlatform() {
  const os = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch];
  if (!os || !arch) throw new Error(`no plugin for ${process.platform}/${process.arch}: use --os and --arch`);
  return { os, arch };
}

function tarballName(version, os, arch) {
  return `pulumi-resource-blockchain-v${version}-${os}-${arch}.tar.gz`;
}

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
  let sum = 0;
  for (const byte of block) sum += byte;
  put(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return block;
}

/** A gzipped tar of `entries` ({ name, data, mode }), in the order given. */
function tarGz(entries, mtime) {
  const parts = [];
  for (const { name, data, mode } of entries) {
    parts.push(tarHeader(name, data.length, mode, mtime), data);
    const pad = (512 - (data.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024)); // two empty blocks end the archive
  return zlib.gzipSync(Buffer.concat(parts), { level: 9 });
}

/** The files of the tarball for `os`. */
function entriesFor(os) {
  const read = (file) => fs.readFileSync(file);
  const launcher = { name: "pulumi-resource-blockchain", data: read(LAUNCHER), mode: 0o755 };
  const files = [
    ...(os === "windows"
      ? [{ name: "pulumi-resource-blockchain.cmd", data: read(LAUNCHER_CMD), mode: 0o755 }, launcher]
      : [launcher]),
    { name: "pulumi-resource-blockchain.js", data: read(BUNDLE), mode: 0o644 },
    { name: "pulumi-resource-blockchain.THIRD-PARTY-LICENSES.txt", data: read(LICENSES), mode: 0o644 },
  ];
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function options() {
  const { values } = util.parseArgs({
    options: {
      all: { type: "boolean" },
      os: { type: "string" },
      arch: { type: "string" },
      out: { type: "string" },
    },
  });
  if (values.os && !OSES.includes(values.os)) throw new Error(`--os: one of ${OSES.join(", ")}`);
  if (values.arch && !ARCHES.includes(values.arch)) throw new Error(`--arch: one of ${ARCHES.join(", ")}`);
  return { ...values, out: path.resolve(values.out ?? path.join(root, "build", "plugin")) };
}

function main() {
  const opts = options();
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  for (const file of [BUNDLE, LICENSES]) {
    if (!fs.existsSync(file))
      throw new Error(`${path.relative(root, file)} is missing: run npm run build first`);
  }
  // The bundle must be this version's (a stale build would report another one).
  const banner = fs.readFileSync(BUNDLE, "utf8").slice(0, 200);
  if (!banner.startsWith(`/* pulumi-resource-blockchain ${version} build `)) {
    throw new Error(`${path.relative(root, BUNDLE)} is not a build of version ${version}: run npm run build`);
  }
  const host = opts.all ? undefined : hostPlatform();
  const platforms = opts.all
    ? OSES.flatMap((os) => ARCHES.map((arch) => ({ os, arch })))
    : [{ os: opts.os ?? host.os, arch: opts.arch ?? host.arch }];
  const mtime = timestamp();
  fs.mkdirSync(opts.out, { recursive: true });
  const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
  for (const { os, arch } of platforms) {
    const tarball = path.join(opts.out, tarballName(version, os, arch));
    const entries = entriesFor(os);
    fs.writeFileSync(tarball, tarGz(entries, mtime));
    const unpacked = entries.reduce((n, e) => n + e.data.length, 0);
    log(`${path.basename(tarball)}: ${kb(fs.statSync(tarball).size)} (${kb(unpacked)} unpacked)`);
    process.stdout.write(`${tarball}\n`);
  }
  if (!opts.all) {
    const last = path.join(opts.out, tarballName(version, platforms[0].os, platforms[0].arch));
    log(
      `install it: pulumi plugin install resource blockchain ${version} --file ${path.relative(process.cwd(), last)}`,
    );
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`plugin:pack: ${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
}
