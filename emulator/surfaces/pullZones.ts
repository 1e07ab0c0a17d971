import type { EmulatorSurface } from "../context";
import { hostnameRoutes, seedPullZones } from "./pullZones/hostnames";
import { zoneRoutes } from "./pullZones/zones";
import { edgeRoutes } from "./pullZones/edge";

/**
 * Pull zones: the zones themselves (pullZones/zones.ts), their hostnames and certificates (pullZones/hostnames.ts),
 * their edge rules, cache purges and the CDN's regions (pullZones/edge.ts),
 * and the stored shapes other surfaces share (pullZones/records.ts: kind "pullzone", `PullZoneRecord`,
 * `createPullZone`, `systemHostname`).
 */
export { type HostnameRecord, type PullZoneRecord, createPullZone, defaultSettings, publicZone, systemHostname } from "./pullZones/records";
export { deletePullZone } from "./pullZones/zones";

export const pullZonesSurface: EmulatorSurface = {
  name: "pullZones",
  seed: seedPullZones,
  routes(app, ctx) {
    zoneRoutes(app, ctx);
    hostnameRoutes(app, ctx);
    edgeRoutes(app, ctx);
  },
};
