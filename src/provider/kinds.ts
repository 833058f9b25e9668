/** The one registry of resource kinds, served by both hosts (the dynamic providers and the plugin). */
import type * as pulumi from "@pulumi/pulumi";
import type { Checked, Diff, UncheckedInputs } from "./checks";
import * as faucetDripKind from "./faucet-drip";
import type { FaucetDripInputs, FaucetDripOutputs } from "./faucet-drip";
import * as networkKind from "./network";
import type { NetworkInputs, NetworkOutputs } from "./network";
import type { PropertyTable } from "./table";

/** The package name: `blockchain:index:Network`, `pulumi-resource-blockchain`. */
export const PACKAGE = "blockchain";
/** The token of a resource or function of the package. */
export const token = (name: string) => `${PACKAGE}:index:${name}`;

/** The plugin's functions, by name: their type tokens. */
export const FUNCTION_TOKENS = {
  getNode: token("getNode"),
  getNodes: token("getNodes"),
  getNodeConnections: token("getNodeConnections"),
} as const;

/** What a read answers: the current outputs and the inputs that reproduce them; an empty id when gone. */
export type ReadResult<I, O> = { id: string; props: O; inputs?: I };

/** The provider methods of a kind, on plain values (the hosts wrap and unwrap secrets). */
export interface KindMethods<I, O> {
  check(olds: unknown, news: UncheckedInputs<I>): Promise<Checked<I>>;
  diff(id: string, olds: O, news: I): Promise<Diff>;
  create(inputs: I): Promise<{ id: string; outs: O }>;
  read(id: string, props: O | undefined): Promise<ReadResult<I, O> | pulumi.dynamic.ReadResult<O>>;
  update(id: string, olds: O, news: I): Promise<{ outs: O }>;
  delete(id: string, props: O): Promise<void>;
}

/** One resource kind, as both hosts serve it. */
export interface ResourceKind<I, O> {
  /** The TypeScript class, the last part of its type tokens. */
  name: "Network" | "FaucetDrip";
  /** Its key among the dynamic providers' runtime exports (`require(…/provider-runtime).network`). */
  key: "network" | "faucetDrip";
  /** The plugin's type token, e.g. `blockchain:index:Network`. */
  token: string;
  methods: KindMethods<I, O>;
  /** `<NAME>_PROPERTIES` in its module (the schema reads each row's doc by that name). */
  properties: PropertyTable;
  /** Why a dynamic resource refuses the `import` option (`id`: the id asked for); the plugin's read of an import. */
  importing: {
    dynamicRefusal(name: string, id: string | undefined): string;
    pluginRead(
      id: string,
      read: KindMethods<I, O>["read"],
    ): Promise<{ id: string; props: O; inputs: Partial<I> }>;
  };
  /** The schema's description; what its arguments need, with an example, for a declaration without them. */
  docs: { description: string; needs: string; example: (name: string) => string };
}

const network: ResourceKind<NetworkInputs, NetworkOutputs> = {
  name: "Network",
  key: "network",
  token: token("Network"),
  methods: {
    check: networkKind.checkNetwork,
    diff: networkKind.diffNetwork,
    create: networkKind.createNetwork,
    read: networkKind.readNetwork,
    update: networkKind.updateNetwork,
    delete: networkKind.deleteNetwork,
  },
  properties: networkKind.NETWORK_PROPERTIES,
  importing: {
    dynamicRefusal: (name, id) =>
      `Network ${JSON.stringify(name)}: the \`import\` resource option does not work for dynamic resources ` +
      `(the engine reads an imported resource without its provider). Adopt the existing network with \`networkId\` instead: ` +
      `remove \`import\` and write new Network(${JSON.stringify(name)}, { networkId: ${id === undefined ? `"NW-…"` : JSON.stringify(id)} }); the next \`pulumi up\` reads the network and records it in the stack.`,
    // No managed input: the imported program's preview shows no change; `name` or `project` added later are managed.
    async pluginRead(id, read) {
      const found = await read(id, { managedInputs: [] } as unknown as NetworkOutputs);
      if (!found.id)
        throw new Error(
          `Network ${id}: cannot import it: the service answered 404 (it does not exist, or this API key's ` +
            `organization cannot see it). Check the id, and the provider's apiKey.`,
        );
      return { id: found.id, props: found.props as NetworkOutputs, inputs: { networkId: found.id } };
    },
  },
  docs: {
    description:
      "A network of the blockchain node service, adopted by id (networks cannot be created through the " +
      "service's API). Create reads the network and applies `name`/`project` when given; refresh shows " +
      "drift; update changes only what changed. The stack never created the network, so destroy and a " +
      "replacement forget it and leave it in the service; with `forceDestroy: true` they delete it (the service " +
      "refuses while nodes remain). Preview only reads: a `networkId` that does not exist is named by `up`. " +
      "Import an existing one with `pulumi import blockchain:index:Network <name> NW-…`.",
    needs: "at least the id of the network to adopt",
    example: (name) => `new Network(${JSON.stringify(name)}, { networkId: "NW-…" })`,
  },
};

const faucetDrip: ResourceKind<FaucetDripInputs, FaucetDripOutputs> = {
  name: "FaucetDrip",
  key: "faucetDrip",
  token: token("FaucetDrip"),
  methods: {
    check: faucetDripKind.checkFaucetDrip,
    diff: faucetDripKind.diffFaucetDrip,
    create: faucetDripKind.createFaucetDrip,
    read: faucetDripKind.readFaucetDrip,
    update: faucetDripKind.updateFaucetDrip,
    delete: faucetDripKind.deleteFaucetDrip,
  },
  properties: faucetDripKind.FAUCET_DRIP_PROPERTIES,
  importing: {
    dynamicRefusal: (name) =>
      `FaucetDrip ${JSON.stringify(name)}: the \`import\` resource option does not work for dynamic resources, and a ` +
      `faucet request cannot be imported: the service has no call that reads one. Remove \`import\`; a FaucetDrip ` +
      `records the request it makes when it is created.`,
    pluginRead: async (id) => {
      throw new Error(
        `FaucetDrip ${id}: a faucet request cannot be imported: the service has no call that reads one. ` +
          `Declare a FaucetDrip instead; it records the request it makes when it is created.`,
      );
    },
  },
  docs: {
    description:
      "One request of test tokens from the service's faucet (`POST /v1/faucet/{chain}`, by default `goerli`), " +
      "made once when the resource is created. A new address or chain replaces the resource (a new request). " +
      "Deleting it does nothing: tokens that were sent cannot be returned. It cannot be imported.",
    needs: "the address to send test tokens to",
    example: (name) => `new FaucetDrip(${JSON.stringify(name)}, { address: "0x…" })`,
  },
};

export const KINDS = { network, faucetDrip } as const;

/** A kind seen by a host that handles every kind alike: its values are the engine's plain values. */
export type AnyKind = ResourceKind<unknown, unknown>;

export const KIND_LIST: readonly AnyKind[] = Object.values(KINDS) as readonly AnyKind[];

/** The kind of a type token; an unknown token is an error naming the ones served. */
export function kindOfToken(type: string): AnyKind {
  const kind = KIND_LIST.find((k) => k.token === type);
  const served = KIND_LIST.map((k) => k.token).join(", ");
  if (!kind) throw new Error(`unknown resource type ${type}: this plugin serves ${served}`);
  return kind;
}
