import { NotFoundError, UnexpectedResponseError, ValidationError } from "../http/errors";
import { PageGuard } from "../http/paging";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import {
  AddApplicationRequestSchema,
  AddApplicationResponseSchema,
  AppPageSchema,
  ApplicationSchema,
  ContainerRegistryListSchema,
  ContainerRegistryRequestSchema,
  ContainerRegistrySchema,
  RegistryIdSchema,
  RemoveContainerRegistryResultSchema,
  SaveContainerRegistryResultSchema,
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
import type { AddApplicationRequest, AppListItem, AppPage, Application, ContainerRegistry, ContainerRegistryRequest, DeleteVolumeInstanceResult, DetachVolumeResult, Endpoint, EndpointPage, McPageQuery, Region, RegionPage, Volume, VolumeList } from "../types.generated";

/**
 * Magic Containers (`{api}/mc`, account key): applications, regions, an app's endpoints and its volumes, image registries.
 *
 * Applications (magic-containers-api-v1.0.0.json, paths `/apps` and `/apps/{appId}`, schemas AddApplicationRequest,
 * AddApplicationResponse, Application): a create answers 201 with the new id, a PUT replaces the whole application
 * (200), a delete answers 200 with no body. bunny.net's Terraform provider makes the same calls
 * (BunnyWay/terraform-provider-bunnynet internal/api/compute_container_app.go).
 *
 * Registries (magic-containers-api-v1.0.0.json, paths `/registries` and `/registries/{registryId}`, schemas
 * ContainerRegistryRequest, ContainerRegistry, SaveContainerRegistryResult, RemoveContainerRegistryResult):
 * - a create is documented as 200, and bunny.net's Terraform provider, whose acceptance tests pass against the real
 *   API, expects 201 (BunnyWay/terraform-provider-bunnynet internal/api/compute_container_imageregistry.go,
 *   CreateComputeContainerImageregistry): both are read as success;
 * - a save answers a `status`; anything but `saved` (secretsValidationFailed, invalidInput …) is a refusal, even in
 *   a 200;
 * - a delete answers 200 with `status` notFound, inUse or removed (409 is documented for in use too): notFound is a
 *   NotFoundError (a retried delete is already gone), inUse a ValidationError naming the apps.
 */
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

  /** Every registry of the account: its own and the public ones (one answer: the API pages nothing here). */
  async listRegistries(): Promise<ContainerRegistry[]> {
    const res = await this.http.request({ api: "containers", method: "GET", path: "/registries", responseSchema: ContainerRegistryListSchema });
    return res.body.items;
  }

  /** One registry (404 NotFoundError when there is none with that id). */
  async getRegistry(registryId: number): Promise<ContainerRegistry> {
    const id = validateRequest(RegistryIdSchema, registryId, "GET", "/registries/{registryId}", "registryId");
    const res = await this.http.request({ api: "containers", method: "GET", path: encodePath("registries", String(id)), responseSchema: ContainerRegistrySchema });
    return res.body;
  }

  /** Adds credentials for a registry; answers the new registry's id. */
  async addRegistry(request: ContainerRegistryRequest): Promise<number> {
    const body = validateRequest(ContainerRegistryRequestSchema, request, "POST", "/registries");
    const res = await this.http.request({ api: "containers", method: "POST", path: "/registries", json: body, responseSchema: SaveContainerRegistryResultSchema });
    return savedRegistryId("POST", "/registries", res.status, res.body);
  }

  /** Replaces a registry's name, type and credentials. */
  async updateRegistry(registryId: number, request: ContainerRegistryRequest): Promise<void> {
    const id = validateRequest(RegistryIdSchema, registryId, "PUT", "/registries/{registryId}", "registryId");
    const body = validateRequest(ContainerRegistryRequestSchema, request, "PUT", "/registries/{registryId}");
    const path = encodePath("registries", String(id));
    const res = await this.http.request({ api: "containers", method: "PUT", path, json: body, retry: "idempotent", responseSchema: SaveContainerRegistryResultSchema });
    savedRegistryId("PUT", path, res.status, res.body, id);
  }

  /**
   * Deletes a registry: NotFoundError when it is already gone, ValidationError naming the apps that still use it
   * (by name, read for the message; by id when an app cannot be read).
   */
  async deleteRegistry(registryId: number): Promise<void> {
    const id = validateRequest(RegistryIdSchema, registryId, "DELETE", "/registries/{registryId}", "registryId");
    const path = encodePath("registries", String(id));
    const res = await this.http.request({ api: "containers", method: "DELETE", path, responseSchema: RemoveContainerRegistryResultSchema });
    const details = { method: "DELETE", path, status: res.status };
    if (res.body.status === "notFound") throw new NotFoundError({ ...details, subject: `there is no container registry ${id} in this account` });
    if (res.body.status === "inUse") {
      const apps = await Promise.all((res.body.applications ?? []).map((appId) => this.getApp(appId).then((a) => `${a.name} (${appId})`, () => appId)));
      const subject = `container registry ${id} is still used by the image of ${apps.length === 1 ? "container app" : "container apps"} ${apps.join(", ")}: move their images to another registry or delete them first`;
      throw new ValidationError({ ...details, errorKey: "inUse", subject });
    }
  }

  /** One page of the account's applications (`limit` 1..1000, the API defaults to 20). */
  async listAppsPage(query: McPageQuery = {}): Promise<AppPage> {
    const q = validateRequest(McPageQuerySchema, query, "GET", "/apps");
    const res = await this.http.request({ api: "containers", method: "GET", path: "/apps", query: q, responseSchema: AppPageSchema });
    return res.body;
  }

  /** Every application of the account, following the cursor page by page (bounded: see PageGuard). */
  async *listApps(options: { limit?: number } = {}): AsyncGenerator<AppListItem> {
    const guard = new PageGuard("GET", "/apps", this.http.limits);
    let nextCursor: string | undefined;
    for (;;) {
      const page = await this.listAppsPage({ limit: options.limit, nextCursor });
      guard.page(page.items, page.cursor);
      yield* page.items;
      if (!page.cursor) return;
      nextCursor = page.cursor;
    }
  }

  /** Creates an application; answers its id. */
  async addApp(request: AddApplicationRequest): Promise<string> {
    const body = validateRequest(AddApplicationRequestSchema, request, "POST", "/apps");
    const res = await this.http.request({ api: "containers", method: "POST", path: "/apps", json: body, responseSchema: AddApplicationResponseSchema });
    if (!res.body.id) throw new UnexpectedResponseError({ method: "POST", path: "/apps", status: res.status, serverMessage: "the answer has no application id" });
    return res.body.id;
  }

  /** One application (404 NotFoundError when there is none with that id). */
  async getApp(appId: string): Promise<Application> {
    const id = validateRequest(McIdSchema, appId, "GET", "/apps/{appId}", "appId");
    const res = await this.http.request({ api: "containers", method: "GET", path: encodePath("apps", id), responseSchema: ApplicationSchema });
    return res.body;
  }

  /** Replaces the whole application (the same request as a create); sending it again changes nothing more. */
  async updateApp(appId: string, request: AddApplicationRequest): Promise<void> {
    const id = validateRequest(McIdSchema, appId, "PUT", "/apps/{appId}", "appId");
    const body = validateRequest(AddApplicationRequestSchema, request, "PUT", "/apps/{appId}");
    await this.http.request({ api: "containers", method: "PUT", path: encodePath("apps", id), json: body, retry: "idempotent", responseSchema: AddApplicationResponseSchema });
  }

  /** Deletes the application with its endpoints and volumes (404 NotFoundError when it is already gone). */
  async deleteApp(appId: string): Promise<void> {
    const id = validateRequest(McIdSchema, appId, "DELETE", "/apps/{appId}", "appId");
    await this.http.request({ api: "containers", method: "DELETE", path: encodePath("apps", id) });
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

/** The id a save answered, or the refusal its `status` says (a 200 can carry one). */
function savedRegistryId(method: string, path: string, status: number, result: { id?: number | null; error?: string | null; status?: string | null }, knownId?: number): number {
  if (result.status && result.status !== "saved") {
    const details = { method, path, status, serverMessage: result.error ?? result.status, errorKey: result.status };
    throw result.status === "notFound" ? new NotFoundError(details) : new ValidationError(details);
  }
  const id = result.id ?? knownId;
  if (id === undefined) throw new UnexpectedResponseError({ method, path, status, serverMessage: "the answer has no registry id" });
  return id;
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
