import type * as pulumi from "@pulumi/pulumi";
import type { NodeFilters } from "../api";

/**
 * The filters of the node list (`GET /v1/nodes/`), each documented for the editor: the client's
 * `NodeFilters`, one list for both.
 */
export type NodeFilterArgs = NodeFilters;

/**
 * Every field of `T` as a `pulumi.Input`, optional where it is optional in `T`. A homomorphic
 * mapped type: each field keeps its JSDoc, so the `…Output` forms show the same docs as the
 * plain ones.
 */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<Exclude<T[K], undefined>> };
