import { randomBytes } from "node:crypto";

/**
 * What the emulator stores for Magic Containers: its store collections and their records (regions, apps, their
 * endpoints and volumes), in the shapes magic-containers-api-v1.0.0.json answers them.
 */

/** Store collections; endpoints and volumes are owned by their app. */
export const REGION = "mc_region";
export const APP = "mc_app";
export const ENDPOINT = "mc_endpoint";
export const VOLUME = "mc_volume";
export const REGISTRY = "mc_registry";

export interface RegionRecord {
  id: string;
  name: string;
  group: string;
  hasAnycastSupport: boolean;
  hasCapacity: boolean;
}

export interface AppRecord {
  id: string;
  name: string;
  containers: { id: string; name: string; image: string }[];
  /** What the create asked for (apps.ts); absent for the seeded app, which answers defaults. */
  settings?: AppSettings;
  /** The last deployment (a create, or a change of the containers): absent for the seeded app, which is active. */
  deployment?: { startedAt: number; ms: number; fails: boolean };
  /** The endpoints the last save asked for, by container name: a change to them is a change of the containers. */
  endpointRequests?: Record<string, unknown>;
}

/** An application's settings as `GET /mc/apps/{appId}` answers them (Application, ContainerTemplate without endpoints). */
export interface AppSettings {
  runtimeType: "shared" | "reserved";
  autoScaling: { min: number; max: number };
  regionSettings: { allowedRegionIds: string[]; requiredRegionIds: string[]; maxAllowedRegions: number | null };
  containers: {
    id: string;
    name: string;
    packageId: string;
    image: string;
    imageName: string;
    imageNamespace: string;
    imageTag: string;
    imageRegistryId: string;
    imageDigest: string;
    imagePullPolicy: "always" | "ifNotPresent";
    entryPoint: { command: string; arguments: string; workingDirectory: string };
    probes: Record<string, unknown>;
    environmentVariables: { name: string; value: string }[];
    volumeMounts: { name: string; mountPath: string }[];
  }[];
  volumes: { name: string; size: number }[];
}

/** ContainerRegistry, as `GET /mc/registries` lists it. */
export interface RegistryRecord {
  id: number;
  accountId: string | null;
  userId: string | null;
  namespaceId: string;
  displayName: string;
  hostName: string;
  userName: string | null;
  firstPasswordSymbols: string | null;
  lastPasswordSymbols: string | null;
  createdAt: string;
  isPublic: boolean;
  isPlatformManaged: boolean;
  lastUpdatedAt: string | null;
}

export interface EndpointRecord {
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

export type VolumeStatus = "attached" | "detached";

export interface VolumeInstanceRecord {
  id: string;
  attachedPods: string[];
  attachedContainers: string[];
  region: string;
  status: VolumeStatus;
  size: number;
  usage: number;
  set: string;
}

export interface VolumeRecord {
  id: string;
  name: string;
  /** Gigabytes per instance. */
  size: number;
  volumeInstances: VolumeInstanceRecord[];
}

/** Magic Containers ids are short opaque strings. */
export function mcId(): string {
  return randomBytes(8).toString("base64url").replace(/[-_]/g, "x").slice(0, 10);
}
