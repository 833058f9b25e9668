import * as http from "http";
import type { AddressInfo, Socket } from "net";
import { createAdmin } from "../data/admin";
import { FaucetLedger } from "../data/faucet-ledger";
import { deriveAdminKey } from "../data/random";
import { Ring } from "../data/ring";
import { buildDataset } from "../data/seed";
import { Store } from "../data/store";
import { ADMIN_PREFIX, handleAdminRequest } from "./admin-http";
import { announcedTooLarge, readBody, refuseAndClose } from "./body-limit";
import type { RouteDelays } from "./faults";
import { FaultInjector, faultReply, malformedReply, routeDelayMs, validateRouteDelays } from "./faults";
import { resolveOptions, type EmulatorOptions } from "./options";
import { bearerKey, errorReply, rateLimiter, type ApiContext, type Reply } from "./reply";
import { describeRequest, routeTemplate } from "./request-line";
import { answerNode, nodeRequestShape } from "./node-endpoints";
import { handleApiRequest } from "./routes";
import type { LoggedRequest, RunningEmulator } from "./running-emulator";

/** A Host header safe to put in absolute links: a host name or IP literal and an optional port. */
const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;
const SERVER_ERROR = () => errorReply(500, "server_error", "A server error occurred.");
const TOO_LARGE = () => errorReply(413, "payload_too_large", "Request body too large.");

/**
 * Starts a local, in-memory emulator of the service over plain HTTP and resolves once it listens.
 * Data is generated from `seed`; the primary organization's key is {@link RunningEmulator.apiKey}.
 *
 * @example
 * const emulator = await startEmulator({ seed: 7, routeDelays: { faucetMs: 500 } });
 * emulator.enqueueFaults([{ malformed: "html" }, { status: 504, after: "processing" }]);
 * const res = await fetch(`${emulator.url}/v1/nodes/`, { headers: { Authorization: `Bearer ${emulator.apiKey}` } });
 * await emulator.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const settings = resolveOptions(options);
  const faults = new FaultInjector(settings.seed, options.faults ?? {});
  const sockets = new Set<Socket>();
  const waits = new Set<() => void>();
  let closing: Promise<void> | undefined;

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) =>
    void serve(req, res).catch(() => res.headersSent || write(res, SERVER_ERROR()));
  const server = http.createServer(handle);
  // Answer `Expect: 100-continue` ourselves, so a body announced too large is refused unsent.
  server.on("checkContinue", handle);
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
  const host = settings.host;
  const urlHost =
    host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${(server.address() as AddressInfo).port}`;

  // Built once the port is known: the nodes' endpoints are served here.
  const dataset = buildDataset(settings.seed, settings, url);
  const store = new Store(dataset);
  let delays: RouteDelays = settings.routeDelays;
  const faucet = new FaucetLedger(settings.seed, settings.faucetDailyLimit, settings.faucetSendLogCapacity);
  const ctx: ApiContext = { ...settings, store, faucet };
  const record = new Ring<LoggedRequest>(settings.requestLogCapacity);
  const limit =
    settings.rateLimit > 0 ? rateLimiter(settings.rateLimit, () => settings.now().getTime()) : undefined;
  const adminKey = deriveAdminKey(settings.seed);

  const primary = dataset.fixtures.organization;
  const emulator: RunningEmulator = {
    url,
    adminKey,
    get apiKey() {
      return store.keys()[primary];
    },
    get keys() {
      return store.keys();
    },
    fixtures: { ...dataset.fixtures },
    admin: createAdmin(store, settings.seed, settings.now),
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
    faults: () => faults.get(),
    enqueueFaults: (list) => faults.enqueue(list),
    queuedFaults: () => faults.queued,
    clearQueuedFaults: () => faults.clear(),
    setRouteDelays(next) {
      validateRouteDelays(next);
      delays = { ...next };
    },
    routeDelays: () => ({ ...delays }),
    faucetSends: () => faucet.all(),
    faucetSendCounts: () => faucet.counts(),
    faucetSendCount: (address) => faucet.countFor(address),
    requests: () => record.toArray().map((e) => ({ ...e, query: { ...e.query } })),
    requestStats: () => ({ total: record.total, retained: record.size, capacity: record.capacity }),
    resetRequests: () => record.clear(),
    secrets: () => [...store.secrets, adminKey],
  };

  // Every wait ends at once on close, so no request outlives the server.
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
    const admin = path.startsWith(ADMIN_PREFIX);
    const node = nodeRequestShape(path); // a node's endpoint: its key and query are never recorded
    const entry: LoggedRequest = {
      method,
      route: node?.route ?? routeTemplate(path, settings.faucetChains),
      path: node?.path ?? path,
      query: node ? {} : Object.fromEntries(new URLSearchParams(rawQuery)),
      status: 0,
      at: performance.timeOrigin + performance.now(),
    };
    const labels: string[] = [];
    const finish = (reply: Reply | undefined, closeAfter = false) => {
      entry.status = reply?.status ?? 0;
      const fault = labels.join("+");
      if (fault) entry.fault = fault;
      if (!admin) record.push(entry);
      if (!reply) req.socket.destroy();
      else if (closeAfter) refuseAndClose(req, reply);
      else write(res, reply);
      if (settings.quiet) return;
      const line = describeRequest(method, path, rawQuery, settings.faucetChains);
      const took = `${entry.status || "dropped"} (${Date.now() - started} ms)`;
      process.stderr.write(
        `${line} -> ${took}${fault ? ` [fault ${fault}]` : ""}${admin ? " [admin]" : ""}\n`,
      );
    };
    if (announcedTooLarge(req, settings.maxBodyBytes)) return finish(TOO_LARGE(), true);
    if (/\b100-continue\b/i.test(req.headers.expect ?? "")) res.writeContinue();
    const body = await readBody(req, settings.maxBodyBytes).catch(() => undefined);
    if (body === undefined || closing) return;
    if (body === "too-large") return finish(TOO_LARGE(), true);
    const { headers } = req;
    if (node) {
      const reply = await answerNode({ method, path, headers, body }, ctx, sleep);
      return closing ? undefined : finish(reply);
    }
    if (admin) return finish(handleAdminRequest({ method, path, headers, body }, emulator, adminKey));
    const key = bearerKey(headers.authorization);
    const wait = limit && key && store.organizationOfKey(key) !== undefined ? limit(key) : undefined;
    if (wait !== undefined) {
      labels.push("rate-limit");
      return finish(faultReply(429, String(wait)));
    }
    const decision = faults.decide(method, path);
    if (decision.label) labels.push(decision.label);
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    if (closing) return;
    if (decision.instead) return finish(decision.instead === "drop" ? undefined : decision.instead);
    const routeDelay = routeDelayMs(delays, method, path);
    if (routeDelay > 0) {
      labels.push("route-delay");
      await sleep(routeDelay);
      if (closing) return;
    }
    let reply: Reply;
    try {
      const origin = headers.host && SAFE_HOST.test(headers.host) ? `http://${headers.host}` : url;
      reply = handleApiRequest({ method, path, rawQuery, headers, body, origin }, ctx);
    } catch {
      reply = SERVER_ERROR();
    }
    const after = decision.after;
    if (after === undefined || after === "drop" || !("malformed" in after))
      return finish(after === "drop" ? undefined : (after ?? reply));
    const malformed = malformedReply(after.malformed, reply);
    if (!malformed) labels[0] = `${labels[0]}-not-applied`;
    finish(malformed ?? reply);
  };

  return emulator;
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
  const [path, ...query] = rest.split("#")[0].split("?");
  return { path, rawQuery: query.join("?") };
}

/** Writes a reply (with `Content-Length`); `HEAD` and `204` get no body. */
function write(res: http.ServerResponse, reply: Reply): void {
  if (res.writableEnded || res.destroyed) return;
  const parts = reply.chunks ?? (reply.body === undefined ? [] : [reply.body]);
  const length = parts.reduce((n, p) => n + Buffer.byteLength(p), 0);
  res.writeHead(reply.status, { ...reply.headers, ...(parts.length ? { "Content-Length": length } : {}) });
  for (const part of parts) res.write(part);
  res.end();
}
