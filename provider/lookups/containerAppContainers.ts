import * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../http/errors";
import type { ContainerTemplate } from "../types.generated";
import { type LookupOptions, type LookupOutputArgs, lookupClient, runLookup } from "./client";

/**
 * Which container `getContainerAppContainer` finds, like Terraform's `bunnynet_compute_container_app_container` data
 * source (BunnyWay/terraform-provider-bunnynet internal/provider/datasource_compute_container_app_container.go, Read:
 * the app's `containerTemplates` matched by name; it answers only the id). Here the image and the endpoints come
 * with it, and a name two containers share is refused rather than the last taken.
 */
export interface GetContainerAppContainerArgs {
  /** The Magic Containers app's id. */
  appId: string;
  /** The container's name in the app. */
  name: string;
}

/** A container's image, as its app names it. */
export interface AppContainerImage {
  /** The image registry's id (a `ContainerRegistry`'s `registryId`). */
  registryId: string;
  /** The image's namespace (its owner on the registry). */
  namespace: string;
  /** The image's name. */
  name: string;
  /** The image's tag. */
  tag: string;
  /** The digest the image is pinned to, if any. */
  digest: string | undefined;
}

/** An endpoint of the container. */
export interface AppContainerEndpoint {
  /** The endpoint's id (a pull zone's `origin.containerEndpointId`). */
  endpointId: string;
  /** The endpoint's name in the app. */
  name: string;
  /** `CDN`, `Anycast` or `PublicIp`, as the API answers it. */
  type: string;
  /** The endpoint's public host name, once it has one. */
  publicHost: string | undefined;
  /** The pull zone of a CDN endpoint. */
  pullZoneId: string | undefined;
  /** Its port mappings: the container's port, the port exposed, and the protocols. */
  ports: { container: number; exposed: number; protocols: string[] }[];
}

export interface GetContainerAppContainerResult {
  /** The app's id. */
  appId: string;
  /** The container's id (its template's id: stable across the app's updates). */
  containerId: string;
  /** The container's name. */
  name: string;
  /** The container's image. */
  image: AppContainerImage;
  /** The container's endpoints. */
  endpoints: AppContainerEndpoint[];
}

/** The arguments of `getContainerAppContainerOutput`, each of which may be an Output. */
export type GetContainerAppContainerOutputArgs = LookupOutputArgs<GetContainerAppContainerArgs>;

/** A container of a Magic Containers app by name (`GET /mc/apps/{appId}`); fails naming the app or the container not found. */
export function getContainerAppContainer(args: GetContainerAppContainerArgs, options: LookupOptions = {}): Promise<GetContainerAppContainerResult> {
  return runLookup("getContainerAppContainer", args, options, fetchContainer);
}

/** `getContainerAppContainer` calling the API. */
async function fetchContainer(args: GetContainerAppContainerArgs, options: LookupOptions): Promise<GetContainerAppContainerResult> {
  if (typeof args?.appId !== "string" || args.appId.trim() === "") throw new Error(`getContainerAppContainer: appId must be a non-empty string, got ${JSON.stringify(args?.appId)}`);
  if (typeof args.name !== "string" || args.name.trim() === "") throw new Error(`getContainerAppContainer: name must be a non-empty string, got ${JSON.stringify(args.name)}`);
  const app = await lookupClient(options)
    .containers.getApp(args.appId)
    .catch((e: unknown) => {
      if (e instanceof NotFoundError) throw new Error(`getContainerAppContainer: no container app with id ${JSON.stringify(args.appId)} in this account`);
      throw e;
    });
  const matches = app.containerTemplates.filter((c) => c.name === args.name);
  if (matches.length === 0) {
    const names = app.containerTemplates.map((c) => JSON.stringify(c.name)).join(", ") || "none";
    throw new Error(`getContainerAppContainer: app ${JSON.stringify(app.name)} has no container named ${JSON.stringify(args.name)} (its containers: ${names})`);
  }
  if (matches.length > 1) throw new Error(`getContainerAppContainer: app ${JSON.stringify(app.name)} has ${matches.length} containers named ${JSON.stringify(args.name)} (ids ${matches.map((c) => c.id).join(", ")})`);
  return resultOf(app.id, matches[0]);
}

function resultOf(appId: string, c: ContainerTemplate): GetContainerAppContainerResult {
  return {
    appId,
    containerId: c.id,
    name: c.name,
    image: { registryId: c.imageRegistryId, namespace: c.imageNamespace, name: c.imageName, tag: c.imageTag, digest: c.imageDigest || undefined },
    endpoints: c.endpoints.map((e) => ({
      endpointId: e.id,
      name: e.displayName ?? "",
      type: e.type,
      publicHost: e.publicHost || undefined,
      pullZoneId: e.pullZoneId || undefined,
      ports: e.portMappings.map((p) => ({ container: p.containerPort, exposed: p.exposedPort, protocols: p.protocols })),
    })),
  };
}

export function getContainerAppContainerOutput(args: pulumi.Input<GetContainerAppContainerOutputArgs>, options: LookupOptions = {}): pulumi.Output<GetContainerAppContainerResult> {
  return pulumi.output(args).apply((a) => getContainerAppContainer(a as GetContainerAppContainerArgs, options));
}
