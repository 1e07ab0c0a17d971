import { z } from "zod";
import { adoptionInputs } from "../pulumi";
import { idFromString } from "../schemas/common";

/**
 * ContainerApp's inputs as check judges them (magic-containers-api-v1.0.0.json: AddApplicationRequest,
 * ContainerRequest, EndpointRequest, CdnEndpointRequest, AnycastEndpointRequest, ContainerPortMappingRequest,
 * ContainerProbe, VolumeRequest, VolumeMountRequest, AutoscalingSettings). Containers, their endpoints, environment
 * and volume mounts, and the volumes are maps keyed by name: the API takes arrays, and containerAppMapping.ts turns
 * one into the other, sorted by name, both ways.
 */

/** The document's patterns for an image's name, namespace and tag (anchored: a whole value, not a part of one). */
const imagePart = (separators: string, what: string) =>
  z.string().regex(new RegExp(`^[a-zA-Z0-9]+(?:[${separators}]{1,2}[a-zA-Z0-9]+)*$`), `is not a valid image ${what}: letters and digits, with ${separators.split("").join(" ")} between them`);

const port = z.number().int().min(1, "must be 1..65535").max(65535, "must be 1..65535");
/** The API's names: an app's may hold letters, digits, hyphens and spaces (AddApplicationRequest.name). */
const appName = z.string().min(1, "must not be empty").max(100).regex(/^[A-Za-z0-9-\s]+$/, "may hold letters, digits, hyphens and spaces only");
/** A container's, endpoint's or volume's name (ContainerRequest.name, EndpointRequest.displayName, VolumeRequest.name: 1..50). */
const itemName = z.string().min(1, "must not be empty").max(50, "must be at most 50 characters");

const imageSchema = z
  .object({
    /** The registry's id (a ContainerRegistry's registryId, or a public registry's from getContainerRegistry). */
    registryId: idFromString,
    namespace: imagePart("./_-", "namespace"),
    name: imagePart("./_-", "name"),
    tag: imagePart("._-", "tag").optional(),
    digest: z.string().regex(/^sha256:[a-z0-9]{64}$/, "must be sha256: and 64 lowercase hexadecimal digits").optional(),
  })
  .strict()
  .refine((i) => i.tag !== undefined || i.digest !== undefined, { message: "set a tag or a digest", path: ["tag"] });

const seconds = (max: number, fallback: number) => z.number().int().min(1).max(max).default(fallback);
/** ContainerProbe, as one kind (http, tcp or grpc) with the document's defaults. */
const probeSchema = z
  .object({
    type: z.enum(["http", "tcp", "grpc"]),
    port,
    /** An HTTP probe's path (default `/`). */
    path: z.string().startsWith("/", "must start with /").optional(),
    /** The HTTP status an HTTP probe expects (default: any success). */
    expectedStatus: z.number().int().min(100).max(599).optional(),
    /** A gRPC probe's service name. */
    service: z.string().min(1).optional(),
    initialDelaySeconds: seconds(3600, 10),
    periodSeconds: seconds(3600, 10),
    timeoutSeconds: seconds(3600, 7),
    failureThreshold: z.number().int().min(1).max(1000).default(3),
    successThreshold: z.number().int().min(1).max(1000).default(1),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.type !== "http" && p.path !== undefined) ctx.addIssue({ code: "custom", message: "only an http probe has a path", path: ["path"] });
    if (p.type !== "http" && p.expectedStatus !== undefined) ctx.addIssue({ code: "custom", message: "only an http probe expects a status", path: ["expectedStatus"] });
    if (p.type !== "grpc" && p.service !== undefined) ctx.addIssue({ code: "custom", message: "only a grpc probe names a service", path: ["service"] });
  });

const portMappingSchema = z
  .object({
    /** The port the container listens on. */
    container: port,
    /** The port exposed (an anycast endpoint's; the API chooses when unset). */
    exposed: port.optional(),
    protocols: z.array(z.enum(["tcp", "udp", "sctp"])).min(1).optional(),
  })
  .strict();

const endpointSchema = z
  .object({
    // Terraform's spelling (`CDN`, `Anycast`) is read too, and stored in the API's (EndpointType).
    type: z.enum(["cdn", "anycast", "CDN", "Anycast"]).transform((t) => t.toLowerCase() as "cdn" | "anycast"),
    ports: z.array(portMappingSchema).min(1, "must name at least one port"),
    cdn: z
      .object({
        /** A pull zone the program declares, to front the endpoint with instead of one the API makes (Terraform #53). */
        pullZoneId: idFromString.optional(),
        /** Whether the pull zone reaches the container over HTTPS (Terraform's `origin_ssl`). */
        originSsl: z.boolean().default(false),
        /** Headers whose values keep a client on one instance (sticky sessions: 1..3 headers). */
        stickySessionHeaders: z.array(z.string().min(1)).min(1).max(3).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.type !== "cdn" && e.cdn !== undefined) ctx.addIssue({ code: "custom", message: "only a cdn endpoint has cdn settings", path: ["cdn"] });
    if (e.type === "cdn" && e.ports.length > 1) ctx.addIssue({ code: "custom", message: "a cdn endpoint has one port (CdnEndpointRequest.portMappings)", path: ["ports"] });
    if (e.type === "cdn" && e.ports.some((p) => p.protocols !== undefined && p.protocols.join() !== "tcp")) ctx.addIssue({ code: "custom", message: "a cdn endpoint is TCP only", path: ["ports"] });
  });

const envName = z.string().min(1, "must not be empty").regex(/^[^=\s]+$/, "must not hold = or spaces");

const containerSchema = z
  .object({
    image: imageSchema,
    /** When the image is pulled: `ifNotPresent` (the API's default) or `always`. */
    pullPolicy: z.enum(["always", "ifNotPresent"]).default("ifNotPresent"),
    /** Environment variables by name: a value is a secret when the program gives it as one. */
    env: z.record(envName, z.string()).optional(),
    /** Environment variables by name whose values are always secrets (the resource marks them: containerApp.ts). */
    secretEnv: z.record(envName, z.string()).optional(),
    /** The entry point's command line, replacing the image's. */
    command: z.string().min(1).optional(),
    /** The entry point's arguments. */
    args: z.string().min(1).optional(),
    workingDir: z.string().min(1).optional(),
    probes: z.object({ startup: probeSchema.optional(), readiness: probeSchema.optional(), liveness: probeSchema.optional() }).strict().optional(),
    /** Volumes of the app mounted in this container: volume name → absolute path. */
    volumeMounts: z.record(itemName, z.string().regex(/^\/(?!.*\/\/)(?!.*\.\.)(?!.*\s)([a-zA-Z0-9._-]+\/?)+$/, "must be an absolute path without .., // or spaces")).optional(),
    endpoints: z.record(itemName, endpointSchema).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    // The API has one list of variables: a name in both maps would be sent twice.
    for (const name of Object.keys(c.secretEnv ?? {})) {
      if (c.env && name in c.env) ctx.addIssue({ code: "custom", message: `${name} is in env too: give each variable once`, path: ["secretEnv", name] });
    }
  });

/** How long `up` waits for a deployment to run when the program does not say (seconds). */
export const DEFAULT_DEPLOY_TIMEOUT_SECONDS = 900;

export const containerAppInputs = z
  .object({
    name: appName,
    regions: z
      .object({
        allowed: z.array(z.string().min(1)).min(1, "must name at least one region"),
        required: z.array(z.string().min(1)).optional(),
        maxAllowed: z.number().int().min(1).optional(),
      })
      .strict(),
    autoscaling: z
      .object({ min: z.number().int().min(1).max(1000), max: z.number().int().min(1).max(1000) })
      .strict()
      .refine((a) => a.max >= a.min, { message: "must not be less than min", path: ["max"] }),
    /** `shared` (the default) or `reserved` capacity (ApplicationRuntimeType). */
    runtimeType: z.enum(["shared", "reserved"]).default("shared"),
    containers: z.record(itemName, containerSchema).refine((c) => Object.keys(c).length > 0, { message: "must hold at least one container" }),
    volumes: z.record(itemName, z.object({ sizeGb: z.number().int().min(1, "must be 1..100").max(100, "must be 1..100") }).strict()).optional(),
    /** Removing a volume deletes its data: only with this set. */
    allowVolumeDeletion: z.boolean().default(false),
    deployTimeoutSeconds: z.number().int().min(1).max(86_400).default(DEFAULT_DEPLOY_TIMEOUT_SECONDS),
    ...adoptionInputs,
  })
  .strict();

export type ContainerAppInputs = z.output<typeof containerAppInputs>;
export type ContainerInputs = ContainerAppInputs["containers"][string];
export type EndpointInputs = NonNullable<ContainerInputs["endpoints"]>[string];
export type ProbeInputs = z.output<typeof probeSchema>;
