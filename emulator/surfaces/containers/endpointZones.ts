import type { EmulatorContext } from "../../context";
import { HIDDEN, PULL_ZONE, createPullZone, type PullZoneRecord } from "../pullZones/records";
import { deletePullZone } from "../pullZones/zones";

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
