import type { z } from "zod";
import type { ResourceHandle, ResourceImplementation } from "./types";
import type { InputShape, ResourceDefinition } from "./definition";
import type { AllNamed, ComputedOutputs, OutputsMatchSchema } from "./typeProofs";
import { implement } from "./lifecycle";
import { marking } from "./ownership";

/**
 * Every resource type of the package, by name: `defineResource` registers one, the plugin process finds its
 * implementation by the type in the resource's token (entry.ts), the resource class its handle.
 */

const definitions = new Map<string, () => ResourceImplementation>();
/** The definitions themselves, by type: `bunnynet export` describes API objects as their resources' inputs with them. */
const declared = new Map<string, ResourceDefinition<InputShape, unknown, object>>();

/** The implementation of a type registered by `defineResource` (one instance per process). */
export function implementationOf(type: string): ResourceImplementation | undefined {
  return definitions.get(type)?.();
}

/**
 * The definition registered for a type (once provider/index has loaded), for code that reads objects as a resource
 * sees them without running it: `describe` gives the inputs an adoption compares.
 */
export function definitionOf(type: string): ResourceDefinition<InputShape, unknown, object> | undefined {
  return declared.get(type);
}

/** Every registered type name (all of the package's resources once provider/index has loaded). */
export function registeredTypes(): string[] {
  return [...definitions.keys()];
}

/**
 * Registers a resource type whose stored outputs are `Outputs` (the resource's outputs interface: stored inputs
 * and computed outputs, declared once with their documentation) and returns the handle its class is built with.
 * Compiles only when `Outputs` matches the schema and `computedOutputs` names every computed output (`Wider`: outputs
 * the program sees as a richer type than the schema stores, such as an asset).
 */
export function defineResource<Outputs extends object, Wider extends string = never>() {
  return <Shape extends InputShape, Obj, const Named extends readonly (keyof ComputedOutputs<Outputs, z.ZodObject<Shape>> & string)[]>(
    def: ResourceDefinition<Shape, Obj, ComputedOutputs<Outputs, z.ZodObject<Shape>>> & { computedOutputs: Named } & ProofsHold<Outputs, Shape, Named, Wider>,
  ): ResourceHandle => register(def);
}

/** Nothing when the outputs interface matches the definition; else a property the definition lacks, whose type names what differs. */
type ProofsHold<Outputs, Shape extends InputShape, Named extends readonly string[], Wider extends string> = [
  OutputsMatchSchema<Outputs, z.ZodObject<Shape>, Wider>,
  AllNamed<ComputedOutputs<Outputs, z.ZodObject<Shape>>, Named>,
] extends [true, true]
  ? unknown
  : { outputsInterfaceDiffers: [OutputsMatchSchema<Outputs, z.ZodObject<Shape>, Wider>, AllNamed<ComputedOutputs<Outputs, z.ZodObject<Shape>>, Named>] };

function register<Shape extends InputShape, Obj, O extends object>(def: ResourceDefinition<Shape, Obj, O>): ResourceHandle {
  const inPlace = Object.keys(def.inputs.shape).filter((k) => k !== "adoptExisting" && !def.replaceOnChanges.includes(k));
  if (inPlace.length > 0 && !def.update) {
    throw new Error(`${def.type}: ${inPlace.join(", ")} change in place, so the definition needs update (or list them in replaceOnChanges)`);
  }
  if (definitions.has(def.type)) throw new Error(`resource type ${def.type} is defined twice`);
  def = marking(def);
  let instance: ResourceImplementation | undefined;
  definitions.set(def.type, () => (instance ??= implement(def)));
  declared.set(def.type, def as unknown as ResourceDefinition<InputShape, unknown, object>);
  return {
    type: def.type,
    outputNames: [...Object.keys(def.inputs.shape), ...def.computedOutputs],
    secretOutputs: [...(def.secretOutputs ?? [])],
    ...(def.idOutput ? { idOutput: { name: def.idOutput.name, numeric: def.idOutput.numeric } } : {}),
  };
}

