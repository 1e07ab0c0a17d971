import { createHash, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../../context";
import { documentEnum, firstIssue, notFound, validationProblem } from "./problems";
import { PULL_ZONE } from "../pullZones/records";
import { pageOf } from "./paging";
import { attachDeclaredZone, createEndpointZone, deleteEndpointZones, endpointZoneName, endpointZonesOf, releaseDeclaredZones } from "./endpointZones";
import { APP, ENDPOINT, REGION, REGISTRY, VOLUME, mcId, type AppRecord, type AppSettings, type EndpointRecord, type RegistryRecord, type VolumeRecord } from "./records";
import { parseBody } from "../../unknownProperties";

/**
 * Magic Containers applications: `POST /mc/apps`, `PUT /mc/apps/{appId}`, `GET /mc/apps/{appId}` and
 * `DELETE /mc/apps/{appId}`, the calls bunny.net's Terraform provider makes for `bunnynet_compute_container_app`
 * (the registries an app names: registries.ts).
 *
 * Sources: magic-containers-api-v1.0.0.json (AddApplicationRequest, ContainerRequest, EndpointRequest,
 * CdnEndpointRequest, AnycastEndpointRequest, ContainerPortMappingRequest, ContainerEntryPoint, ContainerProbes,
 * ContainerProbe, EnvironmentVariable, VolumeRequest, VolumeMountRequest, UpdateRegionSettingsRequest,
 * AutoscalingSettings; the answers AddApplicationResponse, Application, ContainerTemplate, ContainerEndpoint;
 * the enums ApplicationRuntimeType, ImagePullPolicy, Protocol,
 * AnycastIpProtocolVersion). The real API beyond the document, from the Terraform provider whose acceptance test
 * creates apps with these bodies (BunnyWay/terraform-provider-bunnynet internal/api/compute_container_app.go,
 * UpdateComputeContainerApp; internal/provider/resource_compute_container_app.go, convertModelToApi):
 * - enum values in another case (`runtimeType: "Shared"`, `imagePullPolicy: "Always"`): read case-insensitively,
 *   answered in the document's case;
 * - `packageId` in a container (not in ContainerRequest): accepted and answered (ContainerTemplate has it);
 * - `null` probes and sticky sessions (the document gives them no `nullable`): read as absent;
 * - the application's own `id` in a PUT (not in AddApplicationRequest): accepted when it is the app's.
 *
 * A CDN endpoint without `pullZoneId` gets a pull zone of its own, a real one that `GET /pullzone` lists, made and
 * deleted with the endpoint (endpointZones.ts, after the Terraform provider's issue #53); with `pullZoneId` it fronts
 * that zone (which must exist: 400 naming the field), makes none, and becomes that zone's origin (endpointZones.ts,
 * attachDeclaredZone).
 *
 * Decided (not published): a CDN endpoint's public host is `mc-<app id>-<endpoint name>.b-cdn.net` (its own zone's
 * system hostname; endpointZones.ts, endpointZoneName), whether or not it fronts a declared zone; an anycast
 * endpoint's `<name>-<app id>.bunny.run`; region ids and the registry must exist, volume mounts name a volume of the
 * app, container names and endpoint names are unique in the app (400 naming the field).
 *
 * Deployment (the document's ApplicationStatus: unknown, active, progressing, inactive, failing, suspended): a create,
 * and a PUT that changes any container, start a deployment; the app is `progressing` for `appDeployMs` (set with
 * `POST /_emulator/faults`, default 300 ms), then `active` with one container instance per container, or `failing`
 * when the deployment started while `failAppDeploys` was on (a fault to inject). `GET /mc/apps` lists the apps
 * (ListApplicationsResponse, AppListItem), cursor-paged like the regions.
 */

const port = z.number().int().min(1).max(65535);
const portMapping = z.strictObject({
  containerPort: port,
  exposedPort: port.nullish(),
  protocols: z.array(documentEnum(["tcp", "udp", "sctp"])).nullish(),
});
const stickySessions = z.strictObject({ enabled: z.boolean().optional(), sessionHeaders: z.array(z.string()).min(1).max(3), cookieName: z.string().optional() });
const endpoint = z
  .strictObject({
    displayName: z.string().min(1).max(50),
    cdn: z
      .strictObject({ isSslEnabled: z.boolean().optional(), stickySessions: stickySessions.nullish(), pullZoneId: z.number().int().nullish(), portMappings: z.array(portMapping).min(1) })
      .nullish(),
    anycast: z.strictObject({ type: documentEnum(["iPv4"]), portMappings: z.array(portMapping).min(1) }).nullish(),
  })
  .refine((e) => (e.cdn ? 1 : 0) + (e.anycast ? 1 : 0) === 1, { message: "must be exactly one of cdn or anycast" });
const probePort = z.strictObject({ portNumber: port });
const probe = z.strictObject({
  initialDelaySeconds: z.number().int().nullish(),
  periodSeconds: z.number().int().nullish(),
  timeoutSeconds: z.number().int().nullish(),
  failureThreshold: z.number().int().nullish(),
  successThreshold: z.number().int().nullish(),
  httpGet: z.strictObject({ request: z.strictObject({ path: z.string().optional(), portNumber: port }).optional(), response: z.strictObject({ expectedStatusCode: z.unknown() }).optional() }).nullish(),
  tcpSocket: z.strictObject({ request: probePort.optional() }).nullish(),
  grpc: z.strictObject({ request: z.strictObject({ portNumber: port, serviceName: z.string().nullish() }).optional() }).nullish(),
});
const nullableString = z.string().nullish();
/** ContainerRequest's image name patterns (the document's, anchored: a whole name, not a part of one). */
const imagePart = (separators: string) => z.string().regex(new RegExp(`^[a-zA-Z0-9]+(?:[${separators}]{1,2}[a-zA-Z0-9]+)*$`), "is not a valid image name part");
const container = z.strictObject({
  id: nullableString,
  name: z.string().min(1).max(50),
  packageId: nullableString,
  image: nullableString,
  imageName: imagePart("./_-"),
  imageNamespace: imagePart("./_-"),
  imageTag: imagePart("._-"),
  imageDigest: z.string().regex(/^sha256:[a-z0-9]{64}$/, "must be sha256: and 64 hexadecimal digits").nullish(),
  imageRegistryId: z.string().min(1),
  imagePullPolicy: documentEnum(["always", "ifNotPresent"]).optional(),
  entryPoint: z
    .strictObject({ command: nullableString, commandArray: z.array(z.string()).nullish(), arguments: nullableString, argumentsArray: z.array(z.string()).nullish(), workingDirectory: nullableString })
    .nullish(),
  probes: z.strictObject({ startup: probe.nullish(), readiness: probe.nullish(), liveness: probe.nullish() }).nullish(),
  environmentVariables: z.array(z.strictObject({ name: z.string().min(1), value: z.string().optional() })).nullish(),
  endpoints: z.array(endpoint).nullish(),
  volumeMounts: z.array(z.strictObject({ name: z.string().min(1), mountPath: z.string().min(1) })).nullish(),
});
const AddApplicationBody = z.strictObject({
  name: z.string().min(1).max(100).regex(/^[A-Za-z0-9-\s]+$/, "may hold letters, digits, hyphens and spaces only"),
  runtimeType: documentEnum(["shared", "reserved"]),
  terminationGracePeriodSeconds: z.number().int().min(1).max(300).nullish(),
  repositorySettings: z.strictObject({ templateRepository: nullableString, repositoryName: nullableString, owner: nullableString }).nullish(),
  autoScaling: z.strictObject({ min: z.number().int().min(1).max(1000), max: z.number().int().min(1).max(1000) }).refine((a) => a.max >= a.min, { message: "max must not be less than min" }),
  regionSettings: z.strictObject({
    allowedRegionIds: z.array(z.string()).nullish(),
    requiredRegionIds: z.array(z.string()).nullish(),
    maxAllowedRegions: z.number().int().min(1).nullish(),
    nodeSelectors: z.record(z.string(), z.unknown()).nullish(),
  }),
  containerTemplates: z.array(container).min(1).nullish(),
  volumes: z.array(z.strictObject({ name: z.string().min(1).max(50), size: z.number().int().min(1).max(100) })).nullish(),
});
type AddApplication = z.output<typeof AddApplicationBody>;

/** What the documents and the account refuse beyond the body's shape, as a field and message; undefined when none. */
function accountProblem(ctx: EmulatorContext, body: AddApplication): { field: string; message: string } | undefined {
  for (const key of ["allowedRegionIds", "requiredRegionIds"] as const) {
    const ids = body.regionSettings[key] ?? [];
    const unknown = ids.findIndex((id) => !ctx.store.get(REGION, id));
    if (unknown >= 0) return { field: `regionSettings.${key}.${unknown}`, message: `${ids[unknown]} is not a region` };
  }
  const volumes = new Set((body.volumes ?? []).map((v) => v.name));
  const names = new Set<string>();
  const endpointNames = new Set<string>();
  for (const [i, c] of (body.containerTemplates ?? []).entries()) {
    if (names.has(c.name)) return { field: `containerTemplates.${i}.name`, message: `${c.name} is the name of another container` };
    names.add(c.name);
    if (!ctx.store.get(REGISTRY, c.imageRegistryId)) return { field: `containerTemplates.${i}.imageRegistryId`, message: `registry ${c.imageRegistryId} does not exist` };
    for (const [j, m] of (c.volumeMounts ?? []).entries()) {
      if (!volumes.has(m.name)) return { field: `containerTemplates.${i}.volumeMounts.${j}.name`, message: `${m.name} is not a volume of the application` };
    }
    for (const [j, e] of (c.endpoints ?? []).entries()) {
      const zoneId = e.cdn?.pullZoneId;
      if (zoneId !== undefined && zoneId !== null && !ctx.store.get(PULL_ZONE, String(zoneId))) {
        return { field: `containerTemplates.${i}.endpoints.${j}.cdn.pullZoneId`, message: `pull zone ${zoneId} does not exist` };
      }
      if (endpointNames.has(e.displayName)) return { field: `containerTemplates.${i}.endpoints.${j}.displayName`, message: `${e.displayName} is the name of another endpoint` };
      endpointNames.add(e.displayName);
    }
  }
  return undefined;
}

/** The sticky-session cookie when none is named (EndpointStickySession.cookieName must not be empty); the seeded app's too. */
const DEFAULT_COOKIE = "mc_session";

/** A stand-in digest for an image reference (ContainerTemplate.imageDigest must not be empty): there is no registry here. */
function digestOf(image: string): string {
  return `sha256:${createHash("sha256").update(image).digest("hex")}`;
}

/** An endpoint of the request as the API stores and answers it (a CDN one's pull zone: saveApplication). */
function endpointRecord(appId: string, containerRef: { id: string; name: string }, e: z.output<typeof endpoint>): EndpointRecord {
  // A CDN endpoint's port sent without exposedPort answers 0 (EndpointPortMapping requires the field), and one sent
  // without sticky sessions answers none: bunny.net's Terraform provider plans both as unset and its acceptance test
  // (resource_compute_container_app_test.go, TestAccComputeContainerAppResource, run against the real API) reads them
  // back unset (resource_compute_container_app.go: `port.ExposedPort > 0`, `endpoint.StickySessions != nil`).
  const mappings = (e.cdn ?? e.anycast)!.portMappings.map((m) => ({ containerPort: m.containerPort, exposedPort: m.exposedPort ?? (e.cdn ? 0 : m.containerPort), protocols: m.protocols ?? ["tcp" as const] }));
  const base = { id: mcId(), displayName: e.displayName, containerId: containerRef.id, containerName: containerRef.name, portMappings: mappings };
  if (e.cdn) {
    const sticky = e.cdn.stickySessions;
    return {
      ...base,
      type: "cdn",
      publicHost: `${endpointZoneName(appId, e.displayName)}.b-cdn.net`,
      isSslEnabled: e.cdn.isSslEnabled ?? false,
      pullZoneId: e.cdn.pullZoneId === undefined || e.cdn.pullZoneId === null ? "" : String(e.cdn.pullZoneId),
      ...(sticky ? { stickySessions: { enabled: sticky.enabled ?? false, sessionHeaders: sticky.sessionHeaders, cookieName: sticky.cookieName || DEFAULT_COOKIE } } : {}),
      internalIpAddresses: null,
      publicIpAddresses: null,
    };
  }
  return { ...base, type: "anycast", publicHost: `${e.displayName.toLowerCase()}-${appId.toLowerCase()}.bunny.run`, isSslEnabled: false, pullZoneId: "0", internalIpAddresses: null, publicIpAddresses: [{ address: "203.0.113.80", region: "anycast" }] };
}

/**
 * Stores the application (new, or `existing` replaced as a whole, as PUT does) and its endpoints and volumes; answers
 * its id. On a replace, a container keeps its id (matched by the id sent, else by name), an endpoint its id, host and
 * own pull zone (matched by container and name), a volume its id and instances (matched by name); the own zones of
 * endpoints gone, or now fronting a declared zone, are deleted.
 */
function saveApplication(ctx: EmulatorContext, body: AddApplication, existing?: AppRecord): string {
  const appId = existing?.id ?? mcId();
  const before = existing ? (applicationAnswer(ctx, existing).containerTemplates as { id: string; name: string }[]) : [];
  const oldEndpoints = ctx.store.list<EndpointRecord>(ENDPOINT, appId);
  const oldVolumes = ctx.store.list<VolumeRecord>(VOLUME, appId);
  const containers: AppSettings["containers"] = (body.containerTemplates ?? []).map((c) => {
    const registry = ctx.store.get<RegistryRecord>(REGISTRY, c.imageRegistryId)!;
    const image = `${registry.hostName}/${c.imageNamespace}/${c.imageName}:${c.imageTag}`;
    return {
      id: before.find((b) => (c.id ? b.id === c.id : b.name === c.name))?.id ?? mcId(),
      name: c.name,
      packageId: c.packageId || randomUUID(),
      image,
      imageName: c.imageName,
      imageNamespace: c.imageNamespace,
      imageTag: c.imageTag,
      imageRegistryId: c.imageRegistryId,
      imageDigest: c.imageDigest ?? digestOf(image),
      imagePullPolicy: c.imagePullPolicy ?? "ifNotPresent",
      entryPoint: { command: c.entryPoint?.command ?? "", arguments: c.entryPoint?.arguments ?? "", workingDirectory: c.entryPoint?.workingDirectory ?? "" },
      probes: Object.fromEntries(Object.entries(c.probes ?? {}).filter(([, p]) => p !== null && p !== undefined)),
      environmentVariables: (c.environmentVariables ?? []).map((v) => ({ name: v.name, value: v.value ?? "" })),
      volumeMounts: c.volumeMounts ?? [],
    };
  });
  const settings: AppSettings = {
    runtimeType: body.runtimeType,
    autoScaling: body.autoScaling,
    regionSettings: { allowedRegionIds: body.regionSettings.allowedRegionIds ?? [], requiredRegionIds: body.regionSettings.requiredRegionIds ?? [], maxAllowedRegions: body.regionSettings.maxAllowedRegions ?? null },
    containers,
    volumes: body.volumes ?? [],
  };
  // A new app, or changed containers (their endpoints too), roll out anew; a change of scaling, regions or volumes alone does not.
  const endpointRequests = Object.fromEntries((body.containerTemplates ?? []).map((c) => [c.name, c.endpoints ?? []]));
  const changed = !existing?.deployment || containersKey(existing.settings?.containers ?? [], existing.endpointRequests ?? {}) !== containersKey(containers, endpointRequests);
  const deployment = changed ? { startedAt: Date.now(), ms: ctx.faults.appDeploys.ms, fails: ctx.faults.appDeploys.fail } : existing!.deployment;
  ctx.store.transaction(() => {
    const ownZones = endpointZonesOf(ctx, appId);
    const keptZones = new Set<string>();
    const frontedZones = new Map<number, string>();
    for (const e of oldEndpoints) ctx.store.delete(ENDPOINT, e.id);
    for (const v of oldVolumes) ctx.store.delete(VOLUME, v.id);
    ctx.store.put(APP, appId, {
      id: appId,
      name: body.name,
      containers: containers.map(({ id, name, image }) => ({ id, name, image })),
      settings,
      deployment,
      endpointRequests,
    } satisfies AppRecord);
    (body.containerTemplates ?? []).forEach((c, i) => {
      for (const e of c.endpoints ?? []) {
        const fresh = endpointRecord(appId, containers[i], e);
        const kept = oldEndpoints.find((o) => o.containerId === fresh.containerId && o.displayName === fresh.displayName && o.type === fresh.type);
        const record = kept ? { ...fresh, id: kept.id, publicHost: kept.publicHost } : fresh;
        if (record.type === "cdn" && record.pullZoneId === "") {
          const zone = ownZones.get(record.id) ?? createEndpointZone(ctx, appId, record.id, record.displayName);
          keptZones.add(record.id);
          record.pullZoneId = String(zone.Id);
        } else if (record.type === "cdn") {
          attachDeclaredZone(ctx, Number(record.pullZoneId), appId, record.id);
          frontedZones.set(Number(record.pullZoneId), record.id);
        }
        ctx.store.put(ENDPOINT, record.id, record, appId);
      }
    });
    deleteEndpointZones(ctx, appId, keptZones, ownZones);
    releaseDeclaredZones(ctx, appId, frontedZones);
    for (const v of body.volumes ?? []) {
      const kept = oldVolumes.find((o) => o.name === v.name);
      const record: VolumeRecord = kept ? { ...kept, size: v.size } : { id: mcId(), name: v.name, size: v.size, volumeInstances: [] };
      ctx.store.put(VOLUME, record.id, record, appId);
    }
  });
  return appId;
}

/** The application as `GET /mc/apps/{appId}` answers it (Application); a seeded app without settings gets the defaults. */
function applicationAnswer(ctx: EmulatorContext, app: AppRecord): Record<string, unknown> {
  const endpoints = ctx.store.list<EndpointRecord>(ENDPOINT, app.id);
  const settings: AppSettings = app.settings ?? {
    runtimeType: "shared",
    autoScaling: { min: 1, max: 1 },
    regionSettings: { allowedRegionIds: ["DE"], requiredRegionIds: ["DE"], maxAllowedRegions: null },
    containers: app.containers.map((c) => {
      const [path, tag = "latest"] = c.image.split(":");
      const onGitHub = path.startsWith("ghcr.io/");
      const parts = (onGitHub ? path.slice("ghcr.io/".length) : path).split("/");
      return {
        ...c,
        packageId: c.id,
        imageName: parts[parts.length - 1],
        // Docker Hub's official images live in its `library` namespace.
        imageNamespace: parts.slice(0, -1).join("/") || "library",
        imageTag: tag,
        imageRegistryId: onGitHub ? "2" : "1",
        imageDigest: digestOf(c.image),
        imagePullPolicy: "ifNotPresent",
        entryPoint: { command: "", arguments: "", workingDirectory: "" },
        probes: {},
        environmentVariables: [],
        volumeMounts: [],
      };
    }),
    volumes: ctx.store.list<VolumeRecord>(VOLUME, app.id).map((v) => ({ name: v.name, size: v.size })),
  };
  const status = statusOf(app);
  return {
    id: app.id,
    name: app.name,
    status,
    runtimeType: settings.runtimeType,
    regionSettings: { ...settings.regionSettings, provisioningType: "static" },
    containerTemplates: settings.containers.map((c) => ({
      ...c,
      endpoints: endpoints
        .filter((e) => e.containerId === c.id)
        .map(({ containerId: _id, containerName: _name, ...e }) => e),
    })),
    containerInstances: status === "active" ? settings.containers.map((c, i) => ({ id: `${c.id}-0`, templateId: c.id, podId: `${app.id}-pod-${i}`, nodeIpAddress: "198.51.100.10" })) : [],
    volumes: settings.volumes,
    autoScaling: settings.autoScaling,
  };
}


/** The containers as a deployment sees them (by name, without the ids the API gives): equal keys, nothing to roll out. */
function containersKey(containers: AppSettings["containers"], endpoints: Record<string, unknown>): string {
  const byName = [...containers].sort((a, b) => a.name.localeCompare(b.name));
  return JSON.stringify(byName.map(({ id: _id, packageId: _package, ...c }) => ({ ...c, endpoints: endpoints[c.name] ?? [] })));
}

/** ApplicationStatus now: the last deployment's progress (see the file comment). */
function statusOf(app: AppRecord): "active" | "progressing" | "failing" {
  const d = app.deployment;
  if (!d) return "active";
  if (Date.now() < d.startedAt + d.ms) return "progressing";
  return d.fails ? "failing" : "active";
}

export function appRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const appOf = (appId: string, reply: FastifyReply): AppRecord | undefined => ctx.store.get<AppRecord>(APP, appId) ?? void notFound(reply, "appId", "The application");

  app.post("/mc/apps", async (req, reply) => {
    const parsed = parseBody(AddApplicationBody, req.body, ctx.strict);
    if (!parsed.success) {
      const { field, message } = firstIssue(parsed.error);
      return validationProblem(reply, field, `${field}: ${message}`);
    }
    const problem = accountProblem(ctx, parsed.data);
    if (problem) return validationProblem(reply, problem.field, `${problem.field}: ${problem.message}`);
    return reply.code(201).send({ id: saveApplication(ctx, parsed.data) });
  });

  // The whole application again (AddApplicationRequest); Terraform also sends the app's own `id`, read and dropped.
  app.put("/mc/apps/:appId", async (req, reply) => {
    const found = appOf((req.params as { appId: string }).appId, reply);
    if (!found) return reply;
    const { id, ...rest } = (typeof req.body === "object" && req.body !== null ? req.body : {}) as Record<string, unknown>;
    if (id !== undefined && id !== found.id) return validationProblem(reply, "id", "id: is not the application's id");
    const parsed = parseBody(AddApplicationBody, rest, ctx.strict);
    if (!parsed.success) {
      const { field, message } = firstIssue(parsed.error);
      return validationProblem(reply, field, `${field}: ${message}`);
    }
    const problem = accountProblem(ctx, parsed.data);
    if (problem) return validationProblem(reply, problem.field, `${problem.field}: ${problem.message}`);
    return { id: saveApplication(ctx, parsed.data, found) };
  });

  app.get("/mc/apps", async (req, reply) => {
    const items = ctx.store.list<AppRecord>(APP).map((a) => ({ id: a.id, name: a.name, status: statusOf(a) }));
    return pageOf(req, reply, items) ?? reply;
  });

  app.get("/mc/apps/:appId", async (req, reply) => {
    const found = appOf((req.params as { appId: string }).appId, reply);
    return found ? applicationAnswer(ctx, found) : reply;
  });

  // DeleteApplication (magic-containers-api-v1.0.0.json, `DELETE /apps/{appId}`): "Marks the application for deletion
  // and enqueues cleanup of all associated resources. Returns immediately; deletion is processed asynchronously." The
  // document is silent on what "associated resources" holds and on a declared pull zone an endpoint fronts (its
  // `cdn.pullZoneId`); BUNNY-API.md says nothing of app deletes. Decided here: the zones the API made for the app's
  // endpoints go (they live and die with their endpoint, endpointZones.ts), a declared zone stays, unlinked, on
  // bunny.net's landing page (its owner declared it: deleting it would take its hostnames and certificates with it),
  // and the cleanup is done before the answer, not after it (nothing here observes the in-between state).
  app.delete("/mc/apps/:appId", async (req, reply) => {
    const found = appOf((req.params as { appId: string }).appId, reply);
    if (!found) return reply;
    ctx.store.transaction(() => {
      for (const kind of [ENDPOINT, VOLUME]) for (const owned of ctx.store.list<{ id: string }>(kind, found.id)) ctx.store.delete(kind, owned.id);
      deleteEndpointZones(ctx, found.id);
      releaseDeclaredZones(ctx, found.id);
      ctx.store.delete(APP, found.id);
    });
    return reply.code(200).send();
  });
}

