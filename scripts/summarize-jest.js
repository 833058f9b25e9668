#!/usr/bin/env node
// node scripts/summarize-jest.js <jest --json output> [name:passed|name:failed]...: the time of
// each tier (jest.config.js's projects, a file placed by its path), then "N passed, N failed, N
// skipped", the extra checks counted too; exits 1 when anything failed or there is no output.
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
/** The tiers in the config's order; each tier's tests live in the folder of its name under test/. */
const known = require(path.join(root, "jest.config.js")).projects.map((p) => p.displayName);
const tierOf = (file) => path.relative(root, file).split(path.sep)[1] ?? file;

const file = process.argv[2];
if (!file || !fs.existsSync(file)) {
  console.error(`no jest results at ${file}: the test run did not complete`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const r = JSON.parse(fs.readFileSync(file, "utf8"));
const tiers = new Map(known.map((t) => [t, undefined]));
for (const suite of r.testResults) {
  const tier = tierOf(suite.name);
  tiers.set(tier, (tiers.get(tier) ?? 0) + (suite.endTime - suite.startTime) / 1000);
}
for (const [tier, seconds] of tiers)
  if (seconds !== undefined) console.log(`tier ${tier}: ${seconds.toFixed(1)} s`);
const extra = process.argv.slice(3).map((arg) => arg.split(":"));
for (const [name, result] of extra) console.log(`check ${name}: ${result}`);
const extraPassed = extra.filter(([, result]) => result === "passed").length;
const failed = r.numFailedTests + (r.numRuntimeErrorTestSuites || 0) + extra.length - extraPassed;
if (r.numFailedTestSuites > 0 && r.numFailedTests === 0)
  console.log(`${r.numFailedTestSuites} test suite(s) failed to run`);
console.log(
  `${r.numPassedTests + extraPassed} passed, ${failed} failed, ${r.numPendingTests + (r.numTodoTests || 0)} skipped`,
);
process.exit(failed > 0 || !r.success ? 1 : 0);
