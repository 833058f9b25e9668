import { ownValue } from "./own";

/** Cloud providers and the regions each offers (spec 2.1). */
export const PROVIDER_REGIONS = {
  gcloud: ["asia-southeast1"],
  aws: ["ap-southeast-1", "us-west-2", "us-east-1"],
  azure: ["uksouth"],
  vzo: ["eu3"],
} as const;

/** The regions a provider offers, or `undefined` for anything that is not a provider. */
export function regionsOf(provider: unknown): readonly Region[] | undefined {
  return ownValue(PROVIDER_REGIONS, provider);
}

/** A cloud provider value, e.g. `aws`. */
export type CloudProvider = keyof typeof PROVIDER_REGIONS;

/** All cloud providers, in the spec's order. */
export const PROVIDERS = ["aws", "azure", "gcloud", "vzo"] as const satisfies readonly CloudProvider[];

/** A region value, e.g. `us-east-1`. */
export type Region = (typeof PROVIDER_REGIONS)[CloudProvider][number];

/** All regions, in the spec's order. */
export const REGIONS = [
  "asia-southeast1",
  "ap-southeast-1",
  "us-west-2",
  "us-east-1",
  "uksouth",
  "eu3",
] as const satisfies readonly Region[];

/** Every allowed provider/region pair. */
export const PROVIDER_REGION_PAIRS: ReadonlyArray<{ provider: CloudProvider; region: Region }> =
  PROVIDERS.flatMap((provider) => PROVIDER_REGIONS[provider].map((region: Region) => ({ provider, region })));
