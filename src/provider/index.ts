/** The provider core both hosts serve: the kinds' registry, their methods, shared checks and node views. */
export { FUNCTION_TOKENS, KINDS, KIND_LIST, kindOfToken, PACKAGE, token } from "./kinds";
export type { AnyKind, KindMethods, ReadResult, ResourceKind } from "./kinds";
export {
  attachEngine,
  beginStopping,
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
export { kindOf } from "./checks";
export type { Checked, Diff, PropertyDiff } from "./checks";
export { FAUCET_DRIP_PROPERTIES } from "./faucet-drip";
export type { FaucetDripOutputs, FaucetOutcome } from "./faucet-drip";
export { NETWORK_PROPERTIES } from "./network";
export type { NetworkOutputs } from "./network";
export { inputNames, secretOutputs } from "./table";
export type { Inputs, Outputs, PropertySpec, PropertyTable, TypeOf } from "./table";
export { toNodeConnection, toNodeResult } from "./node-views";
export type { NodeConnection, NodeResult, VerifiedEndpoint } from "./node-views";
