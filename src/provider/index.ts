/** The provider core both hosts serve: the kinds' registry, their methods, shared checks and node views. */
export { FUNCTION_TOKENS, KINDS, KIND_LIST, kindOfToken, PACKAGE, token } from "./kinds";
export type { AnyKind, KindMethods, ReadResult, ResourceKind } from "./kinds";
export {
  attachEngine,
  beginStopping,
  CallInterrupted,
  engineAddress,
  engineLog,
  exitWhenEngineGone,
  interruptCalls,
  OutcomeUnknownError,
  readProviderConfig,
  setProviderConfig,
  withResource,
} from "./calls";
export { engineGone, writeStderr } from "./engine-watch";
export { finiteStacks, guardFrames } from "./error-reports";
export { checkCallSettings, checkCredentialInputs, kindOf, toFailures } from "./checks";
export type { Checked, Diff, PropertyDiff, UncheckedInputs } from "./checks";
export { FAUCET_DRIP_PROPERTIES } from "./faucet-drip";
export type { FaucetDripInputs, FaucetDripOutputs, FaucetOutcome } from "./faucet-drip";
export { NETWORK_PROPERTIES } from "./network";
export type { ManagedInput, NetworkInputs, NetworkOutputs } from "./network";
export { inputNames, secretOutputs } from "./table";
export type { Inputs, Outputs, PropertySpec, PropertyTable, PropertyTypes, TypeOf } from "./table";
export { MASK, maskEndpoint, toNodeConnection, toNodeResult, toNodeWithConnection } from "./node-views";
export type {
  MaskedEndpoints,
  NodeConnection,
  NodeResult,
  NodeWithConnection,
  VerifiedEndpoint,
} from "./node-views";
