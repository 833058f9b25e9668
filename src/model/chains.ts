/**
 * What a node of each public network must answer at its endpoint: the calls its protocol's family
 * understands, the chain identifiers its network has meant, and how old its head may be.
 */
import type { Protocol, PublicNetwork } from "./protocols";

/** The families of node interfaces: each has its own calls for the chain id and the head. */
export type ChainFamily = "evm" | "bitcoin" | "near" | "starknet" | "tezos";

/**
 * Each protocol's family, its block time in seconds (what the emulator's heads advance by), and the
 * default `maxHeadAgeSeconds`: several blocks, so that a healthy node never fails it.
 */
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
 * The chain identifiers a node of each public network may serve, as `normalizeChainId` (api)
 * writes them; the first is the current one. A testnet name accepts every chain it has meant.
 * Sources: EVM chain ids from ethereum-lists/chains (`_data/chains/eip155-<id>.json`, the data
 * of chainlist.org); NEAR's `status.chain_id` from docs.near.org (RPC "Node Status"); Starknet's
 * `starknet_chainId` from starknet-specs and starknet.js (`StarknetChainId`); Tezos chain ids from
 * taquito's `ChainIds` (packages/taquito/src/constants.ts); Bitcoin's `getblockchaininfo.chain`
 * from Bitcoin Core's RPC help; which testnets each name has meant from the service's release notes.
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
