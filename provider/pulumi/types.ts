import type * as pulumi from "@pulumi/pulumi";
import type { Plain } from "./wire";

/**
 * The framework's types that the resources' public declarations use. Kept apart from the modules whose
 * declarations use the schema library's types: what the package root reaches must compile without
 * esModuleInterop (tests/distribution/publicTypes.test.ts).
 */

/**
 * An object's numeric id as an input: a number or a string of digits (a stack output, a config value), never a name
 * such as `"acme-cdn"` (check refuses any string that is not a positive integer too).
 */
export type NumericId = number | `${number}`;

/** Pulumi-side type of the adoption input, for resource Args. */
export interface AdoptableArgs {
  /**
   * When an object with this resource's identity already exists, manage it instead of failing,
   * provided it matches the inputs exactly. In TypeScript (this package's dynamic resources, where Pulumi's `import`
   * does not work) this is how a program takes an object over; through the provider plugin (Python, Go, YAML)
   * `pulumi import` works too (see the resource's Import section). Only read at create time; changing it later changes
   * nothing.
   */
  adoptExisting?: pulumi.Input<boolean>;
}

/** A resource's outputs interface as the properties of its class: each an Output (merged into the class by its interface). */
export type OutputProperties<Outputs> = { readonly [K in keyof Outputs]-?: pulumi.Output<Outputs[K]> };

/** What a resource class needs of its registered type (returned by `defineResource`). */
export interface ResourceHandle {
  type: string;
  /** Every stored output: the SDK makes an Output property only for the keys the constructor passes. */
  outputNames: readonly string[];
  /** Outputs stored encrypted whatever the program passed. */
  secretOutputs: readonly string[];
  /** The computed output whose value is the object's id (definition.ts, `idOutput`): base.ts derives it from the id. */
  idOutput?: { name: string; numeric: boolean };
}

/** The dynamic provider of one resource type, running in the plugin process (or a test harness). */
export interface ResourceImplementation extends pulumi.dynamic.ResourceProvider {
  configure(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
  check(olds: Plain, news: Plain): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Plain, news: Plain): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Plain): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props?: Plain): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Plain, news: Plain): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Plain): Promise<void>;
}
