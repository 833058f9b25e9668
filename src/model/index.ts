/** Every allowed value and rule of the service's interface, in one place: pure, no I/O. */
export { isOwnKey, ownValue } from "./problems";
export type { Problem } from "./problems";
export { checkOneOf, formatProblems, show } from "./problems";
export type { Protocol, PublicNetwork } from "./protocols";
export {
  ARCHIVE_PROTOCOLS,
  BEACON_PROTOCOLS,
  PROTOCOLS,
  PUBLIC_NETWORKS,
  PUBLIC_NETWORK_NAMES,
  SHARED_PROTOCOLS,
  allowsSharedNodes,
  protocolOfPublicNetwork,
} from "./protocols";
export type { ChainFamily } from "./chains";
export { EXPECTED_CHAIN_IDS, PROTOCOL_CHAINS, RPC_PATHS } from "./chains";
export type { CloudProvider, Region } from "./enums";
export { PROVIDERS, PROVIDER_REGIONS, PROVIDER_REGION_PAIRS, REGIONS, regionsOf } from "./enums";
export type { NetworkStatus, NodeRole, NodeStatus, NodeType, OrderBy, ProjectType } from "./enums";
export { NETWORK_STATUSES, NODE_STATUSES, NODE_TYPES, ORDER_BY_VALUES } from "./enums";
export type { IdKind } from "./ids";
export { ID_KINDS, checkId, idPattern, isId } from "./ids";
export type { NodeFilterName } from "./filters";
export {
  NODE_FILTERS,
  NODE_FILTER_NAMES,
  PAGE_QUERY,
  checkFilterValue,
  validateNodeFilters,
} from "./filters";
export {
  MAX_NETWORK_NAME_LENGTH,
  checkNetworkName,
  validateNetworkUpdate,
  validateNodePlacement,
} from "./rules";
export { checkAddress, toChecksumAddress } from "./faucet";
export { DEFAULT_FAUCET_CHAIN, MAX_FAUCET_CHAIN_LENGTH, checkFaucetChain } from "./faucet";
export type { WireCreator, WireError, WireNetwork, WireNode, WireNodeDetails } from "./wire";
export { PATHS } from "./wire";
export {
  NODE_CREDENTIAL_FIELDS,
  NODE_DETAIL_FIELDS,
  NODE_ENDPOINT_FIELDS,
  NODE_SECRET_FIELDS,
  SECRET_DETAIL_FIELDS,
  SECRET_FIELD_NAMES,
  nodeAccess,
  secretForms,
  secretValues,
} from "./node-fields";
export type { NodeAccess, NodeDetailValues, NodeEndpointName, NodeSecretName } from "./node-fields";
export {
  MAX_API_KEY_LENGTH,
  MAX_API_URL_LENGTH,
  checkLength,
  closestName,
  unknownProperties,
} from "./problems";
