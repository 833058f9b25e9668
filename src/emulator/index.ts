/**
 * A local, spec-faithful emulator of the blockchain node service: in-memory seeded data, Bearer
 * keys per organization, organization scoping, filters, ordering, pagination, validation, the
 * service's error shapes and status codes, and injectable latency and faults. Run it with the
 * `blockchain-nodes-emulator` command or start it in-process with {@link startEmulator}.
 *
 * Two rooms: `data/` makes and keeps the records (seeded fixtures and filler, the store, the
 * faucet ledger); `http/` serves them (server, routes and handlers, auth, bodies, faults,
 * options). `http/` uses `data/`, never the other way round; both use only `src/model`.
 */
export { startEmulator } from "./http/server";
export { EMULATOR_DEFAULTS } from "./http/options";
export { NETWORK_WITH_NODES_NODE_IDS, WELL_KNOWN_IDS } from "./data/fixtures";
export { deriveAdminKey, deriveApiKey } from "./data/derive";
export { FAUCET_AMOUNT_WEI } from "./data/faucet-ledger";
export { ADMIN_PREFIX } from "./http/admin-http";
export type { EmulatorAdmin, NodeChanges } from "./data/admin";
export type { EmulatorFixtures } from "./data/fixtures";
export type { FaucetSend, FaucetSendCounts } from "./data/faucet-ledger";
export type { RouteDelays } from "./http/delays";
export type { Fault, FaultMatch, FaultOptions, FaultStatus, MalformedKind } from "./http/fault-options";
export type { EmulatorOptions } from "./http/options";
export type { LoggedRequest, RequestStats, RunningEmulator } from "./http/running-emulator";
