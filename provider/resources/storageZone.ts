import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { StorageRegionSchema, StorageZoneTier } from "../schemas/storageZones";
import type { StorageRegion } from "../schemas/storageRegions";
import type { StorageZone as StorageZoneModel } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, OutputProperties } from "../pulumi/types";
import { type CheckFailure, adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { stillServing } from "./originUsers";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * A storage zone. Sources: core-api-v1.0.0.json (StorageZonePublic_Add, _Index, _IndexAll, _Update, _Delete;
 * StorageZoneModelAdd, StorageZoneSettingsModel, StorageZoneTier); BunnyWay/terraform-provider-bunnynet
 * internal/provider/resource_storage_zone.go (`bunnynet_storage_zone`: name, region, zone_tier replace;
 * replication_regions, custom_404_file_path, rewrite_404_to_200 in place) and its issue #60: removing a replication
 * region is sent as an in-place update, which the API refuses; here a removal replaces the zone, an addition does not.
 *
 * A zone that pull zones serve from is not deleted. StorageZonePublic_Delete's `deleteLinkedPullZones` (default true)
 * deletes them with it (Terraform's issue #14: a storage zone's replacement took its pull zone); with false, which
 * this resource sends, the documents do not say what the pull zones serve, and the emulator keeps them naming a zone
 * that is gone (emulator/README.md). Either way the site is broken without a word at preview or refresh (issue 37),
 * so delete refuses while StorageZoneModel's `PullZones` lists any, except for the original of a replacement, whose
 * pull zones in the program move to the new zone.
 */

export const STORAGE_ZONE_TYPE = "StorageZone";

const TIERS = { Standard: StorageZoneTier.Standard, Edge: StorageZoneTier.Edge } as const;
type TierName = keyof typeof TIERS;
const tierName = (n: number | null | undefined): TierName => (n === StorageZoneTier.Edge ? "Edge" : "Standard");

const storageZoneInputs = z
  .object({
    // Letters, digits and hyphens: the name is a part of the zone's storage and FTP addresses.
    name: z.string().regex(/^[a-zA-Z0-9-]{1,64}$/, "must be 1..64 letters, digits and hyphens"),
    region: StorageRegionSchema,
    // A set: sorted and without repeats, so the order written in the program is no change.
    replicationRegions: z
      .array(StorageRegionSchema)
      .default([])
      .transform((r) => [...new Set(r)].sort()),
    zoneTier: z.enum(["Standard", "Edge"]).default("Standard"),
    rewrite404To200: z.boolean().default(false),
    custom404FilePath: z.string().min(1, "must not be empty (leave it unset for none)").optional(),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof storageZoneInputs>;

const removesRegion = (old: unknown, next: unknown) => Array.isArray(old) && old.some((r) => !(Array.isArray(next) && next.includes(r)));

const storageZone = defineResource<StorageZoneOutputs>()({
  type: STORAGE_ZONE_TYPE,
  inputs: storageZoneInputs,
  computedOutputs: ["storageZoneId", "hostname", "password", "readOnlyPassword"],
  idOutput: { name: "storageZoneId", numeric: true },
  // StorageZoneSettingsModel has neither a name, a region nor a tier: those make a new zone.
  replaceOnChanges: ["name", "region", "zoneTier"],
  replaceWhen: { replicationRegions: removesRegion },
  identity: ["name"],
  // The API refuses a name in use anywhere (400 `storagezone.name_taken`).
  refusesDuplicates: true,
  setOnAdoption: ["rewrite404To200", "custom404FilePath"],
  secretOutputs: ["password", "readOnlyPassword"],

  async complete(inputs, unknown) {
    const failures: CheckFailure[] = [];
    const regions = inputs.replicationRegions;
    if (!unknown.has("region") && !unknown.has("replicationRegions") && Array.isArray(regions) && regions.includes(inputs.region)) {
      failures.push({ property: "replicationRegions", reason: `must not include the main region ${String(inputs.region)}` });
    }
    return { inputs, failures };
  },

  importId: ownIdOnly("storageZoneId", true),
  describe(zone: StorageZoneModel, requested: Inputs) {
    return {
      id: String(zone.Id),
      inputs: {
        ...requested,
        name: zone.Name,
        // A region this package does not know yet is kept as answered (a diff shows it).
        region: zone.Region as StorageRegion,
        replicationRegions: ([...zone.ReplicationRegions] as StorageRegion[]).sort(),
        zoneTier: tierName(zone.ZoneTier),
        rewrite404To200: zone.Rewrite404To200,
        custom404FilePath: zone.Custom404FilePath ? zone.Custom404FilePath : undefined,
      },
      outputs: { storageZoneId: zone.Id, hostname: zone.StorageHostname, password: zone.Password, readOnlyPassword: zone.ReadOnlyPassword },
    };
  },

  find: ({ client }, inputs) => client.storageZones.findStorageZoneByName(inputs.name),

  // The add takes name, region, regions and tier; the 404 settings follow in one update (as Terraform does).
  async create({ client }, inputs) {
    const created = await client.storageZones.createStorageZone({
      Name: inputs.name,
      Region: inputs.region,
      ReplicationRegions: inputs.replicationRegions,
      ZoneTier: TIERS[inputs.zoneTier],
    });
    if (!inputs.rewrite404To200 && inputs.custom404FilePath === undefined) return created;
    await client.storageZones.updateStorageZone(created.Id, { Rewrite404To200: inputs.rewrite404To200, Custom404FilePath: inputs.custom404FilePath });
    return { ...created, Rewrite404To200: inputs.rewrite404To200, Custom404FilePath: inputs.custom404FilePath ?? null };
  },

  get: ({ client }, id) => client.storageZones.getStorageZone(Number(id)),

  // Regions are only added here (a removal replaced the zone); an unset 404 path is sent empty to clear it.
  async update({ client }, id, state, inputs) {
    await client.storageZones.updateStorageZone(Number(id), {
      ReplicationZones: inputs.replicationRegions,
      Rewrite404To200: inputs.rewrite404To200,
      Custom404FilePath: inputs.custom404FilePath ?? (state.custom404FilePath !== undefined ? "" : undefined),
    });
    return client.storageZones.getStorageZone(Number(id));
  },

  // Pulumi manages the pull zones on it: they are never deleted with the zone (the API's default would), and while
  // any serves from it the zone is not deleted (see the header).
  async delete({ client }, id, state, replacing) {
    const users = replacing ? [] : (await client.storageZones.getStorageZone(Number(id), { fresh: true })).PullZones;
    if (users.length > 0) throw new Error(`Storage zone ${state.name} (id ${id}) is not deleted: ${stillServing(users, "from a zone that is gone")}`);
    await client.storageZones.deleteStorageZone(Number(id), { deleteLinkedPullZones: false });
  },
});

export interface StorageZoneArgs extends AdoptableArgs {
  /** The zone's name (1..64 letters, digits, hyphens; unique across bunny.net). Changing it replaces the zone. */
  name: pulumi.Input<string>;
  /** The main region: `DE`, `UK`, `SE`, `CZ`, `ES`, `NY`, `LA`, `WA`, `MI`, `SG`, `HK`, `JP`, `SYD`, `BR` or `JH`. Changing it replaces the zone. */
  region: pulumi.Input<StorageRegion>;
  /** Regions the files are replicated to. Adding one changes in place; removing one replaces the zone (the API cannot). */
  replicationRegions?: pulumi.Input<pulumi.Input<StorageRegion>[]>;
  /** `"Standard"` (default) or `"Edge"` (SSD). Changing it replaces the zone. */
  zoneTier?: pulumi.Input<"Standard" | "Edge">;
  /** Answer 200 instead of 404 for URLs without an extension (single-page apps). Changes in place. Default false. */
  rewrite404To200?: pulumi.Input<boolean>;
  /** The file served for a missing path, such as `/404.html`. Changes in place. */
  custom404FilePath?: pulumi.Input<string>;
}

argsMatchSchema<StorageZoneArgs, typeof storageZoneInputs>(true);

/** What a StorageZone holds once deployed. */
export interface StorageZoneOutputs {
  name: string;
  region: StorageRegion;
  replicationRegions: StorageRegion[];
  zoneTier: "Standard" | "Edge";
  rewrite404To200: boolean;
  custom404FilePath: string | undefined;
  adoptExisting: boolean;
  /** The zone's id in the API (a pull zone's `origin: { storageZoneId }`). */
  storageZoneId: number;
  /** The storage API and FTP hostname, such as `storage.bunnycdn.com`. */
  hostname: string;
  /** The read-write password (storage API `AccessKey`, FTP): always a secret. */
  password: string;
  /** The read-only password: always a secret. */
  readOnlyPassword: string;
}

export interface StorageZone extends OutputProperties<StorageZoneOutputs> {}
/** A storage zone (`/storagezone`): files in a region and its replicas, the origin of pull zones. */
export class StorageZone extends BunnyResource {
  constructor(name: string, args: StorageZoneArgs, opts?: pulumi.CustomResourceOptions) {
    super(storageZone, name, args, opts);
  }
}
