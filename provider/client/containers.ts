import { PageGuard } from "../http/paging";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import {
  DeleteVolumeInstanceResultSchema,
  DetachVolumeResultSchema,
  EndpointPageSchema,
  McIdSchema,
  VolumeIdsSchema,
  VolumeInstanceIdsSchema,
  McPageQuerySchema,
  RegionPageSchema,
  VolumeListSchema,
} from "../schemas/containers";
import type { DeleteVolumeInstanceResult, DetachVolumeResult, Endpoint, EndpointPage, McPageQuery, Region, RegionPage, Volume, VolumeList } from "../types.generated";

/** Magic Containers (`{api}/mc`, account key): regions, an app's endpoints and its volumes. */
export class ContainersClient {
  constructor(readonly http: Transport) {}

  /** One page of regions (`limit` 1..1000, the API defaults to 20). */
  async listRegionsPage(query: McPageQuery = {}): Promise<RegionPage> {
    const q = validateRequest(McPageQuerySchema, query, "GET", "/regions");
    const res = await this.http.request({ api: "containers", method: "GET", path: "/regions", query: q, responseSchema: RegionPageSchema });
    return res.body;
  }

  /** Every region, following the cursor page by page (bounded: see PageGuard). */
  async *listRegions(options: { limit?: number } = {}): AsyncGenerator<Region> {
    const guard = new PageGuard("GET", "/regions", this.http.limits);
    let nextCursor: string | undefined;
    for (;;) {
      const page = await this.listRegionsPage({ limit: options.limit, nextCursor });
      guard.page(page.items, page.cursor);
      yield* page.items;
      if (!page.cursor) return;
      nextCursor = page.cursor;
    }
  }

  /**
   * An app's endpoints, in one answer. The published API documents no paging parameters for this list (only for
   * regions), so none is sent, and a `cursor` in the answer is not followed: there is no parameter to send it back in.
   */
  async listEndpointsPage(appId: string): Promise<EndpointPage> {
    const id = validateRequest(McIdSchema, appId, "GET", "/apps/{appId}/endpoints", "appId");
    const res = await this.http.request({ api: "containers", method: "GET", path: encodePath("apps", id, "endpoints"), responseSchema: EndpointPageSchema });
    return res.body;
  }

  /** Every endpoint of every container of the app. */
  async *listEndpoints(appId: string): AsyncGenerator<Endpoint> {
    yield* (await this.listEndpointsPage(appId)).items;
  }

  /** The app's volumes with their instances, and the summary (one answer: the API does not page this list). */
  async listVolumesPage(appId: string): Promise<VolumeList> {
    const id = validateRequest(McIdSchema, appId, "GET", "/apps/{appId}/volumes", "appId");
    const res = await this.http.request({ api: "containers", method: "GET", path: encodePath("apps", id, "volumes"), responseSchema: VolumeListSchema });
    return res.body;
  }

  /** Every volume of the app. */
  async *listVolumes(appId: string): AsyncGenerator<Volume> {
    yield* (await this.listVolumesPage(appId)).items;
  }

  /** One volume of the app, or undefined when there is none with that id. */
  async findVolume(appId: string, volumeId: string): Promise<Volume | undefined> {
    for await (const volume of this.listVolumes(appId)) if (volume.id === volumeId) return volume;
    return undefined;
  }

  /** Detaches every instance of the volume. Detaching a detached volume changes nothing, so it is retried freely. */
  async detachVolume(appId: string, volumeId: string): Promise<DetachVolumeResult> {
    const ids = validateRequest(VolumeIdsSchema, { appId, volumeId }, "POST", "/apps/{appId}/volumes/{volumeId}/detach");
    const path = encodePath("apps", ids.appId, "volumes", ids.volumeId, "detach");
    const res = await this.http.request({ api: "containers", method: "POST", path, retry: "idempotent", responseSchema: DetachVolumeResultSchema });
    return res.body;
  }

  /**
   * Deletes one instance of a detached volume (400 ValidationError while it is attached). A retried delete
   * that already succeeded answers 404: callers that want "gone" treat NotFoundError as success.
   */
  async deleteVolumeInstance(appId: string, volumeId: string, instanceId: string): Promise<DeleteVolumeInstanceResult> {
    const ids = validateRequest(VolumeInstanceIdsSchema, { appId, volumeId, instanceId }, "DELETE", "/apps/{appId}/volumes/{volumeId}/instances/{instanceId}");
    const path = encodePath("apps", ids.appId, "volumes", ids.volumeId, "instances", ids.instanceId);
    const res = await this.http.request({ api: "containers", method: "DELETE", path, responseSchema: DeleteVolumeInstanceResultSchema });
    return res.body;
  }
}

/** Region filters, shared by the `getRegions` lookup and the `bunnynet regions` command. */
export interface RegionFilters {
  /** Only regions that can take new deployments. */
  hasCapacity?: boolean;
  /** Only regions with anycast support. */
  anycast?: boolean;
}

/** Whether a region passes the filters (an absent flag in the API's answer counts as false). */
export function regionMatches(region: Region, filters: RegionFilters): boolean {
  if (filters.hasCapacity && !region.hasCapacity) return false;
  if (filters.anycast && !region.hasAnycastSupport) return false;
  return true;
}
