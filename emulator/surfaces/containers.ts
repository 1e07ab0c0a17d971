import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorSurface } from "../context";
import { problem } from "../errorShapes";

/**
 * Magic Containers (`/mc`, behind the server's account-key check): regions, one seeded app's endpoints,
 * and its volumes (list, detach, delete a detached volume instance).
 *
 * Sources: magic-containers-api-v1.0.0.json (bunny.net's published OpenAPI document); BUNNY-API.md.
 * - Regions page with an opaque cursor: `?limit=` (1..1000, default 20) and `?nextCursor=` (the previous answer's
 *   `cursor`); the last page answers `cursor: null` (the document's parameters for GET /regions).
 * - The endpoint list documents no parameters at all (GET /apps/{appId}/endpoints), yet its answer has the same
 *   `cursor` field. The emulator ignores any query and answers the whole list with a non-empty cursor, the answer
 *   that would make a client that sent the cursor back loop: a client must not page this list.
 * - Errors are problem details; validation and not-found ones the extended shape with `errors[]` and `id`, which is
 *   the application's id (the document's ErrorDetails.id: "The application ID, returned as an RFC 7807 extension
 *   field when relevant"), never a request id; absent where no application is named.
 */

const REGION = "mc_region";
const APP = "mc_app";
const ENDPOINT = "mc_endpoint";
const VOLUME = "mc_volume";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;

interface RegionRecord {
  id: string;
  name: string;
  group: string;
  hasAnycastSupport: boolean;
  hasCapacity: boolean;
}

interface AppRecord {
  id: string;
  name: string;
  containers: { id: string; name: string; image: string }[];
}

interface EndpointRecord {
  id: string;
  displayName: string;
  publicHost: string;
  type: "cdn" | "anycast" | "publicIp";
  isSslEnabled: boolean;
  pullZoneId: string;
  portMappings: { containerPort: number; exposedPort: number; protocols: ("tcp" | "udp" | "sctp")[] }[];
  containerName: string;
  containerId: string;
  stickySessions?: { enabled: boolean; sessionHeaders: string[]; cookieName: string };
  internalIpAddresses: { address: string; region: string }[] | null;
  publicIpAddresses: { address: string; region: string }[] | null;
}

type VolumeStatus = "attached" | "detached";

interface VolumeInstanceRecord {
  id: string;
  attachedPods: string[];
  attachedContainers: string[];
  region: string;
  status: VolumeStatus;
  size: number;
  usage: number;
  set: string;
}

interface VolumeRecord {
  id: string;
  name: string;
  /** Gigabytes per instance. */
  size: number;
  volumeInstances: VolumeInstanceRecord[];
}

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

/** Magic Containers ids are short opaque strings. */
function mcId(): string {
  return randomBytes(8).toString("base64url").replace(/[-_]/g, "x").slice(0, 10);
}

function validationProblem(reply: FastifyReply, field: string, message: string): FastifyReply {
  return problem(reply, 400, "One or more validation errors occurred.", message, [{ field, message }]);
}

function notFound(reply: FastifyReply, field: string, what: string): FastifyReply {
  return problem(reply, 404, "Not Found", `${what} was not found.`, [{ field, message: `${what} was not found.` }]);
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
}

function decodeCursor(cursor: string): number | undefined {
  try {
    const o = (JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown }).o;
    return typeof o === "number" && Number.isInteger(o) && o >= 0 ? o : undefined;
  } catch {
    return undefined;
  }
}

/** One page of `items` per `?limit=&nextCursor=`, or undefined after answering 400 (extended problem details). */
function pageOf<T>(req: FastifyRequest, reply: FastifyReply, items: T[]): { items: T[]; meta: { totalItems: number }; cursor: string | null } | undefined {
  const q = req.query as { limit?: string; nextCursor?: string };
  let limit = DEFAULT_PAGE_SIZE;
  if (q.limit !== undefined) {
    limit = /^\d+$/.test(q.limit) ? Number(q.limit) : NaN;
    if (!(limit >= 1 && limit <= MAX_PAGE_SIZE)) return void validationProblem(reply, "limit", `The field limit must be between 1 and ${MAX_PAGE_SIZE}.`);
  }
  let offset = 0;
  if (q.nextCursor !== undefined && q.nextCursor !== "") {
    const decoded = decodeCursor(q.nextCursor);
    if (decoded === undefined) return void validationProblem(reply, "nextCursor", "The cursor is not valid.");
    offset = decoded;
  }
  const end = offset + limit;
  return { items: items.slice(offset, end), meta: { totalItems: items.length }, cursor: end < items.length ? encodeCursor(end) : null };
}

function volumeView(volume: VolumeRecord): unknown {
  const attached = volume.volumeInstances.filter((i) => i.status === "attached");
  return {
    name: volume.name,
    id: volume.id,
    size: volume.size,
    totalUsage: volume.volumeInstances.reduce((sum, i) => sum + i.usage, 0),
    totalInstancesCount: volume.volumeInstances.length,
    attachedInstancesCount: attached.length,
    containersCount: new Set(attached.flatMap((i) => i.attachedContainers)).size,
    volumeInstances: volume.volumeInstances,
  };
}

export const containersSurface: EmulatorSurface = {
  name: "containers",
  seed(ctx) {
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
    const endpoint = (c: { id: string; name: string }, fields: Omit<EndpointRecord, "id" | "containerId" | "containerName">): void => {
      const record: EndpointRecord = { id: mcId(), containerId: c.id, containerName: c.name, ...fields };
      ctx.store.put(ENDPOINT, record.id, record, appId);
    };
    const cdn = (c: { id: string; name: string }, displayName: string, port: number): void =>
      endpoint(c, {
        displayName,
        publicHost: `mc-${appId.toLowerCase()}-${displayName}.b-cdn.net`,
        type: "cdn",
        isSslEnabled: true,
        pullZoneId: String(ctx.store.nextId("mc-pullzone", 12001)),
        portMappings: [tcp(port, 443)],
        stickySessions: { enabled: false, sessionHeaders: [], cookieName: "mc_session" },
        internalIpAddresses: null,
        publicIpAddresses: null,
      });
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

    return {
      appId,
      attachedVolumeId: attachedVolume.id,
      attachedInstanceId: attachedVolume.volumeInstances[0].id,
      detachedVolumeId: detachedVolume.id,
      detachedInstanceId: detachedVolume.volumeInstances[0].id,
      regionCount: REGIONS.length,
      endpointCount: ctx.store.list(ENDPOINT, appId).length,
    };
  },
  routes(app, ctx) {
    const appOf = (req: FastifyRequest, reply: FastifyReply): AppRecord | undefined => {
      const record = ctx.store.get<AppRecord>(APP, (req.params as { appId: string }).appId);
      return record ?? void notFound(reply, "appId", "The application");
    };
    const volumeOf = (req: FastifyRequest, reply: FastifyReply, owner: AppRecord): VolumeRecord | undefined => {
      const record = ctx.store.get<VolumeRecord>(VOLUME, (req.params as { volumeId: string }).volumeId);
      return record && ctx.store.list<VolumeRecord>(VOLUME, owner.id).some((v) => v.id === record.id) ? record : void notFound(reply, "volumeId", "The volume");
    };

    app.get("/mc/regions", async (req, reply) => pageOf(req, reply, ctx.store.list<RegionRecord>(REGION)) ?? reply);

    app.get("/mc/apps/:appId/endpoints", async (req, reply) => {
      const owner = appOf(req, reply);
      if (!owner) return reply;
      const items = ctx.store.list<EndpointRecord>(ENDPOINT, owner.id);
      return { items, meta: { totalItems: items.length }, cursor: encodeCursor(items.length) };
    });

    app.get("/mc/apps/:appId/volumes", async (req, reply) => {
      const owner = appOf(req, reply);
      if (!owner) return reply;
      const volumes = ctx.store.list<VolumeRecord>(VOLUME, owner.id);
      const instances = volumes.flatMap((v) => v.volumeInstances);
      return {
        items: volumes.map(volumeView),
        meta: { totalItems: volumes.length },
        cursor: null,
        summary: {
          totalPods: new Set(instances.flatMap((i) => i.attachedPods)).size,
          totalContainers: new Set(instances.flatMap((i) => i.attachedContainers)).size,
          totalStorage: volumes.reduce((sum, v) => sum + v.size * v.volumeInstances.length, 0),
        },
      };
    });

    // Detaching a detached volume changes nothing and answers the same.
    app.post("/mc/apps/:appId/volumes/:volumeId/detach", async (req, reply) => {
      const owner = appOf(req, reply);
      if (!owner) return reply;
      const volume = volumeOf(req, reply, owner);
      if (!volume) return reply;
      const volumeInstances = volume.volumeInstances.map((i) => ({ ...i, status: "detached" as const, attachedPods: [], attachedContainers: [] }));
      ctx.store.put(VOLUME, volume.id, { ...volume, volumeInstances }, owner.id);
      return { name: volume.name };
    });

    app.delete("/mc/apps/:appId/volumes/:volumeId/instances/:instanceId", async (req, reply) => {
      const owner = appOf(req, reply);
      if (!owner) return reply;
      const volume = volumeOf(req, reply, owner);
      if (!volume) return reply;
      const { instanceId } = req.params as { instanceId: string };
      const target = volume.volumeInstances.find((i) => i.id === instanceId);
      if (!target) return notFound(reply, "instanceId", "The volume instance");
      if (target.status !== "detached") return validationProblem(reply, "instanceId", "The volume must be detached before its instances can be deleted.");
      ctx.store.put(VOLUME, volume.id, { ...volume, volumeInstances: volume.volumeInstances.filter((i) => i.id !== instanceId) }, owner.id);
      return { id: instanceId };
    });
  },
};
