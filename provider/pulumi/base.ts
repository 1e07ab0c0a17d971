import * as pulumi from "@pulumi/pulumi";
import { providerText } from "./shim";
import type { ResourceHandle } from "./types";
import { OWNER_KEY, PROVIDER_KEY } from "./wire";

/** The Pulumi module of every resource type: tokens are `pulumi-nodejs:dynamic/bunnynet:<Type>`. */
export const MODULE = "bunnynet";

/** The engine serves `pulumi-nodejs:dynamic/...` tokens with the Node.js dynamic-provider host. */
export function typeToken(type: string): string {
  return `pulumi-nodejs:dynamic/${MODULE}:${type}`;
}

/**
 * Base class of the package's resources: what `pulumi.dynamic.Resource` is (a custom resource with a dynamic token
 * and the provider text in `__provider`), with the package's own small provider text (see shim.ts). A subclass
 * passes its type's handle and the program's args; its outputs come from its outputs interface, merged into the
 * class (`interface X extends OutputProperties<XOutputs> {}`), never from class fields (a field would overwrite the
 * outputs this constructor sets).
 */
export abstract class BunnyResource extends pulumi.CustomResource {
  protected constructor(handle: ResourceHandle, name: string, args: object, opts: pulumi.CustomResourceOptions | undefined) {
    refuseImport(handle, name, opts);
    refuseAdoptionWithCreateBeforeDelete(handle.type, name, args, opts);
    const props: pulumi.Inputs = Object.fromEntries(handle.outputNames.map((k) => [k, undefined]));
    for (const [k, v] of Object.entries(args)) props[k] = handle.secretOutputs.includes(k) && v !== undefined ? pulumi.secret(v) : v;
    props[PROVIDER_KEY] = providerText(handle.type);
    // The resource's URN, whose mark proves the objects its create made (ownership.ts): a dynamic provider's create
    // is told nothing else about which resource it serves.
    props[OWNER_KEY] = pulumi.createUrn(name, typeToken(handle.type), opts?.parent);
    const secrets = [...handle.secretOutputs];
    super(typeToken(handle.type), name, props, secrets.length > 0 ? pulumi.mergeOptions(opts, { additionalSecretOutputs: secrets }) : opts);
    if (handle.idOutput) deriveFromId(this, handle.idOutput, opts);
  }
}

/**
 * The output that holds the object's id (`pullZoneId`, `shieldZoneId`…), derived from the resource's id instead of read
 * from its outputs, so that it is known wherever the id is. At the preview of an update, the Node.js dynamic-provider
 * host runs no Update (its configure answers no supportsPreview: @pulumi/pulumi v3.270.0
 * cmd/dynamic-provider/index.js:96-113), so the engine hands back the checked inputs as the outputs (pulumi/pulumi
 * v3.276.0 sdk/go/common/resource/plugin/provider_plugin.go:1713, Update with Preview) and every computed output is
 * unknown; the id, though, is carried "even in previews" (pkg/resource/deploy/step.go:1078, UpdateStep.Apply) and the
 * SDK resolves it as known when not empty (@pulumi/pulumi v3.270.0 runtime/resource.js:624-626, registerResource:
 * `resolveID(id, id !== undefined)`). Read from the outputs, a child's `pullZoneId: cdn.pullZoneId` turned unknown and
 * the child was previewed as replaced; derived from the id, it stays the same value. The id's Output carries the
 * resource as its dependency; a user's `additionalSecretOutputs` naming the output still makes it secret. At the
 * preview of a create, the id is unknown, and so is the output, as before.
 */
function deriveFromId(resource: BunnyResource, idOutput: { name: string; numeric: boolean }, opts: pulumi.CustomResourceOptions | undefined): void {
  const fromId: pulumi.Output<string | number> = idOutput.numeric ? resource.id.apply(Number) : resource.id.apply((id) => id);
  const secret = opts?.additionalSecretOutputs?.includes(idOutput.name) === true;
  (resource as unknown as Record<string, pulumi.Output<unknown>>)[idOutput.name] = secret ? pulumi.secret(fromId) : fromId;
}

/**
 * The resource option `import` cannot work on a dynamic resource: the engine's import step sends the plugin only the
 * id (pulumi/pulumi v3.259.0 pkg/resource/deploy/step.go:2037, ImportStep.Apply), so the dynamic-provider host finds
 * no provider text and fails with "code must be a string, not undefined" (@pulumi/pulumi cmd/dynamic-provider,
 * getProvider; pulumi/pulumi#16175), an error that names neither the cause nor the way out. Refused here, before
 * anything is registered, with the way that works: adoption (docs/guides/adopting-and-export.md).
 */
function refuseImport(handle: ResourceHandle, name: string, opts: pulumi.CustomResourceOptions | undefined): void {
  if (opts?.import === undefined) return;
  const way = handle.outputNames.includes("adoptExisting")
    ? `Declare it without import and with adoptExisting: true in its inputs: the first up takes the existing object over (it must match the inputs)`
    : `${handle.type} cannot adopt an existing object either: delete the object, or leave it out of the program`;
  throw new Error(
    `${handle.type} ${name}: the resource option import cannot work on bunnynet-pulumi's resources (dynamic providers: the engine sends ` +
      `them only the id and fails with "code must be a string, not undefined", pulumi/pulumi#16175). ${way}. See https://github.com/bunnynet-pulumi/bunnynet-pulumi/blob/main/docs/guides/adopting-and-export.md.`,
  );
}

/**
 * A user's `deleteBeforeReplace: false` overrides the provider's answer (the engine takes the option over the
 * provider's DeleteBeforeReplace). With `adoptExisting`, the replacement would then adopt the very object it
 * replaces, and the engine would delete it afterwards: refused before anything is registered.
 */
function refuseAdoptionWithCreateBeforeDelete(type: string, name: string, args: object, opts: pulumi.CustomResourceOptions | undefined): void {
  const adopt = (args as { adoptExisting?: unknown }).adoptExisting;
  if (opts?.deleteBeforeReplace !== false || adopt === undefined || adopt === false) return;
  throw new Error(
    `${type} ${name}: deleteBeforeReplace: false cannot be combined with adoptExisting: a replacement would adopt the object it replaces, ` +
      `which the engine then deletes. Remove deleteBeforeReplace (the provider deletes first only when the replacement keeps the identity).`,
  );
}
