/**
 * The storage regions a storage zone can live in or replicate to, as a plain list (public declarations name it;
 * schemas/storageZones.ts builds its check from it). Sources: core-api-v1.0.0.json StorageZoneModelAdd (Region: DE,
 * NY, LA, SG; ReplicationRegions adds SYD), bunny.net's storage endpoints (`{region}.storage.bunnycdn.com`: UK, SE,
 * BR, JH …), and the emulator's storage surface (emulator/surfaces/storageZones.ts), which states the same list for
 * itself (tests/emulator/independence.test.ts checks they agree).
 */
export const STORAGE_REGIONS = ["DE", "UK", "SE", "CZ", "ES", "NY", "LA", "WA", "MI", "SG", "HK", "JP", "SYD", "BR", "JH"] as const;

/** A storage region's code. */
export type StorageRegion = (typeof STORAGE_REGIONS)[number];
