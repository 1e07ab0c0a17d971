import * as pulumi from "@pulumi/pulumi";
import { PROVIDER_KEY } from "./resource";
import { providerText } from "./shim";

/** The Pulumi module of every resource type: tokens are `pulumi-nodejs:dynamic/bunnynet:<Type>`. */
export const MODULE = "bunnynet";

/** The engine serves `pulumi-nodejs:dynamic/...` tokens with the Node.js dynamic-provider host. */
export function typeToken(type: string): string {
  return `pulumi-nodejs:dynamic/${MODULE}:${type}`;
}

/**
 * Base class of the package's resources: what `pulumi.dynamic.Resource` is (a custom resource with a dynamic token
 * and the provider text in `__provider`), with the package's own small provider text (see shim.ts).
 * Subclasses declare their outputs with `declare readonly` (a class field would overwrite the outputs the base
 * constructor sets) and list output keys that did not come from a secret input but are secret in `secretOutputs`.
 */
export abstract class BunnyResource extends pulumi.CustomResource {
  protected constructor(type: string, name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions | undefined, secretOutputs: string[] = []) {
    refuseAdoptionWithCreateBeforeDelete(type, name, props, opts);
    const options = secretOutputs.length > 0 ? pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs }) : opts;
    super(typeToken(type), name, { ...props, [PROVIDER_KEY]: providerText(type) }, options);
  }
}

/**
 * A user's `deleteBeforeReplace: false` overrides the provider's answer (the engine takes the option over the
 * provider's DeleteBeforeReplace). With `adoptExisting`, the replacement would then adopt the very object it
 * replaces, and the engine would delete it afterwards: refused before anything is registered.
 */
function refuseAdoptionWithCreateBeforeDelete(type: string, name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions | undefined): void {
  const adopt = (props as { adoptExisting?: unknown }).adoptExisting;
  if (opts?.deleteBeforeReplace !== false || adopt === undefined || adopt === false) return;
  throw new Error(
    `${type} ${name}: deleteBeforeReplace: false cannot be combined with adoptExisting: a replacement would adopt the object it replaces, ` +
      `which the engine then deletes. Remove deleteBeforeReplace (the provider deletes first only when the replacement keeps the identity).`,
  );
}
