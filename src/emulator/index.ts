/**
 * A local emulator of the service: seeded in-memory data, its rules and error shapes, faults and
 * throttling. `data/` makes and keeps the records; `http/` serves them; both use only `src/model`.
 */
export { startEmulator } from "./http/server";
export { EMULATOR_DEFAULTS } from "./http/options";
export { NETWORK_WITH_NODES_NODE_IDS, WELL_KNOWN_IDS } from "./data/fixtures";
export { deriveAdminKey, deriveApiKey } from "./data/random";
export { FAUCET_AMOUNT_WEI } from "./data/faucet-ledger";
export { ADMIN_PREFIX } from "./http/admin-http";
export type { EmulatorAdmin, NodeChanges, NodeEndpointBehaviour } from "./data/admin";
export type { EmulatorFixtures } from "./data/fixtures";
export type { FaucetSend, FaucetSendCounts } from "./data/faucet-ledger";
export type { Fault, FaultMatch, FaultOptions, FaultStatus, MalformedKind, RouteDelays } from "./http/faults";
export type { EmulatorOptions } from "./http/options";
export type { LoggedRequest, RequestStats, RunningEmulator } from "./http/running-emulator";
