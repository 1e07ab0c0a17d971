import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import type { OptimizerClass as ApiOptimizerClass, OptimizerClassRequest } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { KeyedQueue, pullZoneWrites } from "../http/zoneWrites";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { numericPart } from "../pulumi/importIds";

/**
 * An image class of a pull zone's optimizer (`?class=<name>`). Sources: core-api-v1.0.0.json (PullZoneModel and
 * PullZoneSettingsModel `OptimizerClasses`: OptimizerClassModel / PullZoneOptimizerClassModel, a Name and string
 * Properties; the zone's update replaces the whole list), BunnyWay/terraform-provider-bunnynet
 * internal/provider/resource_pullzone_optimizer_class.go (the attributes, their ranges and the property keys) and
 * internal/api/pullzone_optimizer_class.go (a class is added, changed and removed by rewriting the zone's list), and
 * its issues #11 (values must not be escaped) and #39.
 *
 * Every write reads the zone and sends its whole list back: two classes of one zone written at once must not
 * interleave (the per-pull-zone write serialisation is wired around these calls).
 */

export const OPTIMIZER_CLASS_TYPE = "OptimizerClass";

const GRAVITY = ["center", "forget", "east", "north", "south", "west", "northeast", "northwest", "southeast", "southwest"] as const;
const AUTO_OPTIMIZE = ["low", "medium", "high"] as const;

const int = (min: number, max: number) => z.number().int().min(min).max(max).optional();

/** Each optional input, with its property key in the API and how its value is written and read. */
const PROPERTIES = {
  width: { key: "width", kind: "int" },
  height: { key: "height", kind: "int" },
  aspectRatio: { key: "aspect_ratio", kind: "text" },
  quality: { key: "quality", kind: "int" },
  sharpen: { key: "sharpen", kind: "bool" },
  blur: { key: "blur", kind: "int" },
  crop: { key: "crop", kind: "text" },
  cropGravity: { key: "crop_gravity", kind: "text" },
  flip: { key: "flip", kind: "bool" },
  flop: { key: "flop", kind: "bool" },
  brightness: { key: "brightness", kind: "int" },
  saturation: { key: "saturation", kind: "int" },
  hue: { key: "hue", kind: "int" },
  contrast: { key: "contrast", kind: "int" },
  autoOptimize: { key: "auto_optimize", kind: "text" },
  sepia: { key: "sepia", kind: "int" },
} as const;
type Property = keyof typeof PROPERTIES;

const optimizerClassInputs = z
  .object({
    pullZoneId: idFromString,
    name: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "must be 1..100 letters, digits, '-' or '_' (it is used in query strings)"),
    width: int(0, 10000),
    height: int(0, 10000),
    aspectRatio: z.string().regex(/^\d{1,5}:\d{1,5}$/, "must be a ratio such as 16:9").optional(),
    quality: int(0, 100),
    sharpen: z.boolean().optional(),
    blur: int(0, 100),
    crop: z.string().regex(/^\d{1,5},\d{1,5}(,\d{1,5},\d{1,5})?$/, "must be width,height or width,height,x,y in pixels").optional(),
    cropGravity: z.enum(GRAVITY).optional(),
    flip: z.boolean().optional(),
    flop: z.boolean().optional(),
    brightness: int(-100, 100),
    saturation: int(-100, 100),
    hue: int(0, 100),
    contrast: int(-100, 100),
    autoOptimize: z.enum(AUTO_OPTIMIZE).optional(),
    sepia: int(0, 100),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof optimizerClassInputs>;

/** The class as the API keeps it: the set inputs as string properties (values as they are, unescaped: Terraform #11). */
function wireClass(inputs: Inputs): OptimizerClassRequest {
  const properties: Record<string, string> = {};
  for (const [input, { key }] of Object.entries(PROPERTIES) as [Property, (typeof PROPERTIES)[Property]][]) {
    const value = inputs[input];
    if (value !== undefined) properties[key] = String(value);
  }
  return { Name: inputs.name, Properties: properties };
}

/** The class as inputs (properties the package does not know are left alone). */
function observedInputs(found: ApiOptimizerClass, requested: Inputs): Inputs {
  const observed: Record<string, unknown> = { ...requested, name: found.Name };
  for (const [input, { key, kind }] of Object.entries(PROPERTIES) as [Property, (typeof PROPERTIES)[Property]][]) {
    const raw = found.Properties[key];
    observed[input] = raw === undefined ? undefined : kind === "int" ? (/^-?\d+$/.test(raw) ? Number(raw) : raw) : kind === "bool" ? raw === "true" : raw;
  }
  return observed as Inputs;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The zone's classes as the update sends them back. */
function asRequests(classes: ApiOptimizerClass[]): OptimizerClassRequest[] {
  return classes.map((c) => ({ Name: c.Name, Properties: c.Properties }));
}

/**
 * A zone's classes are one list, written whole: two classes written at once would each send the list as they read it,
 * and the later would drop the earlier's class. So this process changes one zone's list one class at a time, each
 * reading the list after the previous one's write (sharedReads.ts drops a cached read when a write of its zone ends).
 */
const classLists = new KeyedQueue();
const changingClassesOf = <T>(pullZoneId: number, change: () => Promise<T>): Promise<T> => classLists.run(String(pullZoneId), change);

const optimizerClass = defineResource<OptimizerClassOutputs>()({
  type: OPTIMIZER_CLASS_TYPE,
  inputs: optimizerClassInputs,
  computedOutputs: [],
  // A class is known by its name in its zone: another zone or name is another class.
  replaceOnChanges: ["pullZoneId", "name"],
  identity: ["pullZoneId", "name"],

  importId: {
    format: "<pullZoneId>/<name>",
    parse: ([pullZoneId, name]) => ({ id: `${pullZoneId}/${name}`, state: { pullZoneId: numericPart(pullZoneId, "pullZoneId"), name } }),
  },
  describe(found: ApiOptimizerClass, requested: Inputs) {
    return { id: `${requested.pullZoneId}/${found.Name}`, inputs: observedInputs(found, requested), outputs: {} };
  },

  find: async ({ client }, inputs) => (await client.pullZones.getPullZone(inputs.pullZoneId)).OptimizerClasses.find((c) => sameName(c.Name, inputs.name)),

  writeZones: (_ctx, values) => [pullZoneWrites(values.pullZoneId)],

  create: ({ client }, inputs) =>
    changingClassesOf(inputs.pullZoneId, async () => {
      const zone = await client.pullZones.getPullZone(inputs.pullZoneId);
      const updated = await client.pullZones.updatePullZone(inputs.pullZoneId, { OptimizerClasses: [...asRequests(zone.OptimizerClasses), wireClass(inputs)] });
      return mustHold(updated.OptimizerClasses, inputs.name);
    }),

  get: async ({ client }, _id, state) => (await client.pullZones.getPullZone(state.pullZoneId)).OptimizerClasses.find((c) => sameName(c.Name, state.name)),

  update: ({ client }, _id, state, inputs) =>
    changingClassesOf(state.pullZoneId, async () => {
      const zone = await client.pullZones.getPullZone(state.pullZoneId);
      const others = asRequests(zone.OptimizerClasses.filter((c) => !sameName(c.Name, state.name)));
      const updated = await client.pullZones.updatePullZone(state.pullZoneId, { OptimizerClasses: [...others, wireClass(inputs)] });
      return mustHold(updated.OptimizerClasses, inputs.name);
    }),

  // A class (or a zone) that is not there any more is already gone.
  delete: ({ client }, _id, state) =>
    changingClassesOf(state.pullZoneId, async () => {
      const zone = await client.pullZones.getPullZone(state.pullZoneId);
      if (!zone.OptimizerClasses.some((c) => sameName(c.Name, state.name))) return;
      await client.pullZones.updatePullZone(state.pullZoneId, { OptimizerClasses: asRequests(zone.OptimizerClasses.filter((c) => !sameName(c.Name, state.name))) });
    }),
});

/** The class in the zone's answer; its absence means the API did not keep it. */
function mustHold(classes: ApiOptimizerClass[], name: string): ApiOptimizerClass {
  const found = classes.find((c) => sameName(c.Name, name));
  if (!found) throw new Error(`The pull zone's answer has no optimizer class ${name} after adding it.`);
  return found;
}

export interface OptimizerClassArgs extends AdoptableArgs {
  /** The pull zone of the class. Changing it replaces the class. */
  pullZoneId: pulumi.Input<NumericId>;
  /** The class's name, used as `?class=<name>` (letters, digits, '-' and '_'). Changing it replaces the class. */
  name: pulumi.Input<string>;
  /** Width in pixels. */
  width?: pulumi.Input<number>;
  /** Height in pixels. */
  height?: pulumi.Input<number>;
  /** Aspect ratio such as "16:9". */
  aspectRatio?: pulumi.Input<string>;
  /** Quality 0..100. */
  quality?: pulumi.Input<number>;
  /** Sharpen the image. */
  sharpen?: pulumi.Input<boolean>;
  /** Blur 0..100. */
  blur?: pulumi.Input<number>;
  /** Crop: "width,height" or "width,height,x,y" in pixels. */
  crop?: pulumi.Input<string>;
  /** Where a crop is anchored: center, forget, east, north, south, west, northeast, northwest, southeast, southwest. */
  cropGravity?: pulumi.Input<(typeof GRAVITY)[number]>;
  /** Flip vertically. */
  flip?: pulumi.Input<boolean>;
  /** Flip horizontally. */
  flop?: pulumi.Input<boolean>;
  /** Brightness -100..100. */
  brightness?: pulumi.Input<number>;
  /** Saturation -100..100. */
  saturation?: pulumi.Input<number>;
  /** Hue 0..100. */
  hue?: pulumi.Input<number>;
  /** Contrast -100..100. */
  contrast?: pulumi.Input<number>;
  /** Automatic optimisation: low, medium or high. */
  autoOptimize?: pulumi.Input<(typeof AUTO_OPTIMIZE)[number]>;
  /** Sepia 0..100. */
  sepia?: pulumi.Input<number>;
}

argsMatchSchema<OptimizerClassArgs, typeof optimizerClassInputs>(true);

/** What an OptimizerClass holds once deployed (its id is `<pullZoneId>/<name>`). */
export interface OptimizerClassOutputs {
  pullZoneId: number;
  name: string;
  width: number | undefined;
  height: number | undefined;
  aspectRatio: string | undefined;
  quality: number | undefined;
  sharpen: boolean | undefined;
  blur: number | undefined;
  crop: string | undefined;
  cropGravity: (typeof GRAVITY)[number] | undefined;
  flip: boolean | undefined;
  flop: boolean | undefined;
  brightness: number | undefined;
  saturation: number | undefined;
  hue: number | undefined;
  contrast: number | undefined;
  autoOptimize: (typeof AUTO_OPTIMIZE)[number] | undefined;
  sepia: number | undefined;
  adoptExisting: boolean;
}

export interface OptimizerClass extends OutputProperties<OptimizerClassOutputs> {}
/** An image class of a pull zone's optimizer: a named set of transformations, used as `?class=<name>`. */
export class OptimizerClass extends BunnyResource {
  constructor(name: string, args: OptimizerClassArgs, opts?: pulumi.CustomResourceOptions) {
    super(optimizerClass, name, args, opts);
  }
}
