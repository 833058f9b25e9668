#!/usr/bin/env node
// node scripts/sdk-postprocess.js <sdk-dir> <language>... (python, nodejs, go), run by gen-sdk.sh:
// getNodeConnections returns credentials, and its plain invoke forms would hand them out as plain
// values; they are removed, leaving the Output forms with a note. Each edit checks the generated
// text's shape and fails naming what it did not find, so a new generator cannot leave one behind.
"use strict";
const fs = require("fs");
const path = require("path");

const TOKEN = "blockchain:index:getNodeConnections";
const NOTE = "Output form only: the result is secret as a whole.";
/** A doc comment that already says so gets no note. */
const SAYS_OUTPUT_ONLY = /output form only|only the output form/i;

class PostprocessError extends Error {}

function fail(file, message) {
  throw new PostprocessError(`${file}: ${message}`);
}

/** All files under dir (relative, sorted), but node_modules. */
function walk(dir) {
  const out = [];
  const visit = (rel) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") visit(child);
      } else if (entry.isFile()) {
        out.push(child);
      }
    }
  };
  visit("");
  return out.sort();
}

/** The one file of the given base name under dir. */
function findOne(dir, baseName) {
  const hits = walk(dir).filter((f) => path.posix.basename(f) === baseName);
  if (hits.length !== 1) {
    fail(
      dir,
      `expected exactly one generated ${baseName}, found ${hits.length}: ${hits.join(", ") || "none"}`,
    );
  }
  return path.join(dir, hits[0]);
}

/** Index of the one occurrence of needle in text; fails when it occurs 0 or several times. */
function indexOfOnce(text, needle, file) {
  const i = text.indexOf(needle);
  if (i < 0) fail(file, `expected text not found: ${JSON.stringify(needle)}`);
  if (text.indexOf(needle, i + 1) >= 0)
    fail(file, `expected text found more than once: ${JSON.stringify(needle)}`);
  return i;
}

function replaceOnce(text, needle, replacement, file) {
  const i = indexOfOnce(text, needle, file);
  return text.slice(0, i) + replacement + text.slice(i + needle.length);
}

function lineStart(text, i) {
  return text.lastIndexOf("\n", i - 1) + 1;
}

function nextLineStart(text, i) {
  const n = text.indexOf("\n", i);
  return n < 0 ? text.length : n + 1;
}

/** Start of the comment lines just above the line at `start` (`start` when none). */
function commentAbove(text, start, isCommentLine) {
  let s = start;
  while (s > 0) {
    const prev = lineStart(text, s - 1);
    if (!isCommentLine(text.slice(prev, s - 1))) break;
    s = prev;
  }
  return s;
}

function requireIn(block, needles, file, what) {
  for (const n of needles) {
    if (!block.includes(n))
      fail(file, `${what} does not contain ${JSON.stringify(n)}; the generator output changed`);
  }
}

function python(dir) {
  const file = findOne(dir, "get_node_connections.py");
  let text = fs.readFileSync(file, "utf8");

  text = replaceOnce(text, "    'get_node_connections',\n", "", file);

  // From its `def` to the next top-level line, which must be the Output form.
  const start = lineStart(text, indexOfOnce(text, "\ndef get_node_connections(", file) + 1);
  let end = nextLineStart(text, start);
  while (end < text.length && /^(\s|$)/.test(text.slice(end, nextLineStart(text, end)))) {
    end = nextLineStart(text, end);
  }
  if (!text.startsWith("def get_node_connections_output(", end)) {
    fail(file, "the plain get_node_connections is not followed by def get_node_connections_output(");
  }
  const block = text.slice(start, end);
  requireIn(
    block,
    [`pulumi.runtime.invoke('${TOKEN}'`, "opts: Optional[pulumi.InvokeOptions]"],
    file,
    "def get_node_connections",
  );
  text = text.slice(0, start) + text.slice(end);

  // The note, in the Output form's docstring (written if there is none).
  const def = indexOfOnce(text, "\ndef get_node_connections_output(", file) + 1;
  const sigEnd = text.indexOf(") -> pulumi.Output[GetNodeConnectionsResult]:\n", def);
  if (sigEnd < 0) fail(file, "signature of get_node_connections_output not found");
  const bodyStart = nextLineStart(text, sigEnd);
  if (text.startsWith('    """\n', bodyStart)) {
    const close = text.indexOf('    """\n', bodyStart + 1);
    if (close < 0) fail(file, "unterminated docstring of get_node_connections_output");
    if (!SAYS_OUTPUT_ONLY.test(text.slice(bodyStart, close))) {
      text = text.slice(0, close) + `\n    ${NOTE}\n` + text.slice(close);
    }
  } else {
    text = text.slice(0, bodyStart) + `    """\n    ${NOTE}\n    """\n` + text.slice(bodyStart);
  }

  if (/^def get_node_connections\(/m.test(text) || text.includes("'get_node_connections'")) {
    fail(file, "the plain get_node_connections is still present");
  }
  fs.writeFileSync(file, text);
  return [file];
}

const isJsDocLine = (line) => /^\s*(\/\*\*|\*)/.test(line);

function nodejs(dir) {
  const file = findOne(dir, "getNodeConnections.ts");
  let text = fs.readFileSync(file, "utf8");

  const fn = lineStart(text, indexOfOnce(text, "\nexport function getNodeConnections(", file) + 1);
  const start = commentAbove(text, fn, isJsDocLine);
  const close = text.indexOf("\n}\n", fn);
  if (close < 0) fail(file, "end of the plain getNodeConnections not found");
  const end = close + 3;
  requireIn(
    text.slice(fn, end),
    [`pulumi.runtime.invoke("${TOKEN}"`, "): Promise<GetNodeConnectionsResult> {"],
    file,
    "export function getNodeConnections",
  );
  text = text.slice(0, start) + text.slice(text.startsWith("\n", end) ? end + 1 : end);

  const out = lineStart(text, indexOfOnce(text, "\nexport function getNodeConnectionsOutput(", file) + 1);
  requireIn(
    text.slice(out, text.indexOf("\n", out)),
    ["pulumi.Output<GetNodeConnectionsResult>"],
    file,
    "getNodeConnectionsOutput",
  );
  const docStart = commentAbove(text, out, isJsDocLine);
  if (docStart < out) {
    const endDoc = text.lastIndexOf(" */\n", out);
    if (endDoc < docStart) fail(file, "doc comment of getNodeConnectionsOutput not understood");
    if (!SAYS_OUTPUT_ONLY.test(text.slice(docStart, endDoc))) {
      text = text.slice(0, endDoc) + ` *\n * ${NOTE}\n` + text.slice(endDoc);
    }
  } else {
    text = text.slice(0, out) + `/**\n * ${NOTE}\n */\n` + text.slice(out);
  }
  if (/export function getNodeConnections\(/.test(text))
    fail(file, "the plain getNodeConnections is still present");
  fs.writeFileSync(file, text);

  // The module's index re-exports both names lazily; only the Output form remains.
  const index = path.join(path.dirname(file), "index.ts");
  if (!fs.existsSync(index)) fail(index, "missing (expected next to getNodeConnections.ts)");
  let idx = fs.readFileSync(index, "utf8");
  idx = replaceOnce(
    idx,
    'export const getNodeConnections: typeof import("./getNodeConnections").getNodeConnections = null as any;\n',
    "",
    index,
  );
  const lazy =
    /utilities\.lazyLoad\(exports, \[([^\]\n]*)\], \(\) => require\("\.\/getNodeConnections"\)\);/g;
  const matches = [...idx.matchAll(lazy)];
  if (matches.length !== 1)
    fail(index, `expected one lazyLoad of ./getNodeConnections, found ${matches.length}`);
  const names = matches[0][1].split(",").map((s) => s.trim());
  if (
    names.filter((n) => n === '"getNodeConnections"').length !== 1 ||
    !names.includes('"getNodeConnectionsOutput"')
  ) {
    fail(index, `unexpected lazyLoad names for ./getNodeConnections: [${matches[0][1]}]`);
  }
  const kept = names.filter((n) => n !== '"getNodeConnections"').join(",");
  idx = idx.replace(matches[0][0], matches[0][0].replace(`[${matches[0][1]}]`, `[${kept}]`));
  if (
    /\bgetNodeConnections\b(?!Output|Args|Result|OutputArgs)/.test(
      idx.replace(/"\.\/getNodeConnections"/g, ""),
    )
  ) {
    fail(index, "getNodeConnections is still exported");
  }
  fs.writeFileSync(index, idx);
  return [file, index];
}

const isGoCommentLine = (line) => /^\/\//.test(line);

function go(dir) {
  const file = findOne(dir, "getNodeConnections.go");
  let text = fs.readFileSync(file, "utf8");

  const fn = lineStart(text, indexOfOnce(text, "\nfunc GetNodeConnections(", file) + 1);
  const start = commentAbove(text, fn, isGoCommentLine);
  const doc = text.slice(start, fn);
  const close = text.indexOf("\n}\n", fn);
  if (close < 0) fail(file, "end of the plain GetNodeConnections not found");
  const end = close + 3;
  requireIn(
    text.slice(fn, end),
    [`ctx.Invoke("${TOKEN}"`, "(*GetNodeConnectionsResult, error) {"],
    file,
    "func GetNodeConnections",
  );
  // Drop the blank line that separated it from the next declaration.
  text = text.slice(0, start) + text.slice(text.startsWith("\n", end) ? end + 1 : end);

  // The plain function's doc comment moves to the Output form, with the note.
  const out = lineStart(text, indexOfOnce(text, "\nfunc GetNodeConnectionsOutput(", file) + 1);
  const outDoc = commentAbove(text, out, isGoCommentLine);
  let comment = outDoc < out ? text.slice(outDoc, out) : doc;
  if (!SAYS_OUTPUT_ONLY.test(comment)) comment += (comment ? "//\n" : "") + `// ${NOTE}\n`;
  text = text.slice(0, outDoc) + comment + text.slice(out);

  if (/^func GetNodeConnections\(/m.test(text)) fail(file, "the plain GetNodeConnections is still present");
  fs.writeFileSync(file, text);
  return [file];
}

const LANGUAGES = { python, nodejs, go };

/** Files that still call the plain invoke of the function (any language). */
function plainInvokes(dir) {
  const patterns = [
    `pulumi.runtime.invoke('${TOKEN}'`,
    `pulumi.runtime.invoke("${TOKEN}"`,
    `ctx.Invoke("${TOKEN}"`,
  ];
  return walk(dir).filter((f) => {
    const text = fs.readFileSync(path.join(dir, f), "utf8");
    return patterns.some((p) => text.includes(p));
  });
}

function main(argv) {
  const [root, ...langs] = argv;
  if (!root || langs.length === 0) {
    console.error("usage: node scripts/sdk-postprocess.js <sdk-dir> <language>... (python, nodejs, go)");
    return 2;
  }
  try {
    for (const lang of langs) {
      if (!LANGUAGES[lang]) {
        console.error(`sdk-postprocess: unknown language ${lang}`);
        return 2;
      }
      const dir = path.join(root, lang);
      if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) fail(dir, "no such directory");
      const files = LANGUAGES[lang](dir);
      const left = plainInvokes(dir);
      if (left.length) fail(dir, `a plain invoke of ${TOKEN} is still generated in: ${left.join(", ")}`);
      console.error(
        `sdk-postprocess: ${lang}: ${TOKEN} in Output form only (${files.map((f) => path.relative(root, f)).join(", ")})`,
      );
    }
  } catch (err) {
    if (!(err instanceof PostprocessError)) throw err;
    console.error(`sdk-postprocess: FAILED: ${err.message}`);
    console.error(
      "sdk-postprocess: the generated SDK no longer has the expected shape; update scripts/sdk-postprocess.js " +
        "so that getNodeConnections keeps only its Output form.",
    );
    return 1;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
