/** The dynamic resources' shell: the checks of a declaration, and the small provider object Pulumi serializes into state. */
import * as pulumi from "@pulumi/pulumi";
import { formatProblems, unknownProperties } from "../model/rules";
import { guardFrames } from "../provider/error-reports";
import { inputNames, secretOutputs, type Inputs, type PropertyTable, type TypeOf } from "../provider/table";
import { type ResourceKind } from "../provider/kinds";
import { reviewStackConfig } from "../settings";

/** A kind's arguments in a program: its inputs, each a `pulumi.Input` (docs from its property table). */
export type ArgsOf<P extends PropertyTable, I = Inputs<P>> = {
  [K in keyof I]: pulumi.Input<NonNullable<I[K]>>;
};

/** A kind's declared outputs, the members of its class (docs from its property table). */
export type OutputsOf<P extends PropertyTable> = {
  readonly [K in keyof P as P[K] extends { output: "required" | "optional" } ? K : never]: pulumi.Output<
    P[K] extends { output: "required" } ? TypeOf<P[K]> : TypeOf<P[K]> | undefined
  >;
};

/** The package specifier of the provider runtime, as the provider process requires it. */
export const RUNTIME_SPECIFIER = "pulumi-blockchain-nodes/provider-runtime";

const providers = new Map<string, pulumi.dynamic.ResourceProvider>();

/** The provider object of a kind, built once per process so Pulumi serializes it once. */
export function providerFor(kind: ResourceKind<unknown, unknown>["key"]): pulumi.dynamic.ResourceProvider {
  if (!providers.has(kind)) providers.set(kind, makeProvider(kind));
  return providers.get(kind) as pulumi.dynamic.ResourceProvider;
}

/**
 * The provider object Pulumi serializes: it captures only the kind and the runtime's specifier (no
 * path, client or key), and loads the runtime at call time from the project's installed package,
 * else from the nearest checkout of the package (examples, tests), so state stays portable.
 */
export function makeProvider(
  kind: ResourceKind<unknown, unknown>["key"],
  specifier: string = RUNTIME_SPECIFIER,
): pulumi.dynamic.ResourceProvider {
  function load() {
    try {
      return require(specifier);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (e.code !== "MODULE_NOT_FOUND" || !String(e.message).includes(specifier)) throw err;
    }
    const fs: typeof import("fs") = require("fs");
    const path: typeof import("path") = require("path");
    const name = specifier.slice(0, specifier.indexOf("/"));
    const named = (dir: string) => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).name === name;
      } catch {
        return false;
      }
    };
    const starts = [process.cwd(), require.main?.filename ? path.dirname(require.main.filename) : ""];
    for (const start of starts.filter(Boolean)) {
      for (let dir = start, up = ""; dir !== up; up = dir, dir = path.dirname(dir)) {
        const file = path.join(dir, "dist", "provider-runtime.js");
        if (named(dir) && fs.existsSync(file)) return require(file);
      }
    }
    throw new Error(
      `cannot load ${specifier} (from ${process.cwd()}): install the package in the project (npm install ${name}); ` +
        `in its own repository, build it first (npm run build)`,
    );
  }
  return {
    configure: (req) => load().configure(req),
    check: (olds, news) => load()[kind].check(olds, news),
    diff: (id, olds, news) => load()[kind].diff(id, olds, news),
    create: (inputs) => load()[kind].create(inputs),
    read: (id, props) => load()[kind].read(id, props),
    update: (id, olds, news) => load()[kind].update(id, olds, news),
    delete: (id, props) => load()[kind].delete(id, props),
  };
}

/**
 * Checks a declaration before it reaches the engine: a plain-text API key in stack config, the `import`
 * option (which the dynamic host cannot serve), missing arguments and unknown ones are refused with a
 * `pulumi.ResourceError`. Returns the properties to register and the options with the kind's secret outputs.
 */
export function checkDeclaration(
  kind: ResourceKind<unknown, unknown>,
  name: string,
  args: object | undefined,
  opts: pulumi.CustomResourceOptions | undefined,
): { props: pulumi.Inputs; options: pulumi.CustomResourceOptions } {
  const refuse = (message: string) => new pulumi.ResourceError(message, undefined, true);
  guardFrames();
  try {
    reviewStackConfig(pulumi.runtime, (message) => pulumi.log.warn(message));
  } catch (error) {
    throw refuse(`${kind.name} ${JSON.stringify(name)}: ${(error as Error).message}`);
  }
  if (opts?.import !== undefined && opts.import !== null) {
    const id = typeof opts.import === "string" ? opts.import : undefined;
    throw refuse(kind.importing.dynamicRefusal(name, id));
  }
  if (args === undefined || args === null || typeof args !== "object")
    throw refuse(
      `${kind.name} ${JSON.stringify(name)}: the arguments are missing: pass ${kind.docs.needs}, ` +
        `e.g. ${kind.docs.example(name)}.`,
    );
  const problems = unknownProperties(
    args as Record<string, unknown>,
    inputNames(kind.properties),
    "argument",
  );
  if (problems.length > 0)
    throw refuse(`${kind.name} ${JSON.stringify(name)}: ${formatProblems(problems).split("\n").join("; ")}`);
  const given = args as Record<string, pulumi.Input<unknown>>;
  const props: pulumi.Inputs = {};
  for (const [k, spec] of Object.entries(kind.properties)) {
    if (spec.input) props[k] = spec.secret && given[k] !== undefined ? pulumi.secret(given[k]) : given[k];
    else if (spec.output !== undefined && spec.output !== "state") props[k] = undefined;
  }
  const options = pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs(kind.properties) });
  return { props, options };
}
