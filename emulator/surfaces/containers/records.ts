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
