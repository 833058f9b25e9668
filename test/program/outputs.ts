/** Reading Outputs in the program tier's tests. */
import * as pulumi from "@pulumi/pulumi";

/** The value of a known Output. */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
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
 * Pulumi's mocks as most of this tier's tests use them (a resource's state is its inputs, a call
 * answers its arguments), then the package, loaded after them as a program loads it.
 */
export function mockedSdk(): typeof import("../../src") {
  pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
    "program",
    "test",
    false,
  );
  return require("../../src");
}
