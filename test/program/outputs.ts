/** Reading Outputs in the program tier's tests. */
import * as pulumi from "@pulumi/pulumi";
import { rejection } from "../helpers/client";

export { rejection };

/** The value of a known Output. */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

/**
 * The rejection of an Output's value, with every promise of the Output handled (its value, whether
 * it is known, whether it is secret, its resources): a program's language host reports each
 * distinct error object once, so nothing may be left over for the next test.
 */
export function outputRejection(output: pulumi.Output<unknown>): Promise<Error> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const o = output as any;
  for (const p of [o.isKnown, o.isSecret, o.allResources?.()]) p?.catch(() => undefined);
  return rejection(o.promise());
}

/**
 * Pulumi's mocks (a call answers its arguments; by default a resource's state is its inputs), in a
 * preview if `dryRun`, then the package, loaded after them as a program loads it.
 */
export function mockedSdk(
  newResource: pulumi.runtime.Mocks["newResource"] = (args) => ({
    id: `${args.name}-id`,
    state: args.inputs,
  }),
  dryRun = false,
): typeof import("../../src") {
  pulumi.runtime.setMocks({ newResource, call: (args) => args.inputs }, "program", "test", dryRun);
  return require("../../src");
}
