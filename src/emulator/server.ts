import * as http from "http";
import type { AddressInfo, Socket } from "net";
import { createAdmin } from "./admin";
import type { ApiContext } from "./context";
import { FaucetLedger } from "./faucet";
import { FaultInjector } from "./faults";
import { EMULATOR_DEFAULTS, resolveOptions } from "./options";
import type { Reply } from "./reply";
import { errorReply } from "./reply";
import { handleApiRequest } from "./routes";
import { buildDataset } from "./seed";
import { Store } from "./store";
import type { EmulatorOptions, LoggedRequest, RunningEmulator } from "./types";

/** A Host header safe to put in absolute links: a host name or IP literal and an optional port. */
const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * Starts a local, in-memory emulator of the service over plain HTTP and resolves once it listens.
 * Data is generated from `seed`; the primary organization's key is {@link RunningEmulator.apiKey}.
 * Call {@link RunningEmulator.close} when done.
 *
 * @example
 * const emulator = await startEmulator({ seed: 7 });
 * const res = await fetch(`${emulator.url}/v1/nodes/`, {
 *   headers: { Authorization: `Bearer ${emulator.apiKey}` },
 * });
 * await emulator.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const settings = resolveOptions(options);
  const dataset = buildDataset(settings.seed);
  const store = new Store(dataset);
  const faults = new FaultInjector(settings.seed, options.faults ?? {});
  const ctx: ApiContext = {
    store,
    faucet: new FaucetLedger(settings.seed, settings.faucetDailyLimit),
    pageSize: settings.pageSize,
    faucetDailyLimit: settings.faucetDailyLimit,
    now: settings.now,
  };
  let log: LoggedRequest[] = [];
  const sockets = new Set<Socket>();
  const waits = new Set<() => void>();
  let closing: Promise<void> | undefined;
  let url = "";

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waits.add(done);
    });

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const started = Date.now();
    const method = (req.method ?? "GET").toUpperCase();
    const { path, rawQuery } = splitUrl(req.url ?? "/");
    const entry: LoggedRequest = {
      method,
      path,
      query: Object.fromEntries(new URLSearchParams(rawQuery)),
      status: 0,
    };
    const finish = (reply: Reply | undefined, fault?: string) => {
      entry.status = reply ? reply.status : 0;
      if (fault) entry.fault = fault;
      log.push(entry);
      if (reply) write(res, reply);
      else req.socket.destroy();
      if (!settings.quiet) {
        const query = rawQuery ? `?${rawQuery}` : "";
        process.stderr.write(
          `${method} ${path}${query} -> ${entry.status || "dropped"} (${Date.now() - started} ms)${fault ? ` [fault ${fault}]` : ""}\n`,
        );
      }
    };

    const body = await readBody(req, EMULATOR_DEFAULTS.maxBodyBytes).catch(() => undefined);
    if (body === undefined || closing) return;
    if (body === "too-large") {
      res.setHeader("Connection", "close");
      return finish(errorReply(413, "payload_too_large", "Request body too large."));
    }
    const decision = faults.decide(method, path);
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    if (closing) return;
    const { action, label } = decision;
    if (action.kind === "drop") return finish(undefined, label);
    if (action.kind === "reply") return finish(action.reply, label);
    let reply: Reply;
    try {
      reply = handleApiRequest(
        { method, path, rawQuery, headers: req.headers, body, origin: originOf(req.headers.host, url) },
        ctx,
      );
    } catch {
      reply = errorReply(500, "server_error", "A server error occurred.");
    }
    if (action.kind === "drop-after-processing") return finish(undefined, label);
    finish(reply, label);
  };

  const server = http.createServer((req, res) => {
    void serve(req, res).catch(() => {
      if (!res.headersSent) write(res, errorReply(500, "server_error", "A server error occurred."));
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  url = `http://${urlHost(settings.host)}:${(server.address() as AddressInfo).port}`;

  const primary = dataset.fixtures.organization;
  const keys = Object.fromEntries(dataset.organizations.map((o) => [o.id, o.apiKey]));
  return {
    url,
    apiKey: keys[primary],
    keys,
    fixtures: { ...dataset.fixtures },
    admin: createAdmin(store),
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const done of [...waits]) done();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
    setFaults: (f) => faults.set(f),
    enqueueFaults: (list) => faults.enqueue(list),
    faucetSends: () => ctx.faucet.all(),
    requests: () => log.map((e) => ({ ...e, query: { ...e.query } })),
    resetRequests: () => {
      log = [];
    },
    secrets: () => [...dataset.secrets],
  };
}

/** Splits a request target into raw path and raw query (absolute-form targets are accepted). */
function splitUrl(target: string): { path: string; rawQuery: string } {
  let rest = target;
  if (!rest.startsWith("/")) {
    try {
      const parsed = new URL(rest);
      rest = parsed.pathname + parsed.search;
    } catch {
      return { path: rest, rawQuery: "" };
    }
  }
  const hash = rest.indexOf("#");
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf("?");
  return q < 0 ? { path: rest, rawQuery: "" } : { path: rest.slice(0, q), rawQuery: rest.slice(q + 1) };
}

/** The origin for absolute links: the client's Host header when it is safe, else the server's URL. */
function originOf(host: string | undefined, fallback: string): string {
  return host && SAFE_HOST.test(host) ? `http://${host}` : fallback;
}

/** The host part of the server's URL for a listen address. */
function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

/** Reads the whole body, or `"too-large"` past `limit` bytes (the rest is drained, not kept). */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > limit ? "too-large" : Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("aborted", () => reject(new Error("aborted")));
  });
}

/** Writes a reply (with `Content-Length`); `HEAD` and `204` get no body. */
function write(res: http.ServerResponse, reply: Reply): void {
  if (res.writableEnded || res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(reply.body));
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}
