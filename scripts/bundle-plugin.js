#!/usr/bin/env node
/**
 * `npm run build`'s last step: the provider plugin in one file, dist/plugin/pulumi-resource-blockchain.js
 * (esbuild), with its dependencies, the package's version and schema.json, and the licences of
 * what it bundles beside it. gRPC and protobuf come from `@pulumi/pulumi`'s own folder (the copies
 * its stubs use); `whatwg-url` is Node's own `URL` (its Unicode tables were most of the load
 * time); `@grpc/proto-loader` is a stub (gRPC loads it only for channelz and ORCA, served by no
 * plugin). `--metafile` prints what takes the room.
 */
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const OUT_DIR = path.join(root, "dist", "plugin");
const BUNDLE = "pulumi-resource-blockchain.js";
const LICENSES = "pulumi-resource-blockchain.THIRD-PARTY-LICENSES.txt";

const log = (line) => process.stderr.write(`bundle-plugin: ${line}\n`);

/** The folder of the installed `@pulumi/pulumi` (where its stubs resolve gRPC and protobuf from). */
const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [root] }));
/** The folder of the copy of `name` that `@pulumi/pulumi` resolves. */
const fromSdk = (name) => path.dirname(require.resolve(`${name}/package.json`, { paths: [sdkDir] }));

const standIns = {
  name: "stand-ins",
  setup(build) {
    build.onResolve({ filter: /^(whatwg-url|@grpc\/proto-loader)$/ }, (args) => ({
      path: args.path,
      namespace: "stand-in",
    }));
    build.onLoad({ filter: /.*/, namespace: "stand-in" }, (args) => ({
      contents:
        args.path === "whatwg-url"
          ? 'module.exports = { URL: require("url").URL };'
          : 'throw new Error("@grpc/proto-loader is not in the bundled plugin (it serves neither channelz nor ORCA)");',
      loader: "js",
    }));
  },
};

/** The licence texts of the packages under node_modules that went into the bundle. */
function thirdPartyLicenses(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (!m) continue;
    const dir = path.resolve(root, m[1]);
    if (packages.has(dir)) continue;
    const meta = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? fs.readFileSync(path.join(dir, file), "utf8").trim() : `License: ${meta.license}`;
    packages.set(dir, `${meta.name}@${meta.version} (${meta.license})\n\n${text}\n`);
  }
  const sorted = [...packages.values()].sort();
  return (
    "The provider plugin of pulumi-blockchain-nodes (Apache-2.0) bundles these packages:\n\n" +
    sorted.join(`\n${"-".repeat(78)}\n\n`)
  );
}

async function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const schema = fs.readFileSync(path.join(root, "schema.json"), "utf8");
  const t = Date.now();
  const result = await esbuild.build({
    stdin: {
      // Run as a program (`node pulumi-resource-blockchain.js`), it serves; loaded by the
      // launcher (bin/pulumi-resource-blockchain, with its code cache), it exports main.
      contents:
        'const { main } = require("./main");\n' +
        "if (require.main === module) main();\n" +
        "else module.exports = { main };\n",
      resolveDir: path.join(root, "src", "plugin"),
      sourcefile: "src/plugin/bundle-entry.js",
      loader: "js",
    },
    bundle: true,
    platform: "node",
    target: "node18",
    minify: true,
    // Error classes keep their names (messages and `name` checks rely on them).
    keepNames: true,
    legalComments: "none",
    metafile: true,
    absWorkingDir: root,
    outfile: path.join(OUT_DIR, BUNDLE),
    write: false,
    define: {
      BLOCKCHAIN_PLUGIN_BUNDLED: "true",
      BLOCKCHAIN_PLUGIN_VERSION: JSON.stringify(pkg.version),
      BLOCKCHAIN_PLUGIN_SCHEMA: JSON.stringify(schema),
    },
    alias: { "@grpc/grpc-js": fromSdk("@grpc/grpc-js"), "google-protobuf": fromSdk("google-protobuf") },
    plugins: [standIns],
    // Named only in the unbundled branches of src/plugin/server.ts and src/provider/calls.ts.
    external: ["@pulumi/pulumi/package.json"],
  });
  const code = result.outputFiles[0].text;
  // The first line names the build: the hash of the code below it, which the launcher's code
  // cache is keyed by (see bin/pulumi-resource-blockchain).
  const build = crypto.createHash("sha256").update(code).digest("hex").slice(0, 16);
  const banner = `/* pulumi-resource-blockchain ${pkg.version} build ${build}: the blockchain provider plugin of pulumi-blockchain-nodes, bundled by scripts/bundle-plugin.js; third-party licences in ${LICENSES} */\n`;
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.writeFileSync(path.join(OUT_DIR, BUNDLE), banner + code);
  fs.writeFileSync(path.join(OUT_DIR, LICENSES), thirdPartyLicenses(result.metafile));
  const size = fs.statSync(path.join(OUT_DIR, BUNDLE)).size;
  log(`dist/plugin/${BUNDLE}: ${(size / 1024).toFixed(0)} KiB in ${Date.now() - t} ms`);
  if (process.argv.includes("--metafile"))
    process.stderr.write(await esbuild.analyzeMetafile(result.metafile));
}

main().catch((err) => {
  process.stderr.write(`bundle-plugin: ${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
});
