import type { EmulatorContext } from "../../context";
import { HIDDEN, PULL_ZONE, createPullZone, type PullZoneRecord } from "../pullZones/records";
import { deletePullZone } from "../pullZones/zones";
import { LANDING_PAGE_ORIGIN } from "../edgeScripts/scripts";

/**
 * The pull zone the API makes for a CDN endpoint that names none (`cdn.pullZoneId` unset): a pull zone like any other,
 * listed by `GET /pullzone` and read by `GET /pullzone/{id}` (bunny.net's Terraform provider issue #53: the zone a
 * container app's CDN endpoint makes shows among the account's pull zones, and users asked to declare their own
 * instead).
 *
 * Its origin is the endpoint: PullZoneModel's OriginType 5 (PullZoneOriginType `MagicContainers`) with
 * `MagicContainersAppId` and `MagicContainersEndpointId` (core-api-v1.0.0.json PullZoneModel; the Terraform
 * provider's internal/provider/resource_pullzone.go convertModelToApi / convertApiToModel read and write a container
 * origin as exactly these two fields, api.PullzoneOriginTypeComputeContainer = 5). No URL: as for the other linked
 * origins (storage zone, edge script), OriginUrl is empty.
 *
 * Decided (no source names it): the zone is named `mc-<app id>-<endpoint name>`, lower case, anything but letters,
 * digits and hyphens made a hyphen (endpoint names may hold spaces: the Terraform provider's CHANGELOG, "allow spaces
 * in container/endpoint names"), so its system hostname `<name>.b-cdn.net` is the endpoint's public host. `bunnynet
 * export` tells such a zone from a declared one by exactly that (provider/cli/export/kinds.ts, appOwning).
 *
 * The zone lives and dies with its endpoint: an app's PUT that drops the endpoint, or that makes it front a declared
 * zone, deletes it; deleting the app deletes it. An endpoint that fronts a declared zone makes none (the declared zone
 * is the user's and stays).
 */

/** The hidden field (never answered: publicZone strips HIDDEN) naming the app and endpoint a zone was made for. */
const MADE_FOR = "MadeForEndpoint";

interface MadeFor {
  appId: string;
  endpointId: string;
}

function madeFor(zone: PullZoneRecord): MadeFor | undefined {
  return (zone[HIDDEN] as Record<string, MadeFor> | undefined)?.[MADE_FOR];
}

/** The zone name for an endpoint (see the file comment); at most 60 characters, as pull zone names are. */
export function endpointZoneName(appId: string, displayName: string): string {
  return `mc-${appId}-${displayName}`
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** Makes the endpoint's own pull zone; answers it. */
export function createEndpointZone(ctx: EmulatorContext, appId: string, endpointId: string, displayName: string): PullZoneRecord {
  return createPullZone(ctx, endpointZoneName(appId, displayName), {
    OriginType: 5,
    OriginUrl: "",
    MagicContainersAppId: appId,
    MagicContainersEndpointId: endpointId,
    [HIDDEN]: { [MADE_FOR]: { appId, endpointId } satisfies MadeFor },
  });
}

/** The zones the API made for the app's endpoints, by endpoint id. */
export function endpointZonesOf(ctx: EmulatorContext, appId: string): Map<string, PullZoneRecord> {
  const zones = new Map<string, PullZoneRecord>();
  for (const zone of ctx.store.list<PullZoneRecord>(PULL_ZONE)) {
    const owner = madeFor(zone);
    if (owner?.appId === appId) zones.set(owner.endpointId, zone);
  }
  return zones;
}

/**
 * Deletes the app's endpoint zones except those of `keep` (endpoint ids), with what hangs off them; `zones` when the
 * caller has just read them (`endpointZonesOf`).
 */
export function deleteEndpointZones(ctx: EmulatorContext, appId: string, keep: ReadonlySet<string> = new Set(), zones = endpointZonesOf(ctx, appId)): void {
  for (const [endpointId, zone] of zones) if (!keep.has(endpointId)) deletePullZone(ctx, zone.Id);
}

/**
 * A CDN endpoint that names a declared zone (`cdn.pullZoneId`) becomes that zone's origin: the zone's OriginType
 * turns 5 with the app's and endpoint's ids, whatever origin it was created with (the placeholder URL of the earlier
 * pattern). Source: PullZoneModel's `MagicContainersAppId` / `MagicContainersEndpointId`, "the ID of the Magic
 * Container application (endpoint) the pull zone is linked to" (core-api-v1.0.0.json), and EndpointResponse's
 * `pullZoneId` (magic-containers-api-v1.0.0.json): one link, read from both ends; the Terraform provider's CHANGELOG
 * 0.14.0 ("The `ComputeContainer` type does not require the `url = "https://bunny.net"` configuration anymore"):
 * such a zone's URL is a stand-in. Decided (no source says it): when the endpoint stops fronting the zone (dropped,
 * moved to another zone, its app deleted) the zone falls back to bunny.net's landing page, as a zone whose edge
 * script is deleted does. The endpoint's `publicHost` stays its own `mc-…` name (apps.ts): clients use the zone's.
 */
const FRONTED_BY = "FrontedByEndpoint";

function frontedBy(zone: PullZoneRecord): MadeFor | undefined {
  return (zone[HIDDEN] as Record<string, MadeFor> | undefined)?.[FRONTED_BY];
}

/** Links the declared zone `zoneId` to the endpoint; answers the zone. */
export function attachDeclaredZone(ctx: EmulatorContext, zoneId: number, appId: string, endpointId: string): PullZoneRecord | undefined {
  const zone = ctx.store.get<PullZoneRecord>(PULL_ZONE, zoneId);
  if (!zone || madeFor(zone)) return zone;
  Object.assign(zone, { OriginType: 5, OriginUrl: "", StorageZoneId: 0, EdgeScriptId: 0, MagicContainersAppId: appId, MagicContainersEndpointId: endpointId });
  zone[HIDDEN] = { ...(zone[HIDDEN] as object | undefined), [FRONTED_BY]: { appId, endpointId } satisfies MadeFor };
  ctx.store.put(PULL_ZONE, zone.Id, zone);
  return zone;
}

/** Unlinks the declared zones the app's endpoints fronted, except `keep` (zone id → endpoint id still linked). */
export function releaseDeclaredZones(ctx: EmulatorContext, appId: string, keep: ReadonlyMap<number, string> = new Map()): void {
  for (const zone of ctx.store.list<PullZoneRecord>(PULL_ZONE)) {
    const link = frontedBy(zone);
    if (link?.appId !== appId || keep.get(zone.Id) === link.endpointId) continue;
    const hidden = { ...(zone[HIDDEN] as Record<string, unknown>) };
    delete hidden[FRONTED_BY];
    zone[HIDDEN] = hidden;
    if (zone.OriginType === 5 && zone.MagicContainersEndpointId === link.endpointId) {
      Object.assign(zone, { OriginType: 0, OriginUrl: LANDING_PAGE_ORIGIN, MagicContainersAppId: null, MagicContainersEndpointId: null });
    }
    ctx.store.put(PULL_ZONE, zone.Id, zone);
  }
}
