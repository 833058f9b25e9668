/**
 * `node scripts/trace-call.js [--verify] [checkout root]`, after `npm run build`: the files of src/
 * that one `getNodeOutput({ id })` (`{ id, verify: true }` with `--verify`), under Pulumi's mocks,
 * runs against the emulator, by V8's precise coverage of a second call.
 */
const path = require("path");
const inspector = require("inspector");
const verify = process.argv.includes("--verify");
const root = path.resolve(process.argv.slice(2).find((a) => a !== "--verify") ?? path.join(__dirname, ".."));
const dist = path.join(root, "dist");
const session = new inspector.Session();
session.connect();
const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));

(async () => {
  await post("Profiler.enable");
  await post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  const emu = await require(path.join(dist, "emulator")).startEmulator({ port: 0 });
  const pulumi = require(path.join(root, "node_modules/@pulumi/pulumi"));
  const mocks = { newResource: (a) => ({ id: a.name, state: a.inputs }), call: (a) => a.inputs };
  pulumi.runtime.setMocks(mocks, "p", "s", false);
  const { getNodeOutput } = require(path.join(dist, "index.js"));
  const args = {
    id: "ND-100-000-001",
    apiUrl: emu.url,
    apiKey: emu.apiKey,
    ...(verify ? { verify: true } : {}),
  };
  const run = () => new Promise((resolve) => getNodeOutput(args).apply(resolve));
  await run(); // warm-up (lazy requires, first-call setup), not counted
  await post("Profiler.takePreciseCoverage"); // resets the counters
  await run();
  // The files of dist/ (not the emulator's) in which a function other than the module's top level ran.
  const files = new Set();
  for (const s of (await post("Profiler.takePreciseCoverage")).result) {
    const file = s.url.replace(/^file:\/\//, "");
    if (!file.startsWith(dist + path.sep) || file.startsWith(path.join(dist, "emulator"))) continue;
    if (s.functions.some((f) => f.ranges[0].startOffset !== 0 && f.ranges[0].count > 0)) files.add(file);
  }
  const list = [...files].map((f) => path.relative(dist, f).replace(/\.js$/, ".ts")).sort();
  console.log(`getNodeOutput${verify ? " (verify)" : ""}: ${list.length} files of src/ ran`);
  for (const f of list) console.log("  src/" + f);
  await emu.close();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
