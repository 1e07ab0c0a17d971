import { z } from "zod";

/**
 * Storage zones (core API: StorageZoneModel, StorageZoneModelAdd, StorageZoneSettingsModel, StorageZoneTier;
 * operations StorageZonePublic_Add, _Index, _IndexAll, _Update, _Delete).
 */

const flag = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

/** StorageZoneTier: Standard = 0, Edge (SSD) = 1. */
export const StorageZoneTier = { Standard: 0, Edge: 1 } as const;

/** A storage zone region code (DE, NY, LA, SG, SYD …): upper-case letters. */
export const StorageRegionSchema = z.string().regex(/^[A-Z]{2,4}$/, "must be a region code such as DE, NY, LA, SG or SYD (upper case)");

/** A storage zone as the API answers it; the passwords are secrets (callers keep them so). */
export const StorageZoneSchema = z.object({
  Id: z.number(),
  Name: text,
  Password: text,
  ReadOnlyPassword: text,
  Region: text,
  ReplicationRegions: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  StorageHostname: text,
  ZoneTier: z.number().nullish(),
  Rewrite404To200: flag,
  Custom404FilePath: z.string().nullish(),
  Deleted: flag,
  /** The pull zones linked to the zone (only their ids and names are read). */
  PullZones: z
    .array(z.object({ Id: z.number(), Name: text }))
    .nullish()
    .transform((v) => v ?? []),
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

/** `GET /storagezone` answers an array (core document); a page `{Items, HasMoreItems}` is read too. */
export const StorageZoneListSchema = z.union([
  z.array(StorageZoneSchema),
  z.object({ Items: z.array(StorageZoneSchema).nullish().transform((v) => v ?? []), HasMoreItems: flag }),
]);

export type StorageZone = z.output<typeof StorageZoneSchema>;
export type StorageZoneAddRequest = z.input<typeof StorageZoneAddRequestSchema>;
export type StorageZoneUpdateRequest = z.input<typeof StorageZoneUpdateRequestSchema>;
