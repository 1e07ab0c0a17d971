import { z } from "zod";
import { pathSegmentId } from "./common";

/** Magic Containers (`{api}/mc`): regions, app endpoints and volumes, image registries. */

/** A Magic Containers id (app, volume, instance): an opaque string that can be one path segment. */
export const McIdSchema = pathSegmentId;

export const VolumeIdsSchema = z.object({ appId: McIdSchema, volumeId: McIdSchema });
export const VolumeInstanceIdsSchema = VolumeIdsSchema.extend({ instanceId: McIdSchema });

/** `?limit=&nextCursor=` of a cursor-paged list: limit 1..1000 (the API's default is 20). */
export const McPageQuerySchema = z
  .object({
    limit: z.number().int().min(1).max(1000).optional(),
    nextCursor: z.string().min(1).optional(),
  })
  .strict();

/** `{items, meta:{totalItems}, cursor}`: `cursor` is empty or absent on the last page. */
export function mcPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item).nullish().transform((i) => i ?? []),
    meta: z.object({ totalItems: z.number().optional() }).nullish(),
    cursor: z.string().nullish(),
  });
}

export const RegionSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  group: z.string().nullish(),
  hasAnycastSupport: z.boolean().optional(),
  hasCapacity: z.boolean().optional(),
});

const IpAddressSchema = z.object({ address: z.string(), region: z.string().nullish() });

/** EndpointListItem; `type` is one of cdn, anycast, publicIp (kept open for newer kinds). */
export const EndpointSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  publicHost: z.string().nullish(),
  type: z.string(),
  isSslEnabled: z.boolean().optional(),
  pullZoneId: z.string().nullish(),
  portMappings: z
    .array(z.object({ containerPort: z.number(), exposedPort: z.number(), protocols: z.array(z.string()).nullish().transform((p) => p ?? []) }))
    .nullish()
    .transform((p) => p ?? []),
  containerName: z.string().nullish(),
  containerId: z.string().nullish(),
  stickySessions: z.object({ enabled: z.boolean(), sessionHeaders: z.array(z.string()).nullish(), cookieName: z.string().nullish() }).nullish(),
  internalIpAddresses: z.array(IpAddressSchema).nullish(),
  publicIpAddresses: z.array(IpAddressSchema).nullish(),
});

/** VolumeInstance; `status` is attached, detached, creating, deleting … (kept open). */
export const VolumeInstanceSchema = z.object({
  id: z.string(),
  attachedPods: z.array(z.string()).nullish().transform((p) => p ?? []),
  attachedContainers: z.array(z.string()).nullish().transform((c) => c ?? []),
  region: z.string().nullish(),
  status: z.string(),
  size: z.number().optional(),
  usage: z.number().optional(),
  set: z.string().nullish(),
});

export const VolumeSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().optional(),
  totalUsage: z.number().optional(),
  totalInstancesCount: z.number().optional(),
  attachedInstancesCount: z.number().optional(),
  containersCount: z.number().optional(),
  volumeInstances: z.array(VolumeInstanceSchema).nullish().transform((i) => i ?? []),
});

export const RegionPageSchema = mcPageSchema(RegionSchema);
export const EndpointPageSchema = mcPageSchema(EndpointSchema);
export const VolumeListSchema = mcPageSchema(VolumeSchema).extend({
  summary: z.object({ totalPods: z.number().optional(), totalContainers: z.number().optional(), totalStorage: z.number().optional() }).nullish(),
});

/** RegistryType: the registries an account can add credentials for. */
export const REGISTRY_TYPES = ["dockerHub", "gitHub", "bunnyRegistry"] as const;

/** `ContainerRegistryRequest`: create (`POST /registries`) and update (`PUT /registries/{registryId}`) send the whole registry. */
export const ContainerRegistryRequestSchema = z
  .object({
    displayName: z.string().min(1).max(50),
    type: z.enum(REGISTRY_TYPES),
    passwordCredentials: z.object({ userName: z.string().min(1), password: z.string().min(1) }).strict(),
  })
  .strict();

/** A registry id: an int64 in the path. */
export const RegistryIdSchema = z.number().int().positive();

/** `ContainerRegistry` as the list and `GET /registries/{registryId}` answer it (the password only as its first and last symbols). */
export const ContainerRegistrySchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  hostName: z.string(),
  userName: z.string().nullish(),
  isPublic: z.boolean().nullish(),
  isPlatformManaged: z.boolean().optional(),
  firstPasswordSymbols: z.string().nullish(),
  lastPasswordSymbols: z.string().nullish(),
  createdAt: z.string().nullish(),
  lastUpdatedAt: z.string().nullish(),
});
export const ContainerRegistryListSchema = mcPageSchema(ContainerRegistrySchema);

/** `SaveContainerRegistryResult`: `status` is saved, secretsValidationFailed, notFound, invalidInput … (kept open). */
export const SaveContainerRegistryResultSchema = z.object({ id: z.number().int().nullish(), error: z.string().nullish(), status: z.string().nullish() });
/** `RemoveContainerRegistryResult`: `status` notFound, inUse or removed (kept open), and the apps that use it. */
export const RemoveContainerRegistryResultSchema = z.object({ status: z.string().nullish(), applications: z.array(z.string()).nullish() });

export const DetachVolumeResultSchema = z.object({ name: z.string() });
export const DeleteVolumeInstanceResultSchema = z.object({ id: z.string() });

export type McPageQuery = z.input<typeof McPageQuerySchema>;
export type Region = z.output<typeof RegionSchema>;
export type Endpoint = z.output<typeof EndpointSchema>;
export type Volume = z.output<typeof VolumeSchema>;
export type VolumeInstance = z.output<typeof VolumeInstanceSchema>;
export type RegionPage = z.output<typeof RegionPageSchema>;
export type EndpointPage = z.output<typeof EndpointPageSchema>;
export type VolumeList = z.output<typeof VolumeListSchema>;
export type ContainerRegistryRequest = z.input<typeof ContainerRegistryRequestSchema>;
export type ContainerRegistry = z.output<typeof ContainerRegistrySchema>;
export type SaveContainerRegistryResult = z.output<typeof SaveContainerRegistryResultSchema>;
export type DetachVolumeResult = z.output<typeof DetachVolumeResultSchema>;
export type DeleteVolumeInstanceResult = z.output<typeof DeleteVolumeInstanceResultSchema>;

/** ApplicationStatus (magic-containers-api-v1.0.0.json); kept open for newer values. */
export const APPLICATION_STATUSES = ["unknown", "active", "progressing", "inactive", "failing", "suspended"] as const;

const PortMappingRequestSchema = z
  .object({ containerPort: z.number().int().min(1).max(65535), exposedPort: z.number().int().min(1).max(65535).nullish(), protocols: z.array(z.enum(["tcp", "udp", "sctp"])).optional() })
  .strict();
const ProbeRequestSchema = z
  .object({
    initialDelaySeconds: z.number().int().min(1).max(3600).nullish(),
    periodSeconds: z.number().int().min(1).max(3600).nullish(),
    timeoutSeconds: z.number().int().min(1).max(3600).nullish(),
    failureThreshold: z.number().int().min(1).max(1000).nullish(),
    successThreshold: z.number().int().min(1).max(1000).nullish(),
    httpGet: z
      .object({ request: z.object({ path: z.string().optional(), portNumber: z.number().int() }).strict().optional(), response: z.object({ expectedStatusCode: z.number().int().optional() }).strict().optional() })
      .strict()
      .optional(),
    tcpSocket: z.object({ request: z.object({ portNumber: z.number().int() }).strict().optional() }).strict().optional(),
    grpc: z.object({ request: z.object({ portNumber: z.number().int(), serviceName: z.string().nullish() }).strict().optional() }).strict().optional(),
  })
  .strict();

/** ContainerRequest: a container of AddApplicationRequest (create and PUT send the whole application). */
export const ContainerRequestSchema = z
  .object({
    id: z.string().nullish(),
    name: z.string().min(1).max(50),
    imageName: z.string().min(1),
    imageNamespace: z.string().min(1),
    imageTag: z.string().min(1),
    imageDigest: z.string().regex(/^sha256:[a-z0-9]{64}$/).nullish(),
    imageRegistryId: z.string().min(1),
    imagePullPolicy: z.enum(["always", "ifNotPresent"]).optional(),
    entryPoint: z.object({ command: z.string().nullish(), arguments: z.string().nullish(), workingDirectory: z.string().nullish() }).strict().optional(),
    probes: z.object({ startup: ProbeRequestSchema.optional(), readiness: ProbeRequestSchema.optional(), liveness: ProbeRequestSchema.optional() }).strict().optional(),
    environmentVariables: z.array(z.object({ name: z.string().min(1), value: z.string() }).strict()).optional(),
    endpoints: z
      .array(
        z
          .object({
            displayName: z.string().min(1).max(50),
            cdn: z
              .object({
                isSslEnabled: z.boolean().optional(),
                stickySessions: z.object({ enabled: z.boolean().optional(), sessionHeaders: z.array(z.string()).min(1).max(3), cookieName: z.string().optional() }).strict().optional(),
                pullZoneId: z.number().int().nullish(),
                portMappings: z.array(PortMappingRequestSchema).min(1).max(1),
              })
              .strict()
              .optional(),
            anycast: z.object({ type: z.literal("iPv4"), portMappings: z.array(PortMappingRequestSchema).min(1) }).strict().optional(),
          })
          .strict(),
      )
      .optional(),
    volumeMounts: z.array(z.object({ name: z.string().min(1).max(50), mountPath: z.string().min(1) }).strict()).optional(),
  })
  .strict();

/** AddApplicationRequest: `POST /apps` and `PUT /apps/{appId}` (the whole application). */
export const AddApplicationRequestSchema = z
  .object({
    name: z.string().min(1).max(100).regex(/^[A-Za-z0-9-\s]+$/),
    runtimeType: z.enum(["shared", "reserved"]),
    autoScaling: z.object({ min: z.number().int().min(1).max(1000), max: z.number().int().min(1).max(1000) }).strict(),
    regionSettings: z
      .object({ allowedRegionIds: z.array(z.string()).nullish(), requiredRegionIds: z.array(z.string()).nullish(), maxAllowedRegions: z.number().int().nullish() })
      .strict(),
    containerTemplates: z.array(ContainerRequestSchema).min(1).optional(),
    volumes: z.array(z.object({ name: z.string().min(1).max(50), size: z.number().int().min(1).max(100) }).strict()).optional(),
  })
  .strict();

/** AddApplicationResponse: the id of the application a create or update saved. */
export const AddApplicationResponseSchema = z.object({ id: z.string().nullish() });

const ProbeAnswerSchema = z.object({
  initialDelaySeconds: z.number().nullish(),
  periodSeconds: z.number().nullish(),
  timeoutSeconds: z.number().nullish(),
  failureThreshold: z.number().nullish(),
  successThreshold: z.number().nullish(),
  httpGet: z.object({ request: z.object({ path: z.string().nullish(), portNumber: z.number() }).nullish(), response: z.object({ expectedStatusCode: z.unknown() }).nullish() }).nullish(),
  tcpSocket: z.object({ request: z.object({ portNumber: z.number() }).nullish() }).nullish(),
  grpc: z.object({ request: z.object({ portNumber: z.number(), serviceName: z.string().nullish() }).nullish() }).nullish(),
});
export type ProbeAnswer = z.output<typeof ProbeAnswerSchema>;

/** ContainerEndpoint: an endpoint in the application's answer (EndpointSchema without its container). */
const ContainerEndpointSchema = EndpointSchema.omit({ containerName: true, containerId: true });

/** ContainerTemplate: a container as the application answers it. */
export const ContainerTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  packageId: z.string().nullish(),
  image: z.string().nullish(),
  imageName: z.string(),
  imageNamespace: z.string(),
  imageTag: z.string(),
  imageRegistryId: z.string(),
  imageDigest: z.string().nullish(),
  imagePullPolicy: z.string().nullish(),
  entryPoint: z.object({ command: z.string().nullish(), arguments: z.string().nullish(), workingDirectory: z.string().nullish() }).nullish(),
  probes: z.object({ startup: ProbeAnswerSchema.nullish(), readiness: ProbeAnswerSchema.nullish(), liveness: ProbeAnswerSchema.nullish() }).nullish(),
  environmentVariables: z
    .array(z.object({ name: z.string(), value: z.string().nullish() }))
    .nullish()
    .transform((e) => e ?? []),
  endpoints: z
    .array(ContainerEndpointSchema)
    .nullish()
    .transform((e) => e ?? []),
  volumeMounts: z
    .array(z.object({ name: z.string(), mountPath: z.string() }))
    .nullish()
    .transform((m) => m ?? []),
});

/** Application: `GET /apps/{appId}`; `status` is one of APPLICATION_STATUSES (kept open). */
export const ApplicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  runtimeType: z.string(),
  regionSettings: z.object({
    allowedRegionIds: z.array(z.string()).nullish().transform((r) => r ?? []),
    requiredRegionIds: z.array(z.string()).nullish().transform((r) => r ?? []),
    maxAllowedRegions: z.number().nullish(),
  }),
  containerTemplates: z.array(ContainerTemplateSchema).nullish().transform((c) => c ?? []),
  containerInstances: z.array(z.object({ id: z.string(), templateId: z.string() })).nullish().transform((c) => c ?? []),
  volumes: z.array(z.object({ name: z.string(), size: z.number() })).nullish().transform((v) => v ?? []),
  autoScaling: z.object({ min: z.number(), max: z.number() }).nullish(),
});

/** AppListItem of ListApplicationsResponse (`GET /apps`, cursor-paged like regions). */
export const AppListItemSchema = z.object({ id: z.string(), name: z.string().nullish(), status: z.string().nullish() });
export const AppPageSchema = mcPageSchema(AppListItemSchema);

export type AppListItem = z.output<typeof AppListItemSchema>;
export type AppPage = z.output<typeof AppPageSchema>;
export type ContainerRequest = z.input<typeof ContainerRequestSchema>;
export type AddApplicationRequest = z.input<typeof AddApplicationRequestSchema>;
export type ContainerTemplate = z.output<typeof ContainerTemplateSchema>;
export type Application = z.output<typeof ApplicationSchema>;
