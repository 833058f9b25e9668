#!/usr/bin/env node
// Reads jest's --json output and prints the time of each tier and one closing line
// "N passed, N failed, N skipped" computed from the run; extra checks run outside jest are given
// as arguments "name:passed" or "name:failed" and counted too. Exits 1 when anything failed or
// the results file is missing.
"use strict";
const fs = require("fs");
const path = require("path");

const file = process.argv[2];
if (!file || !fs.existsSync(file)) {
  console.error(`no jest results at ${file}: the test run did not complete`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const r = JSON.parse(fs.readFileSync(file, "utf8"));
const tiers = {};
for (const suite of r.testResults) {
  const rel = path.relative(path.resolve(__dirname, ".."), suite.name);
  const tier = rel.split(path.sep)[1] || rel;
  const seconds = (suite.endTime - suite.startTime) / 1000;
  tiers[tier] = (tiers[tier] || 0) + seconds;
}
for (const [tier, seconds] of Object.entries(tiers).sort()) {
  console.log(`tier ${tier}: ${seconds.toFixed(1)} s`);
}
const extra = process.argv.slice(3).map((arg) => arg.split(":"));
for (const [name, result] of extra) console.log(`check ${name}: ${result}`);
const extraPassed = extra.filter(([, result]) => result === "passed").length;
const extraFailed = extra.length - extraPassed;
const failedSuites = r.numFailedTestSuites || 0;
const failed = r.numFailedTests + (r.numRuntimeErrorTestSuites || 0) + extraFailed;
const skipped = r.numPendingTests + (r.numTodoTests || 0);
if (failedSuites > 0 && r.numFailedTests === 0) {
  console.log(`${failedSuites} test suite(s) failed to run`);
}
console.log(`${r.numPassedTests + extraPassed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || !r.success ? 1 : 0);
