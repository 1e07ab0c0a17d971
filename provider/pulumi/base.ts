import * as pulumi from "@pulumi/pulumi";
import { providerShim } from "./shim";

/** The Pulumi module of every resource type: tokens are `pulumi-nodejs:dynamic/bunnynet:<Type>`. */
export const MODULE = "bunnynet";

export function typeToken(type: string): string {
  return `pulumi-nodejs:dynamic/${MODULE}:${type}`;
}

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/** The one shim object per type, so Pulumi serializes it once per process (its cache is keyed by object). */
export function shimFor(type: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(type);
  if (!shim) {
    shim = providerShim(type);
    shims.set(type, shim);
  }
  return shim;
}

/**
 * Base class of the package's resources. Subclasses declare their outputs with `declare readonly`
 * (a class field would overwrite the outputs the base constructor sets) and list output keys that
 * did not come from a secret input but are secret in `secretOutputs`.
 */
export abstract class BunnyResource extends pulumi.dynamic.Resource {
  protected constructor(type: string, name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions | undefined, secretOutputs: string[] = []) {
    const options = secretOutputs.length > 0 ? pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs }) : opts;
    super(shimFor(type), name, props, options, MODULE, type);
  }
}
