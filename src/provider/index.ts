/**
 * The provider core: what both hosts (the dynamic providers of `../resources/` and the
 * `blockchain` plugin of `../plugin/`) serve. The registry of resource kinds, each kind's
 * check/diff/create/read/update/delete, the checks they share, the faucet journal, the node views,
 * and what a provider process keeps around each call (its config, the engine's log, interruption).
 */
export { FUNCTION_TOKENS, KINDS, KIND_LIST, kindOfToken, PACKAGE, token } from "./kinds";
export type { AnyKind, KindMethods, ReadResult, ResourceKind } from "./kinds";
export {
  beginStopping,
  CallInterrupted,
  engineAddress,
  engineLog,
  interruptCalls,
  readProviderConfig,
  setProviderConfig,
  withResource,
} from "./calls";
export { checkCallSettings, checkCredentialInputs, kindOf, toFailures } from "./checks";
export type { Checked, Diff, PropertyDiff, UncheckedInputs } from "./checks";
export { FAUCET_DRIP_PROPERTIES } from "./faucet-drip";
export type { FaucetDripInputs, FaucetDripOutputs, FaucetOutcome } from "./faucet-drip";
export { NETWORK_PROPERTIES } from "./network";
export type { ManagedInput, NetworkInputs, NetworkOutputs } from "./network";
export { inputNames, secretOutputs } from "./table";
export type { Inputs, Outputs, PropertySpec, PropertyTable, PropertyTypes, TypeOf } from "./table";
export { MASK, maskEndpoint, toNodeConnection, toNodeResult, toNodeWithConnection } from "./node-views";
export type { MaskedEndpoints, NodeConnection, NodeResult, NodeWithConnection } from "./node-views";
