/** The invoke options of the functions: `dependsOn` and `parent` honoured; those choosing a plugin ignored (none serves these calls). */
import * as pulumi from "@pulumi/pulumi";
import { invalidInput } from "../api";
import { show } from "../model";
import { failingQuietly } from "./program";

/** What tells that `resource` has been applied: a custom resource's id, a component's children's. */
function doneAt(resource: pulumi.Resource): pulumi.Output<unknown>[] {
  // A DependencyResource has no id: its urn is all there is.
  if (pulumi.CustomResource.isInstance(resource)) return [resource.id ?? resource.urn];
  const children = (resource as unknown as { __childResources?: Set<pulumi.Resource> }).__childResources;
  return [resource.urn, ...[...(children ?? [])].flatMap(doneAt)];
}

/** The entries of `dependsOn` that are not resources, known once every resource among them is applied. */
function dependencies(dependsOn: pulumi.InvokeOutputOptions["dependsOn"]): pulumi.Output<unknown[]> {
  return (pulumi.output(dependsOn ?? []) as pulumi.Output<unknown>).apply((deps) => {
    const list = ([] as unknown[]).concat(deps);
    const isResource = (d: unknown): d is pulumi.Resource => pulumi.Resource.isInstance(d);
    return pulumi
      .all(list.filter(isResource).flatMap(doneAt))
      .apply(() => list.filter((d) => !isResource(d)));
  });
}

/** The arguments with a secret `apiKey` unwrapped: the key is used, never returned. */
export function unsecretArgs<T extends { apiKey?: pulumi.Input<string> }>(
  args: T,
): pulumi.Output<pulumi.Unwrap<Omit<T, "apiKey">> & { apiKey?: string }> {
  const { apiKey, ...rest } = args;
  return pulumi
    .all([pulumi.output(rest), pulumi.unsecret(pulumi.output(apiKey))])
    .apply(
      ([r, key]) =>
        ({ ...(r as object), apiKey: key }) as pulumi.Unwrap<Omit<T, "apiKey">> & { apiKey?: string },
    );
}

/**
 * An Output form's result: secret from the start, made by `lookup` once the arguments are known
 * and `opts.dependsOn` is done (then `fresh`: sharing no earlier request).
 */
export function lookupOutput<P, T>(
  operation: string,
  args: { apiKey?: pulumi.Input<string> },
  opts: pulumi.InvokeOutputOptions,
  lookup: (args: P, fresh: boolean) => Promise<T>,
): pulumi.Output<T> {
  const allowed = "expected resources, e.g. { dependsOn: [network] }";
  return pulumi.secret(pulumi.all([unsecretArgs(args), dependencies(opts.dependsOn)])).apply(([a, wrong]) =>
    failingQuietly(async () => {
      if (wrong.length > 0) {
        throw invalidInput(operation, [{ field: "dependsOn", value: show(wrong[0]), allowed }]);
      }
      return lookup(a as P, opts.dependsOn !== undefined);
    }, opts.parent),
  );
}

/** Refuses `dependsOn` on a Promise form (Pulumi would drop it silently), naming the Output form. */
export function checkPromiseOptions(operation: string, opts: pulumi.InvokeOptions): void {
  const { dependsOn } = opts as pulumi.InvokeOutputOptions;
  if (dependsOn === undefined) return;
  const allowed = `use ${operation}Output(args, { dependsOn }), which waits for them`;
  throw invalidInput(operation, [{ field: "dependsOn", value: "resources", allowed }], {
    summary: "a Promise form cannot wait for resources, nothing was sent",
  });
}
