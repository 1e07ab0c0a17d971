import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorSurface } from "../../context";
import { encodeCursor, pageOf } from "./paging";
import { notFound, validationProblem } from "./problems";
import { APP, ENDPOINT, REGION, VOLUME, type AppRecord, type EndpointRecord, type RegionRecord, type VolumeRecord } from "./records";
import { seedContainers } from "./seed";
import { appRoutes } from "./apps";
import { registryRoutes } from "./registries";

/**
 * Magic Containers (`/mc`, behind the server's account-key check): regions, applications (apps.ts), registries
 * (registries.ts),
 * an app's endpoints, and its volumes (list, detach, delete a detached volume instance).
 * This file registers the surface and its routes; beside it: records.ts (what is stored), seed.ts (the seeded
 * account), apps.ts (create, read and delete an application), registries.ts (add, change, delete a registry), paging.ts (cursor paging),
 * problems.ts (error answers).
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

/** A volume as the list answers it: its instances with totals over them. */
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
  seed: seedContainers,
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
    appRoutes(app, ctx);
    registryRoutes(app, ctx);

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
