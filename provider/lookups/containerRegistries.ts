import * as pulumi from "@pulumi/pulumi";
import { type LookupOptions, type LookupOutputArgs, lookupClient, runLookup } from "./client";

/**
 * Which registry `getContainerRegistry` finds, like Terraform's `bunnynet_compute_container_imageregistry` data
 * source (BunnyWay/terraform-provider-bunnynet internal/api/compute_container_imageregistry.go,
 * FindComputeContainerImageregistry): a registry by its name and user name, or without a user name the public one
 * ("DockerHub Public", "GitHub Public").
 */
export interface GetContainerRegistryArgs {
  type: "DockerHub" | "GitHub";
  /** The user name of the credentials; omit it for the public registry every account has. */
  username?: string;
}

export interface GetContainerRegistryResult {
  /** The id a container names as its image registry. */
  registryId: number;
  type: "DockerHub" | "GitHub";
  /** The registry's host (ContainerRegistry.hostName). */
  url: string;
  username: string | undefined;
  /** Whether it is a public registry of the platform (no credentials). */
  isPublic: boolean;
}

const TYPES = ["DockerHub", "GitHub"];

/** An image registry of Magic Containers (`GET /mc/registries`); fails naming what was not found. */
export async function getContainerRegistry(args: GetContainerRegistryArgs, options: LookupOptions = {}): Promise<GetContainerRegistryResult> {
  if (!TYPES.includes(args?.type)) throw new Error(`getContainerRegistry: type must be one of ${TYPES.join(", ")}, got ${JSON.stringify(args?.type)}`);
  if (args.username !== undefined && (typeof args.username !== "string" || args.username === "")) throw new Error("getContainerRegistry: username must not be empty (omit it for the public registry)");
  return runLookup("getContainerRegistry", args, options, fetchContainerRegistry);
}

/** `getContainerRegistry` calling the API, with arguments already checked. */
async function fetchContainerRegistry(args: GetContainerRegistryArgs, options: LookupOptions): Promise<GetContainerRegistryResult> {
  const displayName = args.username === undefined ? `${args.type} Public` : args.type;
  const found = (await lookupClient(options).containers.listRegistries()).find((r) => r.displayName === displayName && (r.userName ?? undefined) === args.username);
  if (!found) throw new Error(`getContainerRegistry: no ${args.type} registry ${args.username === undefined ? "(public)" : `for user ${JSON.stringify(args.username)}`} in this account`);
  return { registryId: found.id, type: args.type, url: found.hostName, username: found.userName ?? undefined, isPublic: found.isPublic ?? false };
}

/** The arguments of `getContainerRegistryOutput`, each of which may be an Output. */
export type GetContainerRegistryOutputArgs = LookupOutputArgs<GetContainerRegistryArgs>;

export function getContainerRegistryOutput(args: pulumi.Input<GetContainerRegistryOutputArgs>, options: LookupOptions = {}): pulumi.Output<GetContainerRegistryResult> {
  return pulumi.output(args).apply((a) => getContainerRegistry(a as GetContainerRegistryArgs, options));
}
