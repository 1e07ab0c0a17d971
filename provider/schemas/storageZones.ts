import { z } from "zod";
import { answerObject, coreListSchema, nullishFlag, nullishStrings, nullishText, withFallback } from "./common";
import { STORAGE_REGIONS } from "./storageRegions";

/**
 * Storage zones (core API: StorageZoneModel, StorageZoneModelAdd, StorageZoneSettingsModel, StorageZoneTier;
 * operations StorageZonePublic_Add, _Index, _IndexAll, _Update, _Delete).
 */

const flag = nullishFlag;
const text = nullishText;

/** StorageZoneTier: Standard = 0, Edge (SSD) = 1. */
export const StorageZoneTier = { Standard: 0, Edge: 1 } as const;

/** A storage zone region code (DE, NY, LA, SG, SYD …), one of storageRegions.ts. */
export const StorageRegionSchema = z.enum(STORAGE_REGIONS, { error: `must be a storage region: one of ${STORAGE_REGIONS.join(", ")}` });

/** A storage zone as the API answers it; the passwords are secrets (callers keep them so). */
export const StorageZoneSchema = answerObject({
  Id: z.number(),
  Name: text,
  Password: text,
  ReadOnlyPassword: text,
  Region: text,
  ReplicationRegions: nullishStrings,
  StorageHostname: text,
  ZoneTier: z.number().nullish(),
  Rewrite404To200: flag,
  Custom404FilePath: z.string().nullish(),
  Deleted: flag,
  /** The pull zones linked to the zone (only their ids and names are read). */
  PullZones: withFallback(z.array(answerObject({ Id: z.number(), Name: text })), () => []),
});

/** Body of `POST /storagezone` (StorageZoneModelAdd). */
export const StorageZoneAddRequestSchema = z
  .object({
    Name: z.string().min(1),
    Region: StorageRegionSchema,
    ReplicationRegions: z.array(StorageRegionSchema).nullish(),
    ZoneTier: z.number().int().min(0).max(1).optional(),
  })
  .strict();

/** Body of `POST /storagezone/{id}` (StorageZoneSettingsModel): replication regions can be added, never removed. */
export const StorageZoneUpdateRequestSchema = z
  .object({
    ReplicationZones: z.array(StorageRegionSchema).nullish(),
    OriginUrl: z.string().nullish(),
    Custom404FilePath: z.string().nullish(),
    Rewrite404To200: z.boolean().nullish(),
  })
  .strict();

/** `GET /storagezone`: an array (core document), or a page `{Items, HasMoreItems}`: both are read. */
export const StorageZoneListSchema = coreListSchema(StorageZoneSchema);

export type StorageZone = z.output<typeof StorageZoneSchema>;
export type StorageZoneAddRequest = z.input<typeof StorageZoneAddRequestSchema>;
export type StorageZoneUpdateRequest = z.input<typeof StorageZoneUpdateRequestSchema>;
