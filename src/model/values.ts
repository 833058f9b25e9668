/** The service's allowed values: id kinds, enums, regions per provider, protocols, public networks and their chains. */
/** The prefix of each kind of identifier (spec 2), with a human name and an example. */
export const ID_KINDS = {
  node: { prefix: "ND", example: "ND-123-456-789" },
  network: { prefix: "NW", example: "NW-123-456-7" },
  organization: { prefix: "RG", example: "RG-123-456" },
  user: { prefix: "UR", example: "UR-111-111-111" },
  project: { prefix: "PR", example: "PR-123-456" },
} as const;

/** A kind of identifier: `node`, `network`, `organization`, `user` or `project`. */
export type IdKind = keyof typeof ID_KINDS;

/** Node types (spec 2.1). `shared` is allowed only on {@link SHARED_PROTOCOLS}. */
export const NODE_TYPES = ["shared", "dedicated"] as const;
/** A node type. */
export type NodeType = (typeof NODE_TYPES)[number];

/** Node roles (spec 2.1): `peer` is the only value. */
export const NODE_ROLES = ["peer"] as const;
/** A node role. */
export type NodeRole = (typeof NODE_ROLES)[number];

/** Node statuses (spec 3). */
// prettier-ignore
export const NODE_STATUSES = ["pending", "running", "maintenance", "failed", "error", "stopping", "stopped", "starting"] as const;
/** A node status. */
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** Network statuses (spec 3). */
// prettier-ignore
export const NETWORK_STATUSES = ["pending", "ok", "failed", "warning", "stopping", "stopped", "starting"] as const;
/** A network status. */
export type NetworkStatus = (typeof NETWORK_STATUSES)[number];

/** Project types (spec 2.2): `public` is the one shown. */
export const PROJECT_TYPES = ["public"] as const;
/** A project type. */
export type ProjectType = (typeof PROJECT_TYPES)[number];

/** Values of the `order_by` query (spec 4.1): `name` or `created_at`, ascending, or with `-` for descending order. */
export const ORDER_BY_VALUES = ["name", "-name", "created_at", "-created_at"] as const;
/** An ordering value. */
export type OrderBy = (typeof ORDER_BY_VALUES)[number];

/** Cloud providers and the regions each offers (spec 2.1). */
export const PROVIDER_REGIONS = {
  gcloud: ["asia-southeast1"],
  aws: ["ap-southeast-1", "us-west-2", "us-east-1"],
  azure: ["uksouth"],
  vzo: ["eu3"],
} as const;

/** A cloud provider value, e.g. `aws`. */
export type CloudProvider = keyof typeof PROVIDER_REGIONS;

/** All cloud providers, in the spec's order. */
export const PROVIDERS = ["aws", "azure", "gcloud", "vzo"] as const satisfies readonly CloudProvider[];

/** A region value, e.g. `us-east-1`. */
export type Region = (typeof PROVIDER_REGIONS)[CloudProvider][number];

/** All regions, in the spec's order. */
// prettier-ignore
export const REGIONS = ["asia-southeast1", "ap-southeast-1", "us-west-2", "us-east-1", "uksouth", "eu3"] as const satisfies readonly Region[];

/** Every allowed provider/region pair. */
export const PROVIDER_REGION_PAIRS: ReadonlyArray<{ provider: CloudProvider; region: Region }> =
  PROVIDERS.flatMap((provider) => PROVIDER_REGIONS[provider].map((region: Region) => ({ provider, region })));

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

/** Protocols to which the `archive` filter applies (spec 4.1). */
// prettier-ignore
export const ARCHIVE_PROTOCOLS = ["ethereum", "polygon-pos", "bsc", "avalanche", "fantom", "tezos"] as const satisfies readonly Protocol[];

/** Protocols whose nodes may carry a beacon-chain endpoint (appendix: Ethereum only). */
export const BEACON_PROTOCOLS = ["ethereum"] as const satisfies readonly Protocol[];

/** The families of node interfaces: each has its own calls for the chain id and the head. */
export type ChainFamily = "evm" | "bitcoin" | "near" | "starknet" | "tezos";

/** Each protocol's family, block time in seconds (the emulator's heads advance by it), and default `maxHeadAgeSeconds` (several blocks). */
// prettier-ignore
export const PROTOCOL_CHAINS: Record<Protocol, { family: ChainFamily; blockSeconds: number; maxHeadAgeSeconds: number }> = {
  ethereum: { family: "evm", blockSeconds: 12, maxHeadAgeSeconds: 120 },
  "polygon-pos": { family: "evm", blockSeconds: 2, maxHeadAgeSeconds: 60 },
  bsc: { family: "evm", blockSeconds: 1, maxHeadAgeSeconds: 60 },
  avalanche: { family: "evm", blockSeconds: 2, maxHeadAgeSeconds: 60 },
  arbitrum: { family: "evm", blockSeconds: 1, maxHeadAgeSeconds: 300 },
  aurora: { family: "evm", blockSeconds: 1, maxHeadAgeSeconds: 60 },
  gnosis: { family: "evm", blockSeconds: 5, maxHeadAgeSeconds: 60 },
  cronos: { family: "evm", blockSeconds: 6, maxHeadAgeSeconds: 60 },
  fantom: { family: "evm", blockSeconds: 1, maxHeadAgeSeconds: 60 },
  harmony: { family: "evm", blockSeconds: 2, maxHeadAgeSeconds: 60 },
  fuse: { family: "evm", blockSeconds: 5, maxHeadAgeSeconds: 60 },
  near: { family: "near", blockSeconds: 1, maxHeadAgeSeconds: 60 },
  starknet: { family: "starknet", blockSeconds: 6, maxHeadAgeSeconds: 600 },
  tezos: { family: "tezos", blockSeconds: 6, maxHeadAgeSeconds: 300 },
  bitcoin: { family: "bitcoin", blockSeconds: 600, maxHeadAgeSeconds: 7200 },
};

/** The path of the JSON-RPC interface under an endpoint, where it is not the endpoint itself: Avalanche's C-Chain. */
export const RPC_PATHS: Partial<Record<Protocol, string>> = { avalanche: "/ext/bc/C/rpc" };

/**
 * The chain ids a node of each public network may serve, as `normalizeChainId` (api) writes them, the current one
 * first; a testnet name accepts every chain it has meant (the service's release notes). Sources: ethereum-lists/chains,
 * docs.near.org (RPC "Node Status"), starknet.js `StarknetChainId`, taquito `ChainIds`, Bitcoin Core's RPC help.
 */
export const EXPECTED_CHAIN_IDS: Record<PublicNetwork, readonly string[]> = {
  "ethereum-mainnet": ["1"],
  "ethereum-ropsten-testnet": ["3"],
  "ethereum-rinkeby-testnet": ["4"],
  "polygon-pos-mainnet": ["137"],
  "polygon-pos-testnet": ["80002", "80001"], // Amoy, Mumbai
  "bsc-mainnet": ["56"],
  "bsc-testnet": ["97"],
  "avalanche-mainnet": ["43114"], // C-Chain
  "avalanche-testnet": ["43113"], // Fuji C-Chain
  "arbitrum-mainnet": ["42161"], // Arbitrum One
  "arbitrum-goerli": ["421613"],
  "aurora-mainnet": ["1313161554"],
  "aurora-testnet": ["1313161555"],
  "gnosis-mainnet": ["100"],
  "gnosis-testnet": ["10200", "77"], // Chiado, Sokol
  "cronos-mainnet": ["25"],
  "cronos-testnet": ["338"],
  "fantom-mainnet": ["250"],
  "fantom-testnet": ["4002"],
  "harmony-mainnet": ["1666600000"], // shard 0
  "harmony-devnet": ["1666900000", "1666700000"], // devnet shard 0; testnet shard 0 (the name's testnet again)
  "fuse-mainnet": ["122"],
  "fuse-testnet": ["123"], // Spark
  "near-mainnet": ["mainnet"],
  "near-testnet": ["testnet"],
  "starknet-mainnet": ["SN_MAIN"],
  "starknet-testnet": ["SN_SEPOLIA", "SN_GOERLI", "SN_GOERLI2"],
  "tezos-mainnet": ["NetXdQprcVkpaWU"],
  // Ghostnet, then the protocol testnets: Florence, Granada, Hangzhou, Ithaca, Jakarta, Kathmandu,
  // Lima, Mumbai (2), Nairobi, Oxford (2), Paris (2), Quebec, Rio, Seoul, Shadownet.
  // prettier-ignore
  "tezos-testnet": ["NetXnHfVqm9iesp", "NetXxkAx4woPLyu", "NetXz969SFaFn8k", "NetXZSsxBpMQeAT", "NetXbhmtAbMukLc",
    "NetXLH1uAxK7CCh", "NetXazhm4yetmff", "NetXizpkH94bocH", "NetXQw6nWSnrJ5t", "NetXgbcrNtXD2yA", "NetXyuzvDo2Ugzb",
    "NetXH6zDyMzRsUy", "NetXxWsskGahzQB", "NetXo8SqH1c38SS", "NetXXWAHLEvre9b", "NetXuTeGinLEqxp", "NetXPdgaoabtBth",
    "NetXd56aBs1aeW3", "NetXsqzbfFenSTS"],
  "bitcoin-mainnet": ["main"],
  "bitcoin-testnet": ["test", "testnet4"],
};
