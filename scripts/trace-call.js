/**
 * `node scripts/trace-call.js getNodeOutput|pluginRead [--verify] [checkout root]`, after `npm run build`:
 * the files of src/ that one `getNodeOutput({ id })` (`{ id, verify: true }` with `--verify`; under
 * Pulumi's mocks) or one plugin `Read` of a Network runs against the emulator, by V8's precise
 * coverage of a second call.
 */
const path = require("path");
const inspector = require("inspector");
const verify = process.argv.includes("--verify");
const [which, rootArg] = process.argv.slice(2).filter((a) => a !== "--verify");
const root = path.resolve(rootArg ?? path.join(__dirname, ".."));
if (which !== "getNodeOutput" && which !== "pluginRead") {
  console.error("usage: node scripts/trace-call.js getNodeOutput|pluginRead [--verify] [checkout root]");
  process.exit(2);
}
const dist = path.join(root, "dist");
const session = new inspector.Session();
session.connect();
const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
/** The files of dist/ (not the emulator's) in which a function other than the module's top level ran. */
function filesRun(result) {
  const files = new Set();
  for (const s of result.result) {
    const file = s.url.replace(/^file:\/\//, "");
    if (!file.startsWith(dist + path.sep) || file.startsWith(path.join(dist, "emulator"))) continue;
    if (s.functions.some((f) => f.ranges[0].startOffset !== 0 && f.ranges[0].count > 0)) files.add(file);
  }
  return files;
}
(async () => {
  await post("Profiler.enable");
  await post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  const { startEmulator } = require(path.join(dist, "emulator"));
  const emu = await startEmulator({ port: 0 });
  const apiKey = emu.apiKey ?? Object.values(emu.keys ?? {})[0];
  const url = emu.url;
  let run;
  if (which === "getNodeOutput") {
    const pulumi = require(path.join(root, "node_modules/@pulumi/pulumi"));
    pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: a.name, state: a.inputs }), call: (a) => a.inputs },
      "p",
      "s",
      false,
    );
    const { getNodeOutput } = require(path.join(dist, "index.js"));
    const id = "ND-100-000-001";
    run = () =>
      new Promise((res) =>
        getNodeOutput({ id, apiUrl: url, apiKey, ...(verify ? { verify: true } : {}) }).apply((n) => {
          res(n);
          return n;
        }),
      );
  } else {
    const server = require(path.join(dist, "plugin/server.js"));
    const sdkRequire = require("module").createRequire(
      require.resolve(path.join(root, "node_modules/@pulumi/pulumi/package.json")),
    );
    const proto = sdkRequire("./proto/provider_pb");
    const { Struct } = sdkRequire("google-protobuf/google/protobuf/struct_pb");
    const call = (m, req) =>
      new Promise((res, rej) => server.providerService[m]({ request: req }, (e, v) => (e ? rej(e) : res(v))));
    const conf = new proto.ConfigureRequest();
    conf.setArgs(Struct.fromJavaScript({ apiUrl: url, apiKey }));
    await call("configure", conf);
    const urn = "urn:pulumi:s::p::blockchain:index:Network::main";
    const req = new proto.ReadRequest();
    req.setUrn(urn);
    req.setId("NW-100-000-1");
    req.setProperties(Struct.fromJavaScript({ networkId: "NW-100-000-1", managedInputs: [] }));
    req.setInputs(Struct.fromJavaScript({ networkId: "NW-100-000-1" }));
    run = () => call("read", req);
  }
  await run(); // warm-up (lazy requires, first-call setup), not counted
  await post("Profiler.takePreciseCoverage"); // resets the counters
  await run();
  const files = filesRun(await post("Profiler.takePreciseCoverage"));
  const list = [...files].map((f) => path.relative(dist, f).replace(/\.js$/, ".ts")).sort();
  console.log(`${which}${verify ? " (verify)" : ""}: ${list.length} files of src/ ran`);
  for (const f of list) console.log("  src/" + f);
  await emu.close?.();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
