import type { EmulatorContext, Fixtures } from "../../context";
import { seedRegistries } from "./registries";
import { createEndpointZone } from "./endpointZones";
import { APP, ENDPOINT, mcId, REGION, VOLUME, type AppRecord, type EndpointRecord, type RegionRecord, type VolumeInstanceRecord, type VolumeRecord, type VolumeStatus } from "./records";

/**
 * The Magic Containers account the emulator starts with: every region, one app ("emulator-app") with four
 * containers, endpoints of each type (CDN, anycast, public IP; each CDN one with the pull zone the API makes for it),
 * an attached and a detached volume.
 */

// id, name, group, anycast support, capacity: 52 regions, so the default page size gives three pages.
const REGIONS: [string, string, string, boolean, boolean][] = [
  ["DE", "Frankfurt", "Europe", true, true],
  ["UK", "London", "Europe", true, true],
  ["FR", "Paris", "Europe", true, true],
  ["NL", "Amsterdam", "Europe", true, true],
  ["SE", "Stockholm", "Europe", true, true],
  ["PL", "Warsaw", "Europe", false, true],
  ["ES", "Madrid", "Europe", true, true],
  ["IT", "Milan", "Europe", true, false],
  ["CH", "Zurich", "Europe", false, true],
  ["AT", "Vienna", "Europe", false, true],
  ["CZ", "Prague", "Europe", false, true],
  ["FI", "Helsinki", "Europe", false, false],
  ["NO", "Oslo", "Europe", false, true],
  ["DK", "Copenhagen", "Europe", false, true],
  ["IE", "Dublin", "Europe", true, true],
  ["PT", "Lisbon", "Europe", false, true],
  ["RO", "Bucharest", "Europe", false, true],
  ["BG", "Sofia", "Europe", false, false],
  ["HR", "Zagreb", "Europe", false, true],
  ["SI", "Ljubljana", "Europe", false, true],
  ["RS", "Belgrade", "Europe", false, true],
  ["GR", "Athens", "Europe", false, true],
  ["TR", "Istanbul", "Europe", true, true],
  ["UA", "Kyiv", "Europe", false, false],
  ["NY", "New York", "North America", true, true],
  ["LA", "Los Angeles", "North America", true, true],
  ["CHI", "Chicago", "North America", true, true],
  ["DAL", "Dallas", "North America", true, true],
  ["MIA", "Miami", "North America", true, false],
  ["SEA", "Seattle", "North America", false, true],
  ["ATL", "Atlanta", "North America", false, true],
  ["DEN", "Denver", "North America", false, true],
  ["TOR", "Toronto", "North America", true, true],
  ["MTL", "Montreal", "North America", false, true],
  ["MX", "Mexico City", "North America", false, true],
  ["SG", "Singapore", "Asia", true, true],
  ["JP", "Tokyo", "Asia", true, true],
  ["HK", "Hong Kong", "Asia", true, false],
  ["KR", "Seoul", "Asia", false, true],
  ["IN", "Mumbai", "Asia", true, true],
  ["TW", "Taipei", "Asia", false, true],
  ["SYD", "Sydney", "Oceania", true, true],
  ["MEL", "Melbourne", "Oceania", false, true],
  ["AKL", "Auckland", "Oceania", false, false],
  ["BR", "Sao Paulo", "South America", true, true],
  ["CL", "Santiago", "South America", false, true],
  ["CO", "Bogota", "South America", false, true],
  ["AR", "Buenos Aires", "South America", false, true],
  ["ZA", "Johannesburg", "Africa", true, true],
  ["NG", "Lagos", "Africa", false, false],
  ["AE", "Dubai", "Middle East", true, true],
  ["IL", "Tel Aviv", "Middle East", false, true],
];

/** The surface's `seed`: returns the ids tests address (app, volumes, instances) and the counts. */
export function seedContainers(ctx: EmulatorContext): Fixtures {
  for (const [id, name, group, hasAnycastSupport, hasCapacity] of REGIONS) {
    ctx.store.put(REGION, id, { id, name, group, hasAnycastSupport, hasCapacity } satisfies RegionRecord);
  }

  const appId = mcId();
  const container = (name: string, image: string) => ({ id: mcId(), name, image });
  const web = container("web", "nginx:1.27");
  const api = container("api", "ghcr.io/example/api:2.4.1");
  const dns = container("dns", "coredns/coredns:1.11");
  const worker = container("worker", "ghcr.io/example/worker:2.4.1");
  ctx.store.put(APP, appId, { id: appId, name: "emulator-app", containers: [web, api, dns, worker] } satisfies AppRecord);

  const tcp = (containerPort: number, exposedPort: number) => ({ containerPort, exposedPort, protocols: ["tcp" as const] });
  const endpoint = (c: { id: string; name: string }, fields: Omit<EndpointRecord, "id" | "containerId" | "containerName">, id = mcId()): void => {
    const record: EndpointRecord = { id, containerId: c.id, containerName: c.name, ...fields };
    ctx.store.put(ENDPOINT, record.id, record, appId);
  };
  // Each CDN endpoint on a pull zone of its own, as the API makes it (endpointZones.ts).
  const cdn = (c: { id: string; name: string }, displayName: string, port: number): void => {
    const id = mcId();
    const zone = createEndpointZone(ctx, appId, id, displayName);
    endpoint(c, {
      displayName,
      publicHost: `${zone.Name}.b-cdn.net`,
      type: "cdn",
      isSslEnabled: true,
      pullZoneId: String(zone.Id),
      portMappings: [tcp(port, 443)],
      stickySessions: { enabled: false, sessionHeaders: [], cookieName: "mc_session" },
      internalIpAddresses: null,
      publicIpAddresses: null,
    }, id);
  };
  // Non-CDN endpoints have no pull zone; the API still sends the (required) field.
  cdn(web, "web", 8080);
  endpoint(web, {
    displayName: "web-anycast",
    publicHost: `anycast-${appId.toLowerCase()}.bunny.run`,
    type: "anycast",
    isSslEnabled: false,
    pullZoneId: "0",
    portMappings: [tcp(8080, 80), tcp(8443, 443)],
    internalIpAddresses: null,
    publicIpAddresses: [{ address: "203.0.113.10", region: "anycast" }],
  });
  cdn(api, "api", 3000);
  cdn(api, "api-admin", 3001);
  endpoint(dns, {
    displayName: "dns",
    publicHost: `dns-${appId.toLowerCase()}.bunny.run`,
    type: "anycast",
    isSslEnabled: false,
    pullZoneId: "0",
    portMappings: [{ containerPort: 5353, exposedPort: 53, protocols: ["udp", "tcp"] }],
    internalIpAddresses: null,
    publicIpAddresses: [{ address: "203.0.113.53", region: "anycast" }],
  });
  endpoint(worker, {
    displayName: "worker-direct",
    publicHost: `worker-${appId.toLowerCase()}.bunny.run`,
    type: "publicIp",
    isSslEnabled: false,
    pullZoneId: "0",
    portMappings: [tcp(9000, 9000)],
    internalIpAddresses: [
      { address: "10.64.1.10", region: "DE" },
      { address: "10.65.1.10", region: "NY" },
    ],
    publicIpAddresses: [
      { address: "198.51.100.21", region: "DE" },
      { address: "198.51.100.22", region: "NY" },
    ],
  });

  const instance = (region: string, status: VolumeStatus, attachedTo?: { id: string }): VolumeInstanceRecord => ({
    id: mcId(),
    attachedPods: attachedTo ? [`pod-${mcId().toLowerCase()}`] : [],
    attachedContainers: attachedTo ? [attachedTo.id] : [],
    region,
    status,
    size: 10,
    usage: 1.5,
    set: "0",
  });
  const attachedVolume: VolumeRecord = { id: mcId(), name: "api-data", size: 10, volumeInstances: [instance("DE", "attached", api), instance("NY", "attached", api), instance("SG", "attached", api)] };
  const detachedVolume: VolumeRecord = { id: mcId(), name: "old-cache", size: 10, volumeInstances: [instance("DE", "detached"), instance("UK", "detached")] };
  for (const v of [attachedVolume, detachedVolume]) ctx.store.put(VOLUME, v.id, v, appId);

  const dockerHubRegistryId = seedRegistries(ctx);

  return {
    appId,
    dockerHubRegistryId,
    attachedVolumeId: attachedVolume.id,
    attachedInstanceId: attachedVolume.volumeInstances[0].id,
    detachedVolumeId: detachedVolume.id,
    detachedInstanceId: detachedVolume.volumeInstances[0].id,
    regionCount: REGIONS.length,
    endpointCount: ctx.store.list(ENDPOINT, appId).length,
  };
}
