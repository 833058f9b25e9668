/**
 * A local, spec-faithful emulator of the blockchain node service: in-memory seeded data, Bearer
 * keys per organization, organization scoping, filters, ordering, pagination, validation, the
 * service's error shapes and status codes, and injectable latency and faults. Run it with the
 * `blockchain-nodes-emulator` command or start it in-process with {@link startEmulator}.
 */
export { startEmulator } from "./server";
export { EMULATOR_DEFAULTS } from "./options";
export { WELL_KNOWN_IDS, NETWORK_WITH_NODES_NODE_IDS, deriveApiKey } from "./seed";
export { FAUCET_AMOUNT_WEI } from "./faucet";
export { ADMIN_PREFIX, deriveAdminKey } from "./admin-http";
export type {
  EmulatorAdmin,
  EmulatorFixtures,
  EmulatorOptions,
  Fault,
  FaultMatch,
  FaultOptions,
  FaultStatus,
  FaucetSend,
  FaucetSendCounts,
  LoggedRequest,
  MalformedKind,
  RequestStats,
  RouteDelays,
  RunningEmulator,
} from "./types";
