#!/usr/bin/env node
// node scripts/sdk-postprocess.js <sdk-dir> <language>... (python, nodejs, go), run by gen-sdk.sh:
// getNodeConnections returns credentials, and its plain invoke forms would hand them out as plain
// values; they are removed, leaving the Output forms, whose doc (the schema's) says so. Each edit
// must match the generated text once, so a new generator cannot leave a plain form behind.
"use strict";
const fs = require("fs");
const path = require("path");

const TOKEN = "blockchain:index:getNodeConnections";
const SAYS_OUTPUT_ONLY = /only the output form/i;

class PostprocessError extends Error {}
const fail = (file, message) => {
  throw new PostprocessError(`${file}: ${message}`);
};

/** Every file under `dir` (relative paths), but node_modules. */
const walk = (dir) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !path.relative(dir, e.parentPath ?? e.path).includes("node_modules"))
    .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)));

/** The one file named `name` under `dir`. */
function findOne(dir, name) {
  const hits = walk(dir).filter((f) => path.basename(f) === name);
  if (hits.length !== 1) fail(dir, `expected one generated ${name}, found ${hits.length}`);
  return path.join(dir, hits[0]);
}

/** Applies `edits` ([pattern, replacement]) to `file`; each pattern must match once. */
function edit(file, edits) {
  if (!fs.existsSync(file)) fail(file, "missing");
  let text = fs.readFileSync(file, "utf8");
  for (const [pattern, replacement] of edits) {
    const found = text.match(new RegExp(pattern.source, `${pattern.flags}g`)) ?? [];
    if (found.length !== 1)
      fail(file, `expected ${pattern} once, found it ${found.length} times; the generator output changed`);
    text = text.replace(pattern, replacement);
  }
  fs.writeFileSync(file, text);
  return file;
}

/** The doc of the Output form (`doc` matches it) must say that it is the only form. */
const outputOnly = (doc) => [
  doc,
  (m) =>
    SAYS_OUTPUT_ONLY.test(m) ? m : fail(TOKEN, `the Output form's doc does not say it is the only form`),
];

const LANGUAGES = {
  python: (dir) => [
    edit(findOne(dir, "get_node_connections.py"), [
      [/^ {4}'get_node_connections',\n/m, ""],
      [/^def get_node_connections\([^]*?\n(?=def get_node_connections_output\()/m, ""],
      outputOnly(/^def get_node_connections_output\([^]*?"""[^]*?"""/m),
    ]),
  ],
  nodejs: (dir) => [
    edit(findOne(dir, "getNodeConnections.ts"), [
      [/^\/\*\*\n(?: \*.*\n)* \*\/\nexport function getNodeConnections\([^]*?\n}\n\n?/m, ""],
      outputOnly(/^\/\*\*\n(?: \*.*\n)* \*\/\nexport function getNodeConnectionsOutput\(/m),
    ]),
    // The module's index re-exports both names lazily; only the Output form remains.
    edit(path.join(path.dirname(findOne(dir, "getNodeConnections.ts")), "index.ts"), [
      [/^export const getNodeConnections: .*\n/m, ""],
      [/\["getNodeConnections","getNodeConnectionsOutput"\]/, '["getNodeConnectionsOutput"]'],
    ]),
  ],
  go: (dir) => {
    let doc = "";
    return [
      edit(findOne(dir, "getNodeConnections.go"), [
        [/^((?:\/\/.*\n)*)func GetNodeConnections\([^]*?\n}\n\n?/m, (_m, comment) => ((doc = comment), "")],
        // The plain form's doc comment goes to the Output form, when that has none.
        [/^(?!\/\/)(.*\n)func GetNodeConnectionsOutput\(/m, (m, line) => line + doc + m.slice(line.length)],
        outputOnly(/^(?:\/\/.*\n)+func GetNodeConnectionsOutput\(/m),
      ]),
    ];
  },
};

function main([root, ...langs]) {
  if (!root || langs.length === 0 || langs.some((l) => !LANGUAGES[l])) {
    console.error("usage: node scripts/sdk-postprocess.js <sdk-dir> <language>... (python, nodejs, go)");
    return 2;
  }
  try {
    for (const lang of langs) {
      const dir = path.join(root, lang);
      if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) fail(dir, "no such directory");
      const files = LANGUAGES[lang](dir);
      const invokes = [`invoke('${TOKEN}'`, `invoke("${TOKEN}"`, `Invoke("${TOKEN}"`];
      const left = walk(dir).filter((f) =>
        invokes.some((p) => fs.readFileSync(path.join(dir, f), "utf8").includes(p)),
      );
      if (left.length) fail(dir, `a plain invoke of ${TOKEN} is still generated in: ${left.join(", ")}`);
      const edited = files.map((f) => path.relative(root, f)).join(", ");
      console.error(`sdk-postprocess: ${lang}: ${TOKEN} in Output form only (${edited})`);
    }
  } catch (err) {
    if (!(err instanceof PostprocessError)) throw err;
    console.error(`sdk-postprocess: FAILED: ${err.message}`);
    console.error(
      "sdk-postprocess: update scripts/sdk-postprocess.js so that getNodeConnections keeps only its Output form.",
    );
    return 1;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
