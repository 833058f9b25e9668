/**
 * The names the plugin answers to: its package name and the type tokens of its resources and
 * functions. The package schema that declares them (`schema.json`) is built at build time by
 * `scripts/schema/build-schema.ts`, which takes these very tokens.
 */

/** The package name: `blockchain:index:Network`, `pulumi-resource-blockchain`. */
export const PACKAGE = "blockchain";
/** The token of a resource or function of the package. */
export const token = (name: string) => `${PACKAGE}:index:${name}`;

/** The tokens the plugin serves. */
export const TOKENS = {
  network: token("Network"),
  faucetDrip: token("FaucetDrip"),
  getNode: token("getNode"),
  getNodes: token("getNodes"),
  getNodeConnections: token("getNodeConnections"),
} as const;
