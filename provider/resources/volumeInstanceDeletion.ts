import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isNotFound } from "../http/errors";
import { McIdSchema, type Volume } from "../schemas/containers";
import { BunnyResource } from "../pulumi/base";
import type { OutputProperties } from "../pulumi/types";
import { type ResourceContext, argsMatchSchema, defineResource } from "../pulumi";

export const VOLUME_INSTANCE_DELETION_TYPE = "VolumeInstanceDeletion";

const volumeInstanceDeletionInputs = z
  .object({
    appId: McIdSchema,
    volumeId: McIdSchema,
    instanceId: McIdSchema,
    detachFirst: z.boolean().default(false),
    triggers: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  })
  .strict();

type Inputs = z.output<typeof volumeInstanceDeletionInputs>;

/** The outcome of the deletion: all there is to know once the instance is gone. */
interface Deletion {
  deletedInstanceId: string;
  detached: boolean;
  alreadyGone: boolean;
  deletedAt: string;
}

function attached(volume: Volume, instanceId: string): boolean {
  const instance = volume.volumeInstances.find((i) => i.id === instanceId);
  return instance !== undefined && (instance.status === "attached" || instance.attachedContainers.length > 0 || instance.attachedPods.length > 0);
}

function done(inputs: Inputs, detached: boolean, alreadyGone: boolean): Deletion {
  return { deletedInstanceId: inputs.instanceId, detached, alreadyGone, deletedAt: new Date().toISOString() };
}

/**
 * Deletes the instance. An app, volume or instance that is not there means the instance is gone already
 * (e.g. the answer of an earlier attempt was lost): that counts as done.
 */
async function deleteInstance({ client }: ResourceContext, inputs: Inputs): Promise<Deletion> {
  const { appId, volumeId, instanceId } = inputs;
  let volume: Volume | undefined;
  try {
    volume = await client.containers.findVolume(appId, volumeId);
  } catch (e) {
    if (isNotFound(e)) return done(inputs, false, true);
    throw e;
  }
  if (!volume?.volumeInstances.some((i) => i.id === instanceId)) return done(inputs, false, true);
  const mustDetach = attached(volume, instanceId);
  if (mustDetach && !inputs.detachFirst) {
    throw new Error(
      `Volume ${volumeId} ("${volume.name}") is still attached, so its instance ${instanceId} cannot be deleted. ` +
        `Set detachFirst: true to detach the volume (every one of its instances) and then delete the instance, or detach it yourself.`,
    );
  }
  if (mustDetach) await client.containers.detachVolume(appId, volumeId);
  try {
    await client.containers.deleteVolumeInstance(appId, volumeId, instanceId);
  } catch (e) {
    if (isNotFound(e)) return done(inputs, mustDetach, true);
    throw e;
  }
  return done(inputs, mustDetach, false);
}

/** The stored outcome (read and update change nothing: a deleted instance cannot come back). */
function storedDeletion(state: Partial<Deletion>): Deletion {
  return { deletedInstanceId: state.deletedInstanceId ?? "", detached: state.detached ?? false, alreadyGone: state.alreadyGone ?? false, deletedAt: state.deletedAt ?? "" };
}

const volumeInstanceDeletion = defineResource<VolumeInstanceDeletionOutputs>()({
  type: VOLUME_INSTANCE_DELETION_TYPE,
  inputs: volumeInstanceDeletionInputs,
  computedOutputs: ["deletedInstanceId", "detached", "alreadyGone", "deletedAt"],
  idOutput: { name: "deletedInstanceId", numeric: false },
  // Any other instance, or new triggers, is a new deletion to run. detachFirst only matters while it runs.
  replaceOnChanges: ["appId", "volumeId", "instanceId", "triggers"],
  identity: ["appId", "volumeId", "instanceId"],

  importId: { notImportable: "a deletion is an action, not an object the API keeps" },
  describe(deletion: Deletion, requested: Inputs) {
    return { id: deletion.deletedInstanceId, inputs: requested, outputs: { ...deletion } };
  },

  create: deleteInstance,
  get: async (_ctx, _id, state) => storedDeletion(state),
  update: async (_ctx, _id, state) => storedDeletion(state),
  delete: async () => undefined,
});

export interface VolumeInstanceDeletionArgs {
  /** The Magic Containers app. */
  appId: pulumi.Input<string>;
  /** The volume whose instance is deleted. */
  volumeId: pulumi.Input<string>;
  /** The volume instance to delete. */
  instanceId: pulumi.Input<string>;
  /**
   * Detach the volume first when it is attached (detaching affects every instance of the volume).
   * Default false: an attached volume makes the deletion fail, without deleting anything.
   */
  detachFirst?: pulumi.Input<boolean>;
  /** Any values: a change runs the deletion again (as a replacement). */
  triggers?: pulumi.Input<pulumi.Input<unknown>[] | Record<string, pulumi.Input<unknown>>>;
}

argsMatchSchema<VolumeInstanceDeletionArgs, typeof volumeInstanceDeletionInputs>(true);

/** What a VolumeInstanceDeletion holds once it ran. */
export interface VolumeInstanceDeletionOutputs {
  appId: string;
  volumeId: string;
  instanceId: string;
  detachFirst: boolean;
  triggers: unknown[] | Record<string, unknown> | undefined;
  /** The instance that was deleted. */
  deletedInstanceId: string;
  /** Whether the volume was detached to delete it. */
  detached: boolean;
  /** Whether the instance was already gone (nothing was deleted). */
  alreadyGone: boolean;
  /** When the deletion ran (ISO 8601). */
  deletedAt: string;
}

export interface VolumeInstanceDeletion extends OutputProperties<VolumeInstanceDeletionOutputs> {}
/**
 * A one-shot action: deletes one instance of a Magic Containers volume when created (and again when
 * `triggers` or the ids change). An instance already gone counts as done (`alreadyGone: true`).
 * Destroying the resource does nothing: a deleted instance cannot come back, and refresh keeps the outcome.
 */
export class VolumeInstanceDeletion extends BunnyResource {
  constructor(name: string, args: VolumeInstanceDeletionArgs, opts?: pulumi.CustomResourceOptions) {
    super(volumeInstanceDeletion, name, args, opts);
  }
}
