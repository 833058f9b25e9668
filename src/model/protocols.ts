import { ownValue } from "./problems";

/** Every protocol the service runs (spec 2.2). */
// prettier-ignore
export const PROTOCOLS = [
  "ethereum", "polygon-pos", "bsc", "avalanche", "arbitrum", "near", "aurora", "gnosis", "cronos", "fantom",
  "starknet", "harmony", "tezos", "fuse", "bitcoin",
] as const;

/** A protocol value, e.g. `ethereum`. */
export type Protocol = (typeof PROTOCOLS)[number];

/** Each public network and the protocol it belongs to (spec 2.2). */
// prettier-ignore
export const PUBLIC_NETWORKS = {
  "ethereum-mainnet": "ethereum", "ethereum-ropsten-testnet": "ethereum", "ethereum-rinkeby-testnet": "ethereum",
  "polygon-pos-mainnet": "polygon-pos", "polygon-pos-testnet": "polygon-pos",
  "bsc-mainnet": "bsc", "bsc-testnet": "bsc",
  "avalanche-mainnet": "avalanche", "avalanche-testnet": "avalanche",
  "arbitrum-mainnet": "arbitrum", "arbitrum-goerli": "arbitrum",
  "near-mainnet": "near", "near-testnet": "near",
  "aurora-mainnet": "aurora", "aurora-testnet": "aurora",
  "gnosis-mainnet": "gnosis", "gnosis-testnet": "gnosis",
  "cronos-mainnet": "cronos", "cronos-testnet": "cronos",
  "fantom-mainnet": "fantom", "fantom-testnet": "fantom",
  "starknet-mainnet": "starknet", "starknet-testnet": "starknet",
  "harmony-mainnet": "harmony", "harmony-devnet": "harmony",
  "tezos-mainnet": "tezos", "tezos-testnet": "tezos",
  "fuse-mainnet": "fuse", "fuse-testnet": "fuse",
  "bitcoin-mainnet": "bitcoin", "bitcoin-testnet": "bitcoin",
} as const satisfies Record<string, Protocol>;

/** A public network value, e.g. `ethereum-mainnet`. */
export type PublicNetwork = keyof typeof PUBLIC_NETWORKS;

/** All public network values, in the spec's order. */
export const PUBLIC_NETWORK_NAMES = Object.keys(PUBLIC_NETWORKS) as PublicNetwork[];

/** Protocols on which a `shared` node may exist (spec 2.1: `type`). */
// prettier-ignore
export const SHARED_PROTOCOLS = ["ethereum", "polygon-pos", "bsc", "avalanche", "fantom", "tezos", "bitcoin"] as const satisfies readonly Protocol[];

/** The protocol a public network belongs to, or `undefined` for anything that is not one. */
export function protocolOfPublicNetwork(publicNetwork: unknown): Protocol | undefined {
  return ownValue(PUBLIC_NETWORKS, publicNetwork);
}

/** True when `shared` nodes exist for `protocol` (one of {@link SHARED_PROTOCOLS}). */
export function allowsSharedNodes(protocol: unknown): boolean {
  return typeof protocol === "string" && (SHARED_PROTOCOLS as readonly string[]).includes(protocol);
}

/** Protocols to which the `archive` filter applies (spec 4.1). */
// prettier-ignore
export const ARCHIVE_PROTOCOLS = ["ethereum", "polygon-pos", "bsc", "avalanche", "fantom", "tezos"] as const satisfies readonly Protocol[];

/** Protocols whose nodes may carry a beacon-chain endpoint (appendix: Ethereum only). */
export const BEACON_PROTOCOLS = ["ethereum"] as const satisfies readonly Protocol[];
