import * as pulumi from "@pulumi/pulumi";
import { formatProblems, unknownProperties } from "../model";

/**
 * Refuses arguments a resource does not know (a JavaScript caller's typo such as `nmae`, which
 * TypeScript would have caught), naming each and the known name it resembles.
 * @throws pulumi.ResourceError (no stack trace) when an argument is unknown.
 */
export function refuseUnknownArgs(
  type: "Network" | "FaucetDrip",
  name: string,
  args: object,
  known: readonly string[],
): void {
  const problems = unknownProperties(args as Record<string, unknown>, known, "argument");
  if (problems.length === 0) return;
  throw new pulumi.ResourceError(
    `${type} ${JSON.stringify(name)}: ${formatProblems(problems).split("\n").join("; ")}`,
    undefined,
    true,
  );
}

/**
 * Refuses the engine's `import` resource option on a dynamic resource, saying what works instead.
 *
 * For an import the engine reads the resource without its serialized provider, so Pulumi's
 * dynamic-provider host fails before any code of this package runs ("code must be a string,
 * not undefined", or "Cannot read properties of undefined (reading 'toJavaScript')" with older
 * SDKs). The constructor is the only place that can explain it.
 * @throws pulumi.ResourceError (no stack trace) when `opts.import` is set.
 */
export function refuseImport(
  type: "Network" | "FaucetDrip",
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
): void {
  if (opts?.import === undefined || opts.import === null) return;
  const id = typeof opts.import === "string" ? JSON.stringify(opts.import) : `"NW-…"`;
  const message =
    type === "Network"
      ? `Network ${JSON.stringify(name)}: the \`import\` resource option does not work for dynamic resources ` +
        `(the engine reads an imported resource without its provider). Adopt the existing network with \`networkId\` instead: ` +
        `remove \`import\` and write new Network(${JSON.stringify(name)}, { networkId: ${id} }); the next \`pulumi up\` reads the network and records it in the stack ` +
        `(add \`retainOnDelete: true\` to the options to leave the network in place when the resource is removed or destroyed).`
      : `FaucetDrip ${JSON.stringify(name)}: the \`import\` resource option does not work for dynamic resources, and a ` +
        `faucet request cannot be imported: the service has no call that reads one. Remove \`import\`; a FaucetDrip ` +
        `records the request it makes when it is created.`;
  throw new pulumi.ResourceError(message, undefined, true);
}
