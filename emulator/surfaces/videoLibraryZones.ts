import { randomBytes } from "node:crypto";
import type { EmulatorContext } from "../context";
import { PULL_ZONE, type PullZoneRecord, createPullZone } from "./pullZones/records";

/**
 * A video library's own pull zone: a real one, which `GET /pullzone/{id}` answers for the library's `PullZoneId`
 * (PullZoneModel carries `VideoLibraryId`, core-api-v1.0.0.json). bunny.net's Terraform provider reads it on every
 * read of a `bunnynet_stream_library`, for the library's token authentication, which is that zone's
 * `ZoneSecurityEnabled` (terraform-provider-bunnynet v0.15.1 internal/api/stream_library.go, GetStreamLibrary lines
 * 94-99); its `bunnynet export` counterpart leaves the zone out as made and deleted with the library.
 *
 * Decided (the documents are silent): the zone is named `vz-<8 hex>-<library id>`, its system hostname the library's
 * CDN host; its origin is a stand-in URL (the library's storage is not one of the account's storage zones here).
 */
export function makeLibraryPullZone(ctx: EmulatorContext, libraryId: number): { PullZoneId: number; cdnHost: string } {
  const zone = createPullZone(ctx, `vz-${randomBytes(4).toString("hex")}-${libraryId}`, { VideoLibraryId: libraryId });
  return { PullZoneId: zone.Id, cdnHost: `${zone.Name}.b-cdn.net` };
}

/** Turns the library's token authentication on or off: its zone's `ZoneSecurityEnabled`, where Terraform reads it. */
export function setLibraryTokenAuthentication(ctx: EmulatorContext, pullZoneId: number, enabled: boolean): void {
  const zone = ctx.store.get<PullZoneRecord>(PULL_ZONE, pullZoneId);
  if (zone) ctx.store.put(PULL_ZONE, zone.Id, { ...zone, ZoneSecurityEnabled: enabled });
}
