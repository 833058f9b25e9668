import { describeRequest } from "../../src/emulator/http/request-line";
import { call, drip, rawRequest, withEmulator } from "../helpers/emulator";

/** A value that must never reach the log; only letters and digits, so no encoding hides it. */
const SECRET = "sk9live9Qz7Xw3Vb5Nm1Kp8Rt2Ly6Hd4";

describe("--verbose log (quiet: false)", () => {
  const emulator = withEmulator({ seed: 21, quiet: false }, { each: true });
  let lines: string[];
  beforeEach(() => {
    lines = [];
    jest.spyOn(process.stderr, "write").mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  });
  afterEach(() => jest.restoreAllMocks());
  const output = () => lines.join("");

  test("a secret in a path segment, a query name, a query value, a header or a body never appears", async () => {
    const key = emulator().apiKey;
    const network = emulator().fixtures.emptyNetwork;
    const paths = [
      `/v1/networks/${SECRET}/`,
      `/v1/nodes/${SECRET}/`,
      `/${SECRET}/v1/nodes/`,
      `/v1/${SECRET}`,
      `/v1/nodes/?api_key=${SECRET}`,
      `/v1/nodes/?api_key=${key}`,
      `/v1/nodes/?${SECRET}=1`,
      `/v1/nodes/?name=${SECRET}`,
      `/v1/nodes/?region=${SECRET}&provider=${SECRET}&network=${SECRET}&archive=${SECRET}`,
      `/v1/nodes/?page=${SECRET}&order_by=${SECRET}`,
      `/v1/networks/${network}/?token=${SECRET}`,
      `/v1/faucet/goerli?key=${SECRET}`,
      `/v1/nodes/${encodeURIComponent(`ND-1/${SECRET}`)}/`,
      `/_emulator/${SECRET}`,
      `/_emulator/faults?key=${SECRET}`,
      `/v1/faucet/${SECRET}`,
      `/v1/faucet/${SECRET.toLowerCase()}`,
      `/_emulator/keys/${SECRET}/rotate`,
    ];
    for (const path of paths) await rawRequest(emulator(), path, { headers: { "X-Api-Key": SECRET } });
    await call(emulator(), `/v1/networks/${network}/`, {
      method: "PATCH",
      body: { name: SECRET },
      headers: { "X-Api-Key": SECRET, Cookie: `session=${SECRET}` },
    });
    await drip(emulator(), SECRET);
    await call(emulator(), "/v1/nodes/", { key: SECRET });
    await call(emulator(), "/_emulator/faults", { key: SECRET });
    await call(emulator(), "/_emulator/faults", { key: emulator().adminKey });
    const text = output();
    expect(lines.length).toBe(paths.length + 5);
    for (const secret of [SECRET, SECRET.toLowerCase(), key, emulator().adminKey])
      expect(text).not.toContain(secret);
    for (const name of ["api_key", "token", "session"]) expect(text).not.toContain(name);
    expect(lines[0]).toMatch(/^GET \/v1\/networks\/\{id\}\/ id=\(hidden\) -> 405 \(\d+ ms\)\n$/);
    expect(lines[2]).toMatch(/^GET \(unmatched route\) -> 404 /);
    expect(lines[4]).toMatch(/^GET \/v1\/nodes\/ query: \+1 other query parameter -> 200 /);
    expect(lines[7]).toMatch(/^GET \/v1\/nodes\/ query: name=\(hidden\) -> 200 /);
    for (const name of ["region", "provider", "network", "archive"])
      expect(lines[8]).toContain(` ${name}=(hidden)`);
    expect(lines[13]).toMatch(/^GET \(unmatched route\) -> 404 .*\[admin\]\n$/);
    expect(lines[paths.length - 1]).toMatch(
      /^GET \/_emulator\/keys\/\{organization\}\/rotate -> 401 .*\[admin\]\n$/,
    );
    expect(lines.at(-1)).toMatch(/^GET \/_emulator\/faults -> 200 .*\[admin\]\n$/);
  });

  test("what cannot carry a secret is shown: route template, well-formed ids, allowed filter values, status, fault", async () => {
    const network = emulator().fixtures.emptyNetwork;
    await call(emulator(), `/v1/networks/${network}/`, { method: "PATCH", body: { name: "renamed" } });
    await call(
      emulator(),
      "/v1/nodes/?region=us-east-1&provider=aws&archive=true&network=NW-100-000-1&page=1&order_by=-name&name=x&region=uksouth",
    );
    emulator().enqueueFaults([{ status: 503 }, { drop: true, after: "processing" }]);
    await call(emulator(), `/v1/nodes/${emulator().fixtures.beaconNode}/`);
    await drip(emulator()).catch(() => undefined);
    expect(lines).toEqual([
      expect.stringMatching(/^PATCH \/v1\/networks\/\{id\}\/ id=NW-100-000-2 -> 200 \(\d+ ms\)\n$/),
      expect.stringMatching(
        /^GET \/v1\/nodes\/ query: provider=aws archive=true network=NW-100-000-1 page=1 order_by=-name name=\(hidden\) region=uksouth -> 200 /,
      ),
      expect.stringMatching(/^GET \/v1\/nodes\/\{id\}\/ id=ND-100-000-001 -> 503 .*\[fault 503\]\n$/),
      expect.stringMatching(/^POST \/v1\/faucet\/goerli -> dropped .*\[fault drop-after-processing\]\n$/),
    ]);
  });

  test("describeRequest: the pure rule (filters only on the node list; only a served chain's faucet by name)", () => {
    const cases: Array<[Parameters<typeof describeRequest>, string]> = [
      [["GET", "/v1/nodes/NW-1/", ""], "GET /v1/nodes/{id}/ id=(hidden)"],
      [["GET", `/v1/nodes/${SECRET}`, ""], "GET (unmatched route)"],
      [["GET", "/v1/nodes/", `${SECRET}=1&x=${SECRET}`], "GET /v1/nodes/ query: +2 other query parameters"],
      [
        ["GET", "/v1/nodes/", "page=0&status=running&type="],
        "GET /v1/nodes/ query: page=(hidden) status=running type=",
      ],
      [
        ["POST", "/v1/faucet/goerli", "region=uksouth"],
        "POST /v1/faucet/goerli query: +1 other query parameter",
      ],
      [["BREW", "/v1/nodes/", ""], "(other method) /v1/nodes/"],
      [["POST", "/v1/faucet/sepolia", ""], "POST /v1/faucet/sepolia"],
      [["POST", `/v1/faucet/${SECRET.toLowerCase()}`, ""], "POST /v1/faucet/{chain}"],
      [["POST", "/v1/faucet/amoy", "", ["amoy"]], "POST /v1/faucet/amoy"],
      [["POST", "/v1/faucet/goerli", "", ["amoy"]], "POST /v1/faucet/{chain}"],
    ];
    for (const [args, line] of cases) expect(describeRequest(...args)).toBe(line);
  });
});
