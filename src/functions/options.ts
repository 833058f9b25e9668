/**
 * The invoke options of the functions, as Pulumi's own: `dependsOn` (Output forms) and `parent`
 * are honoured; `provider`, `version`, `pluginDownloadURL` and `async` choose the plugin that
 * serves an invoke, and these functions run in the program with no plugin, so they are accepted
 * and ignored (Pulumi's `invokeOptionsFromResourceOptions` copies them from a component's options).
 */
import * as pulumi from "@pulumi/pulumi";
import { invalidInput } from "../api";
import { show } from "../model";
import { failingQuietly } from "./program";

/**
 * What tells that `resource` has been created or updated: a custom resource's id (Pulumi resolves
 * it when the engine has applied the resource; unknown in a preview that creates it), and for a
 * component, its children's, as Pulumi's own invokes wait for them.
 */
function doneAt(resource: pulumi.Resource): pulumi.Output<unknown>[] {
  // A DependencyResource has no id: its urn is all there is.
  if (pulumi.CustomResource.isInstance(resource)) return [resource.id ?? resource.urn];
  const children = (resource as unknown as { __childResources?: Set<pulumi.Resource> }).__childResources;
  return [resource.urn, ...[...(children ?? [])].flatMap(doneAt)];
}

/**
 * The entries of `dependsOn` that are not resources, known once every resource among them has
 * been created or updated: unknown while one is not (a preview that creates it). The result of a
 * lookup that waits on it depends on those resources, as an invoke's result does.
 */
function dependencies(dependsOn: pulumi.InvokeOutputOptions["dependsOn"]): pulumi.Output<unknown[]> {
  return (pulumi.output(dependsOn ?? []) as pulumi.Output<unknown>).apply((deps) => {
    const list = ([] as unknown[]).concat(deps);
    const isResource = (d: unknown): d is pulumi.Resource => pulumi.Resource.isInstance(d);
    return pulumi
      .all(list.filter(isResource).flatMap(doneAt))
      .apply(() => list.filter((d) => !isResource(d)));
  });
}

/**
 * Splits connection Inputs from the rest so that a secret `apiKey` is used unwrapped: the key is
 * used, never returned.
 */
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
 * An Output form's result: secret from the arguments on (so that it is secret even while
 * unknown), made by `lookup` once the arguments are known and `opts.dependsOn` is done. A lookup
 * that waits for resources reads the service afresh (`fresh`): it shares no earlier request.
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

/**
 * A Promise form's options checked: `dependsOn` is refused with the Output form to use, since a
 * Promise cannot wait for a resource that a preview does not create (Pulumi drops it silently).
 */
export function checkPromiseOptions(operation: string, opts: pulumi.InvokeOptions): void {
  const { dependsOn } = opts as pulumi.InvokeOutputOptions;
  if (dependsOn === undefined) return;
  const allowed = `use ${operation}Output(args, { dependsOn }), which waits for them`;
  throw invalidInput(operation, [{ field: "dependsOn", value: "resources", allowed }], {
    summary: "a Promise form cannot wait for resources, nothing was sent",
  });
}
