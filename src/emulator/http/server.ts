import * as http from "http";
import type { AddressInfo, Socket } from "net";
import { createAdmin } from "../data/admin";
import { deriveAdminKey } from "../data/derive";
import { FaucetLedger } from "../data/faucet-ledger";
import { Ring } from "../data/ring";
import { buildDataset } from "../data/seed";
import { Store } from "../data/store";
import type { AdminTarget } from "./admin-http";
import { adminTemplate, handleAdminRequest, isAdminPath } from "./admin-http";
import { announcedTooLarge, readBody, refuseAndClose, tooLarge } from "./body-limit";
import type { ApiContext } from "./context";
import { bearerKey, rateLimiter } from "./context";
import type { RouteDelays } from "./delays";
import { routeDelayMs, validateRouteDelays } from "./delays";
import { faultReply, malformedReply } from "./fault-replies";
import { FaultInjector } from "./faults";
import type { EmulatorOptions } from "./options";
import { resolveOptions } from "./options";
import type { Reply } from "./reply";
import { errorReply } from "./reply";
import { describeRequest, routeTemplate } from "./request-line";
import { handleApiRequest } from "./routes";
import type { LoggedRequest, RunningEmulator } from "./running-emulator";

/** A Host header safe to put in absolute links: a host name or IP literal and an optional port. */
const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * Starts a local, in-memory emulator of the service over plain HTTP and resolves once it listens.
 * Data is generated from `seed`; the primary organization's key is {@link RunningEmulator.apiKey}.
 * Call {@link RunningEmulator.close} when done.
 *
 * @example
 * const emulator = await startEmulator({ seed: 7, routeDelays: { faucetMs: 500 } });
 * emulator.enqueueFaults([{ malformed: "html" }, { status: 504, after: "processing" }]);
 * const res = await fetch(`${emulator.url}/v1/nodes/`, {
 *   headers: { Authorization: `Bearer ${emulator.apiKey}` },
 * });
 * console.log(emulator.faucetSendCounts()); // { total: 0, byAddress: {} }
 * await emulator.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const settings = resolveOptions(options);
  const dataset = buildDataset(settings.seed, { networks: settings.networks, nodes: settings.nodes });
  const store = new Store(dataset);
  const faults = new FaultInjector(settings.seed, options.faults ?? {});
  let delays: RouteDelays = settings.routeDelays;
  const ctx: ApiContext = {
    store,
    faucet: new FaucetLedger(settings.seed, settings.faucetDailyLimit, settings.faucetSendLogCapacity),
    pageSize: settings.pageSize,
    faucetDailyLimit: settings.faucetDailyLimit,
    faucetChains: settings.faucetChains,
    now: settings.now,
  };
  const record = new Ring<LoggedRequest>(settings.requestLogCapacity);
  const limit =
    settings.rateLimit > 0 ? rateLimiter(settings.rateLimit, () => settings.now().getTime()) : undefined;
  const adminKey = deriveAdminKey(settings.seed);
  const sockets = new Set<Socket>();
  const waits = new Set<() => void>();
  let closing: Promise<void> | undefined;
  let url = "";

  const controls: AdminTarget = {
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
    faucetSendCounts: () => ctx.faucet.counts(),
    requestStats: () => ({ total: record.total, retained: record.size, capacity: record.capacity }),
    admin: createAdmin(store, settings.seed),
  };

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
    const admin = isAdminPath(path);
    const entry: LoggedRequest = {
      method,
      route: routeTemplate(path, settings.faucetChains),
      path,
      query: Object.fromEntries(new URLSearchParams(rawQuery)),
      status: 0,
    };
    const labels: string[] = [];
    const finish = (reply: Reply | undefined, closeAfter = false) => {
      entry.status = reply ? reply.status : 0;
      const fault = labels.join("+");
      if (fault) entry.fault = fault;
      if (!admin) record.push(entry);
      if (!reply) req.socket.destroy();
      else if (closeAfter) refuseAndClose(req, reply);
      else write(res, reply);
      if (!settings.quiet) {
        // Only what cannot carry a secret: never the raw path, query, headers or body.
        const line = describeRequest(method, path, rawQuery, adminTemplate, settings.faucetChains);
        process.stderr.write(
          `${line} -> ${entry.status || "dropped"} (${Date.now() - started} ms)${fault ? ` [fault ${fault}]` : ""}${admin ? " [admin]" : ""}\n`,
        );
      }
    };
    // Refused on the announced length alone: not a byte of the body is read.
    if (announcedTooLarge(req, settings.maxBodyBytes)) return finish(tooLarge(), true);
    if (/\b100-continue\b/i.test(req.headers.expect ?? "")) res.writeContinue();
    const outcome = await readBody(req, settings.maxBodyBytes).catch(() => undefined);
    if (outcome === undefined || closing) return;
    // A chunked body past the limit: reading stopped at the chunk that crossed it.
    if (outcome.kind === "too-large") return finish(tooLarge(), true);
    const body = outcome.body;
    if (admin) {
      return finish(handleAdminRequest({ method, path, headers: req.headers, body }, controls, adminKey));
    }

    const key = bearerKey(req.headers.authorization);
    const wait = limit && key && store.organizationOfKey(key) !== undefined ? limit(key) : undefined;
    if (wait !== undefined) {
      labels.push("rate-limit");
      return finish(faultReply(429, String(wait)));
    }
    const decision = faults.decide(method, path);
    if (decision.label) labels.push(decision.label);
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    if (closing) return;
    const { action } = decision;
    if (action.kind === "drop") return finish(undefined);
    if (action.kind === "reply") return finish(action.reply);
    const routeDelay = routeDelayMs(delays, method, path);
    if (routeDelay > 0) {
      labels.push("route-delay");
      await sleep(routeDelay);
      if (closing) return;
    }
    let reply: Reply;
    try {
      reply = handleApiRequest(
        { method, path, rawQuery, headers: req.headers, body, origin: originOf(req.headers.host, url) },
        ctx,
      );
    } catch {
      reply = errorReply(500, "server_error", "A server error occurred.");
    }
    switch (action.kind) {
      case "drop-after-processing":
        return finish(undefined);
      case "reply-after-processing":
        return finish(action.reply);
      case "malformed": {
        const malformed = malformedReply(action.malformed, reply);
        if (!malformed) labels[0] = `${labels[0]}-not-applied`;
        return finish(malformed ?? reply);
      }
    }
    finish(reply);
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    void serve(req, res).catch(() => {
      if (!res.headersSent) write(res, errorReply(500, "server_error", "A server error occurred."));
    });
  };
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
  url = `http://${urlHost(settings.host)}:${(server.address() as AddressInfo).port}`;

  const primary = dataset.fixtures.organization;
  return {
    url,
    adminKey,
    get apiKey() {
      return store.keys()[primary];
    },
    get keys() {
      return store.keys();
    },
    fixtures: { ...dataset.fixtures },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const done of [...waits]) done();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
    ...controls,
    faucetSends: () => ctx.faucet.all(),
    faucetSendCount: (address) => ctx.faucet.countFor(address),
    requests: () => record.toArray().map((e) => ({ ...e, query: { ...e.query } })),
    resetRequests: () => record.clear(),
    secrets: () => [...store.secrets, adminKey],
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

/** Writes a reply (with `Content-Length`); `HEAD` and `204` get no body. */
function write(res: http.ServerResponse, reply: Reply): void {
  if (res.writableEnded || res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(reply.body));
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}
