import { once } from "events";
import * as net from "net";
import { startEmulator } from "../../src/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { call, withEmulator } from "../helpers/emulator";

/** A raw connection: `waitFor` resolves with the text received once it fits; `closed` once the server closed it. */
async function connect(emulator: RunningEmulator) {
  const { hostname, port } = new URL(emulator.url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  socket.on("error", () => undefined);
  await once(socket, "connect");
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  const closed = new Promise<void>((done) => socket.once("close", () => done()));
  const waitFor = async (pattern: RegExp) => {
    while (!pattern.test(text)) {
      if (socket.destroyed) throw new Error(`closed after: ${text}`);
      await Promise.race([once(socket, "data").catch(() => undefined), closed]);
    }
    return text;
  };
  return { socket, received: () => text, waitFor, closed };
}

const head = (emulator: RunningEmulator, extra: string[]) =>
  [
    `PATCH /v1/networks/${emulator.fixtures.emptyNetwork}/ HTTP/1.1`,
    `Host: ${new URL(emulator.url).host}`,
    `Authorization: Bearer ${emulator.apiKey}`,
    "Content-Type: application/json",
    ...extra,
    "",
    "",
  ].join("\r\n");

/** Waits for a 413 `payload_too_large` with `Connection: close`, then for the server to close; the text received. */
async function refused(conn: Awaited<ReturnType<typeof connect>>): Promise<string> {
  const text = await conn.waitFor(/\r\n\r\n\{.*\}$/s);
  expect(text).toMatch(/^HTTP\/1\.1 413 [^]*connection: close[^]*"code":"payload_too_large"/i);
  await conn.closed;
  return text;
}

describe("oversized request bodies", () => {
  const emulator = withEmulator({ seed: 5 }, { each: true });

  test("a 50 MB Content-Length with little sent: 413 without waiting for the body, connection closed, nothing applied", async () => {
    const conn = await connect(emulator());
    conn.socket.write(head(emulator(), [`Content-Length: ${50 * 1024 * 1024}`]));
    conn.socket.write(`{"name": "${"x".repeat(1000)}`);
    await refused(conn); // the rest of the body is never sent
    expect(emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)?.name).not.toContain("xxx");
    expect(emulator().requests()).toMatchObject([{ status: 413 }]);
    expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
  });

  test("Expect: 100-continue: too large, 413 and no 100 Continue; small, 100 Continue, then served", async () => {
    const early = await connect(emulator());
    early.socket.write(head(emulator(), ["Content-Length: 5000000", "Expect: 100-continue"]));
    expect(await refused(early)).not.toContain("100 Continue");
    const body = JSON.stringify({ name: "continued" });
    const conn = await connect(emulator());
    conn.socket.write(
      head(emulator(), [`Content-Length: ${Buffer.byteLength(body)}`, "Expect: 100-continue"]),
    );
    await conn.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    conn.socket.write(body);
    await conn.waitFor(/HTTP\/1\.1 200 [^]*"name":"continued"/);
    conn.socket.destroy();
    expect(emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)?.name).toBe("continued");
  });
});

describe("maxBodyBytes 2048", () => {
  const LIMIT = 2048;
  const tight = withEmulator({ seed: 5, maxBodyBytes: LIMIT }, { each: true });

  test("a chunked body past the limit: 413 while the client is still sending, then the connection closes", async () => {
    const conn = await connect(tight());
    conn.socket.write(head(tight(), ["Transfer-Encoding: chunked"]));
    const chunk = Buffer.alloc(16 * 1024, "a");
    let sent = 0;
    // Keep sending (never the final chunk) until the answer arrives or 8 MiB went out.
    while (!/\r\n\r\n/.test(conn.received()) && sent < 8 * 1024 * 1024 && !conn.socket.destroyed) {
      const ok = conn.socket.write(`${chunk.length.toString(16)}\r\n`) && conn.socket.write(chunk);
      conn.socket.write("\r\n");
      sent += chunk.length;
      await new Promise((r) => (ok ? setImmediate(r) : setTimeout(r, 5)));
    }
    await refused(conn);
    expect(sent).toBeLessThan(8 * 1024 * 1024); // answered long before the client would have finished
    expect(tight().requests()).toMatchObject([{ status: 413 }]);
    expect((await call(tight(), "/v1/nodes/")).status).toBe(200);
  });

  test("a body at the limit is served; maxBodyBytes is checked", async () => {
    const name = (n: number) => JSON.stringify({ name: "n".repeat(n - 11) }); // {"name":"…"} is 11 + n
    expect(Buffer.byteLength(name(LIMIT))).toBe(LIMIT);
    const headers = { "Content-Type": "application/json" };
    const send = (rawBody: string) =>
      call(tight(), `/v1/networks/${tight().fixtures.emptyNetwork}/`, { method: "PATCH", rawBody, headers });
    expect((await send(name(LIMIT))).status).toBe(400); // read and judged (the name is too long), not refused unread
    expect((await send(name(LIMIT + 1))).status).toBe(413);
    await expect(startEmulator({ maxBodyBytes: 0 })).rejects.toThrow(RangeError);
  });
});
