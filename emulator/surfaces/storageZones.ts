import { randomUUID } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { EmulatorContext, EmulatorSurface } from "../context";
import { coreError } from "../errorShapes";
import { type PullZoneRecord, deletePullZone, publicZone } from "./pullZones";
import { deleteZoneFiles } from "./storage";

/**
 * Storage zones. Sources: core-api-v1.0.0.json (StorageZonePublic_Add with StorageZoneModelAdd → 201
 * StorageZoneModel; _Index; _IndexAll → an array, `search`, `page`, `perPage`, `includeDeleted`; _Update with
 * StorageZoneSettingsModel → 204; _Delete with `deleteLinkedPullZones`, default true → 204, 404; StorageZoneTier);
 * `storagezone.name_taken` (400, Field Name) as quoted by API users; the Terraform provider's issues #60 (removing a
 * replication region in place fails) and #14 (deleting a storage zone deletes its pull zones).
 *
 * Where the documents are silent, the emulator decides:
 * - Names are 1..64 letters, digits and hyphens, unique across the service, case-insensitively.
 * - Regions: DE, UK, SE, CZ, ES, NY, LA, WA, MI, SG, HK, JP, SYD, BR, JH; a replication region is another one.
 * - An update whose ReplicationZones leaves out a region the zone has is 400
 *   `storagezone.replication_region_removal`; new ones are added.
 * - The zone's `PullZones` are the pull zones whose origin it is. Deleting with `deleteLinkedPullZones=false` keeps
 *   them (their StorageZoneId then names a zone that is gone).
 * - A deleted zone is gone at once (its name is free again), with its files (surfaces/storage.ts).
 */

const KIND = "storagezone";
const NAME = /^[a-zA-Z0-9-]{1,64}$/;
/** The storage regions (the provider states the same list for itself: tests/emulator/independence.test.ts). */
export const STORAGE_ZONE_REGIONS = ["DE", "UK", "SE", "CZ", "ES", "NY", "LA", "WA", "MI", "SG", "HK", "JP", "SYD", "BR", "JH"] as const;
const REGIONS = new Set<string>(STORAGE_ZONE_REGIONS);

interface StorageZoneRecord {
  Id: number;
  UserId: string;
  Name: string;
  Password: string;
  ReadOnlyPassword: string;
  DateModified: string;
  Deleted: boolean;
  StorageUsed: number;
  FilesStored: number;
  Region: string;
  ReplicationRegions: string[];
  Rewrite404To200: boolean;
  Custom404FilePath: string | null;
  StorageHostname: string;
  ZoneTier: number;
  ReplicationChangeInProgress: boolean;
  StorageZoneType: number;
}

/** The zone as the API answers it, with the pull zones on it. */
function answer(ctx: EmulatorContext, zone: StorageZoneRecord): Record<string, unknown> {
  const pullZones = ctx.store.list<PullZoneRecord>("pullzone").filter((p) => p.StorageZoneId === zone.Id);
  return { ...zone, StorageHostname: ctx.storageHostname() ?? zone.StorageHostname, PullZones: pullZones.map((p) => publicZone({ ...p, Hostnames: p.Hostnames.map((h) => ({ ...h, Certificate: null, CertificateKey: null })) })) };
}

const hostnameOf = (region: string) => (region === "DE" ? "storage.bunnycdn.com" : `${region.toLowerCase()}.storage.bunnycdn.com`);

function zoneById(ctx: EmulatorContext, id: string): StorageZoneRecord | undefined {
  return /^\d+$/.test(id) ? ctx.store.get<StorageZoneRecord>(KIND, id) : undefined;
}

function bad(reply: FastifyReply, key: string, field: string | undefined, message: string): FastifyReply {
  return coreError(reply, 400, key, field, message);
}

/** The replication regions asked for, or why not. */
function replicationRegions(value: unknown, main: string, field: string): string[] | { field: string; message: string } {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((r) => typeof r === "string")) return { field, message: `The ${field} field must be a list of region codes` };
  const unknown = value.find((r) => !REGIONS.has(r) || r === main);
  if (unknown !== undefined) return { field, message: `${String(unknown)} is not a replication region for a zone in ${main}` };
  return [...new Set(value as string[])];
}

export const storageZonesSurface: EmulatorSurface = {
  name: "storageZones",
  seed() {
    return {};
  },
  routes(app, ctx) {
    app.get("/storagezone", async (req) => {
      const query = req.query as { search?: string; page?: string; perPage?: string };
      const search = query.search?.toLowerCase() ?? "";
      const page = Math.max(1, Number(query.page) || 1);
      const perPage = Math.min(1000, Math.max(5, Number(query.perPage) || 1000));
      const zones = ctx.store.list<StorageZoneRecord>(KIND).filter((z) => z.Name.toLowerCase().includes(search));
      return zones.slice((page - 1) * perPage, page * perPage).map((z) => answer(ctx, z));
    });

    app.post("/storagezone", async (req, reply) => {
      const body = (typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
      const { Name: name, Region: region, ZoneTier: tier } = body;
      if (typeof name !== "string" || name === "") return bad(reply, "validation_error", "Name", "The Name field is required");
      if (!NAME.test(name)) return bad(reply, "storagezone.name_invalid", "Name", "The name may only contain letters, numbers and dashes (at most 64)");
      if (typeof region !== "string" || !REGIONS.has(region)) return bad(reply, "storagezone.region_invalid", "Region", "The region is not a storage region");
      if (tier !== undefined && tier !== null && tier !== 0 && tier !== 1) return bad(reply, "validation_error", "ZoneTier", "The ZoneTier must be 0 (Standard) or 1 (Edge)");
      const replication = replicationRegions(body.ReplicationRegions, region, "ReplicationRegions");
      if (!Array.isArray(replication)) return bad(reply, "storagezone.replication_region_invalid", replication.field, replication.message);
      if (ctx.store.list<StorageZoneRecord>(KIND).some((z) => z.Name.toLowerCase() === name.toLowerCase())) {
        return bad(reply, "storagezone.name_taken", "Name", "The storage zone name is already taken");
      }
      const zone: StorageZoneRecord = {
        Id: ctx.store.nextId(KIND, 4001),
        UserId: "emulator-user",
        Name: name,
        Password: randomUUID() + "-" + randomUUID().slice(0, 8),
        ReadOnlyPassword: randomUUID() + "-" + randomUUID().slice(0, 8),
        DateModified: new Date().toISOString(),
        Deleted: false,
        StorageUsed: 0,
        FilesStored: 0,
        Region: region,
        ReplicationRegions: replication,
        Rewrite404To200: false,
        Custom404FilePath: null,
        StorageHostname: hostnameOf(region),
        ZoneTier: (tier as number | undefined) ?? 0,
        ReplicationChangeInProgress: false,
        StorageZoneType: 0,
      };
      ctx.store.put(KIND, zone.Id, zone);
      return reply.code(201).send(answer(ctx, zone));
    });

    app.get("/storagezone/:id", async (req, reply) => {
      const zone = zoneById(ctx, (req.params as { id: string }).id);
      if (!zone) return coreError(reply, 404);
      return answer(ctx, zone);
    });

    app.post("/storagezone/:id", async (req, reply) => {
      const zone = zoneById(ctx, (req.params as { id: string }).id);
      if (!zone) return coreError(reply, 404);
      const body = (typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
      if (body.ReplicationZones !== undefined && body.ReplicationZones !== null) {
        const asked = replicationRegions(body.ReplicationZones, zone.Region, "ReplicationZones");
        if (!Array.isArray(asked)) return bad(reply, "storagezone.replication_region_invalid", asked.field, asked.message);
        if (zone.ReplicationRegions.some((r) => !asked.includes(r))) {
          return bad(reply, "storagezone.replication_region_removal", "ReplicationZones", "Replication regions cannot be removed from a storage zone");
        }
        zone.ReplicationRegions = [...zone.ReplicationRegions, ...asked.filter((r) => !zone.ReplicationRegions.includes(r))];
      }
      if (body.Rewrite404To200 !== undefined && body.Rewrite404To200 !== null) {
        if (typeof body.Rewrite404To200 !== "boolean") return bad(reply, "validation_error", "Rewrite404To200", "The Rewrite404To200 field must be true or false");
        zone.Rewrite404To200 = body.Rewrite404To200;
      }
      if (body.Custom404FilePath !== undefined && body.Custom404FilePath !== null) {
        if (typeof body.Custom404FilePath !== "string") return bad(reply, "validation_error", "Custom404FilePath", "The Custom404FilePath field must be a string");
        zone.Custom404FilePath = body.Custom404FilePath === "" ? null : body.Custom404FilePath;
      }
      zone.DateModified = new Date().toISOString();
      ctx.store.put(KIND, zone.Id, zone);
      return reply.code(204).send();
    });

    app.delete("/storagezone/:id", async (req, reply) => {
      const zone = zoneById(ctx, (req.params as { id: string }).id);
      if (!zone) return coreError(reply, 404);
      if ((req.query as { deleteLinkedPullZones?: string }).deleteLinkedPullZones !== "false") {
        for (const pullZone of ctx.store.list<PullZoneRecord>("pullzone").filter((p) => p.StorageZoneId === zone.Id)) deletePullZone(ctx, pullZone.Id);
      }
      deleteZoneFiles(ctx, zone.Id);
      ctx.store.delete(KIND, zone.Id);
      return reply.code(204).send();
    });
  },
};
