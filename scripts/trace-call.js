/**
 * `node scripts/trace-call.js getNodeOutput|pluginRead [checkout root]`, after `npm run build`:
 * the files of src/ that one `getNodeOutput({ id })` (under Pulumi's mocks) or one plugin `Read`
 * of a Network runs against the emulator, by V8's precise coverage of a second call.
 */
const path = require("path");
const inspector = require("inspector");
const which = process.argv[2];
const root = path.resolve(process.argv[3] ?? path.join(__dirname, ".."));
if (which !== "getNodeOutput" && which !== "pluginRead") {
  console.error("usage: node scripts/trace-call.js getNodeOutput|pluginRead [checkout root]");
  process.exit(2);
}
const dist = path.join(root, "dist");
const session = new inspector.Session();
session.connect();
const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
function counts(result) {
  const m = new Map();
  for (const s of result.result) {
    if (!s.url.includes("/dist/") || s.url.includes("/dist/emulator/") || s.url.includes("node_modules"))
      continue;
    const file = s.url.replace(/^file:\/\//, "");
    if (!file.startsWith(dist)) continue;
    for (const f of s.functions) {
      if (f.ranges[0].startOffset === 0) continue; // module top level
      const key = file + "#" + f.ranges[0].startOffset;
      m.set(key, (m.get(key) || 0) + f.ranges[0].count);
    }
  }
  return m;
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
        getNodeOutput({ id, apiUrl: url, apiKey }).apply((n) => {
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
  const after = counts(await post("Profiler.takePreciseCoverage"));
  const files = new Set();
  for (const [k, v] of after) if (v > 0) files.add(k.split("#")[0]);
  const list = [...files].map((f) => path.relative(dist, f).replace(/\.js$/, ".ts")).sort();
  console.log(`${which}: ${list.length} files of src/ ran`);
  for (const f of list) console.log("  src/" + f);
  await emu.close?.();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
