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
