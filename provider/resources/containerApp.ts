import { setTimeout as sleep } from "node:timers/promises";
import * as pulumi from "@pulumi/pulumi";
import type { Application } from "../schemas/containers";
import { BunnyResource } from "../pulumi/base";
import { logProgress } from "../pulumi/progress";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { type CheckFailure, type ResourceContext, UNKNOWN, argsMatchSchema, defineResource } from "../pulumi";
import { type ContainerAppInputs, containerAppInputs } from "./containerAppInputs";
import { appOutputs, applicationRequest, observedInputs, removedVolumes, repeatedEndpoint } from "./containerAppMapping";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * A Magic Containers application (`/mc/apps`): its containers with their images, environment, probes, volume mounts
 * and endpoints, its volumes, regions and scaling. Like the Terraform provider's `bunnynet_compute_container_app`
 * (terraform-attributes-v0.15.1.txt; BunnyWay/terraform-provider-bunnynet internal/api/compute_container_app.go: a
 * create is POST /mc/apps, an update PUT /mc/apps/{id} with the whole app, both read back with GET), against
 * magic-containers-api-v1.0.0.json (AddApplicationRequest, Application, ApplicationStatus).
 *
 * Where it departs from Terraform, on purpose (issue 27):
 * - containers, endpoints, environment variables, volume mounts and volumes are maps keyed by name, sent sorted and
 *   read back by name (containerAppMapping.ts): their order never shows as a change (Terraform 0.11.0 made users sort);
 * - an environment value is a secret in the state and in diffs when the program gives it as one (`pulumi.secret`,
 *   `config.requireSecret`), and only then: `LOG_LEVEL: "info"` stays readable (issue 37). The engine keeps secrets
 *   inside objects at their own depth (pulumi/pulumi pkg/resource/plugin/provider_plugin.go, annotateSecrets: "we
 *   actually recur in"), so the rest of a container stays readable in a diff; `secretEnv` values are always secrets:
 *   the constructor wraps each in `pulumi.secret` (withSecretEnv), so the engine keeps them so at their depth;
 * - `up` waits until a deployment runs (ApplicationStatus `active`) after a create and after every update, polling
 *   with a bounded backoff within `deployTimeoutSeconds`; `failing` or `suspended`, or the time running out, fails
 *   with the app's name and last status. A create that does not deploy deletes the app again, so a retry starts clean;
 * - a CDN endpoint can front a pull zone the program declares (`cdn.pullZoneId`, CdnEndpointRequest.pullZoneId)
 *   instead of one the API makes that no resource manages (Terraform #53); without it the API's zone is an output;
 * - removing a volume deletes its data: refused (by check, before any call, naming the volume) without
 *   `allowVolumeDeletion: true`. Whether a volume holds data cannot be known without a call, so every volume counts;
 * - adoption by name (`GET /mc/apps`): the API lets two apps share a name, and a name two apps share is refused; an
 *   app keeps nothing that shows which stack made it, so one found is never taken without `adoptExisting` (or the
 *   command the refusal prints: pulumi/ownership.ts).
 */

export const CONTAINER_APP_TYPE = "ContainerApp";

/** Polling of the deployment status: from the first delay, growing, up to the largest. */
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 5000;
const FAILED_STATUSES = new Set(["failing", "suspended"]);

/** The rules across properties that the schema cannot state (no API call). */
async function completeInputs(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const failures: CheckFailure[] = [];
  if (unknown.has("containers")) return { inputs, failures };
  const containers = inputs.containers as ContainerAppInputs["containers"];
  const repeated = repeatedEndpoint(containers);
  if (repeated) failures.push({ property: `containers.${repeated.containers[1]}.endpoints.${repeated.endpoint}`, reason: `is also an endpoint of container ${repeated.containers[0]}: endpoint names are unique in an app` });
  if (!unknown.has("volumes")) {
    const volumes = new Set(Object.keys((inputs.volumes as Record<string, unknown> | undefined) ?? {}));
    for (const [name, c] of Object.entries(containers)) {
      for (const volume of Object.keys(c.volumeMounts ?? {})) {
        if (!volumes.has(volume)) failures.push({ property: `containers.${name}.volumeMounts.${volume}`, reason: `is not a volume of the app (volumes: ${[...volumes].join(", ") || "none"})` });
      }
    }
  }
  return { inputs, failures };
}

/** A volume the new inputs drop, unless they allow it: the failure names the volume. */
function volumeDeletionRefused(olds: Record<string, unknown>, news: Record<string, unknown>): CheckFailure[] {
  if (news.allowVolumeDeletion === true || news.allowVolumeDeletion === UNKNOWN || news.volumes === UNKNOWN) return [];
  return removedVolumes(olds.volumes, news.volumes).map((volume) => ({
    property: "volumes",
    reason: `removing volume ${volume} deletes the data on it: set allowVolumeDeletion: true to delete it`,
  }));
}

/** ApplicationStatus as one word for a message. */
const statusText = (status: string | undefined) => status ?? "unknown";

/** A deployment that failed or outlasted its time (not a failed call: the app's state is then known). */
class DeploymentError extends Error {}

/**
 * Waits until the app's deployment runs; throws naming the app and its last status when it fails or the time is up.
 * A line in the engine's log at each new status (logProgress: a dynamic provider's stdout is shown as info).
 */
async function untilRunning({ client }: ResourceContext, appId: string, inputs: ContainerAppInputs): Promise<Application> {
  const deadline = Date.now() + inputs.deployTimeoutSeconds * 1000;
  let delay = POLL_FIRST_MS;
  let last: string | undefined;
  for (;;) {
    const app = await client.containers.getApp(appId);
    if (app.status !== last) logProgress(`container app "${inputs.name}": ${app.status}`);
    last = app.status;
    if (app.status === "active") return app;
    if (FAILED_STATUSES.has(app.status)) throw new DeploymentError(`container app "${inputs.name}" (${appId}) did not deploy: its status is ${app.status}`);
    if (Date.now() + delay > deadline) {
      throw new DeploymentError(`container app "${inputs.name}" (${appId}) was not running within deployTimeoutSeconds (${inputs.deployTimeoutSeconds} s; last status ${statusText(last)}): raise deployTimeoutSeconds`);
    }
    await sleep(delay);
    delay = Math.min(POLL_MAX_MS, Math.round(delay * 1.5));
  }
}

const containerApp = defineResource<ContainerAppOutputs>()({
  type: CONTAINER_APP_TYPE,
  inputs: containerAppInputs,
  complete: completeInputs,
  checkChange: volumeDeletionRefused,
  computedOutputs: ["appId", "status", "containerIds", "endpoints"],
  idOutput: { name: "appId", numeric: false },
  replaceOnChanges: [],
  identity: ["name"],

  importId: ownIdOnly("appId", false),
  describe(app: Application, requested: ContainerAppInputs) {
    return { id: app.id, inputs: observedInputs(app, requested), outputs: appOutputs(app) };
  },

  // Names are not unique in the API (the emulator takes a second app of one name, as nothing documents a refusal): of
  // several apps with the name, none is taken, rather than the first listed.
  find: async ({ client }, inputs) => {
    const named: string[] = [];
    for await (const item of client.containers.listApps({ limit: 1000 })) if (item.name === inputs.name) named.push(item.id);
    if (named.length > 1) {
      throw new Error(`${named.length} container apps are named ${JSON.stringify(inputs.name)} (ids ${named.join(", ")}): which one this resource is cannot be told. Delete or rename all but one, or give the app another name.`);
    }
    return named.length === 1 ? client.containers.getApp(named[0]) : undefined;
  },

  async create(ctx, inputs) {
    const appId = await ctx.client.containers.addApp(applicationRequest(inputs));
    try {
      return await untilRunning(ctx, appId, inputs);
    } catch (e) {
      // A failed poll leaves the app to the look-up by name of the next `up`; a failed deployment is undone.
      if (!(e instanceof DeploymentError)) throw e;
      await ctx.client.containers.deleteApp(appId).catch(() => undefined);
      throw new Error(`${e.message}; the new app was deleted again`, { cause: e });
    }
  },

  // An app taken over (adopted, or taken back after an interrupted `up`) may still be deploying: wait as a create does.
  whenFound: (ctx, app, inputs) => untilRunning(ctx, app.id, inputs),

  get: ({ client }, id) => client.containers.getApp(id),

  async update(ctx, id, state, inputs) {
    const refused = volumeDeletionRefused(state, inputs);
    if (refused.length > 0) throw new Error(`container app "${inputs.name}": ${refused.map((f) => f.reason).join("; ")}`);
    const current = await ctx.client.containers.getApp(id);
    const ids = Object.fromEntries(current.containerTemplates.map((t) => [t.name, t.id]));
    await ctx.client.containers.updateApp(id, applicationRequest(inputs, ids));
    return untilRunning(ctx, id, inputs);
  },

  delete: ({ client }, id) => client.containers.deleteApp(id),
});

type Input<T> = pulumi.Input<T>;

/** A container image: registry, namespace, name, and a tag or a digest (or both: the digest decides). */
export interface ContainerAppImageArgs {
  /** The registry's id: a ContainerRegistry's `registryId`, or a public registry's (`getContainerRegistry`). */
  registryId: Input<NumericId>;
  /** The image's namespace (`library` for Docker Hub's official images). */
  namespace: Input<string>;
  name: Input<string>;
  /** A new tag is an in-place update that waits until the new version runs. */
  tag?: Input<string>;
  /** `sha256:` and 64 hexadecimal digits; pins the image. */
  digest?: Input<string>;
}

/** A probe of a container: an HTTP GET, a TCP connect or a gRPC health check, with the document's timing defaults. */
export interface ContainerAppProbeArgs {
  type: Input<"http" | "tcp" | "grpc">;
  port: Input<number>;
  /** An http probe's path (default `/`). */
  path?: Input<string>;
  /** The status an http probe expects. */
  expectedStatus?: Input<number>;
  /** A grpc probe's service. */
  service?: Input<string>;
  /** Default 10. */
  initialDelaySeconds?: Input<number>;
  /** Default 10. */
  periodSeconds?: Input<number>;
  /** Default 7. */
  timeoutSeconds?: Input<number>;
  /** Default 3. */
  failureThreshold?: Input<number>;
  /** Default 1. */
  successThreshold?: Input<number>;
}

/** A port of an endpoint. */
export interface ContainerAppPortArgs {
  /** The port the container listens on. */
  container: Input<number>;
  /** The port exposed (an anycast endpoint's; the API chooses when unset). */
  exposed?: Input<number>;
  /** Default `["tcp"]`; a cdn endpoint is TCP only. */
  protocols?: Input<Input<"tcp" | "udp" | "sctp">[]>;
}

/** An endpoint of a container: through the CDN (one port), or an Anycast IP. */
export interface ContainerAppEndpointArgs {
  /** `cdn` or `anycast` (Terraform's `CDN` and `Anycast` are read too). */
  type: Input<"cdn" | "anycast" | "CDN" | "Anycast">;
  ports: Input<Input<ContainerAppPortArgs>[]>;
  cdn?: Input<{
    /** A PullZone the program declares, to front the endpoint (else the API makes one: see the `endpoints` output). */
    pullZoneId?: Input<NumericId>;
    /** Whether the pull zone reaches the container over HTTPS (default false). */
    originSsl?: Input<boolean>;
    /** 1..3 headers whose values keep a client on one instance. */
    stickySessionHeaders?: Input<Input<string>[]>;
  }>;
}

/** A container of the app, keyed by its name in `containers`. */
export interface ContainerAppContainerArgs {
  image: Input<ContainerAppImageArgs>;
  /** `ifNotPresent` (default) or `always`. */
  pullPolicy?: Input<"always" | "ifNotPresent">;
  /**
   * Environment variables by name. A value is stored as a secret when it is one (`config.requireSecret("apiToken")`,
   * `pulumi.secret(...)`); a plain value (`LOG_LEVEL: "info"`) stays readable in the state and in diffs.
   */
  env?: Input<Record<string, Input<string>>>;
  /**
   * Environment variables by name whose values are always secrets, however the program gives them: encrypted in the
   * state, `[secret]` in diffs. A name is in `env` or here, not both (checked at preview).
   */
  secretEnv?: Input<Record<string, Input<string>>>;
  /** The command line, replacing the image's entry point. */
  command?: Input<string>;
  /** The arguments. */
  args?: Input<string>;
  workingDir?: Input<string>;
  probes?: Input<{ startup?: Input<ContainerAppProbeArgs>; readiness?: Input<ContainerAppProbeArgs>; liveness?: Input<ContainerAppProbeArgs> }>;
  /** Volumes of the app to mount: volume name → absolute path. */
  volumeMounts?: Input<Record<string, Input<string>>>;
  /** Endpoints by name (unique in the app). */
  endpoints?: Input<Record<string, Input<ContainerAppEndpointArgs>>>;
}

export interface ContainerAppArgs extends AdoptableArgs {
  /** The app's name: letters, digits, hyphens and spaces (identifies it for adoptExisting). Changes in place. */
  name: Input<string>;
  /** Region ids (see `getRegions`): where it may run, where it must, and at most how many at once. */
  regions: Input<{ allowed: Input<Input<string>[]>; required?: Input<Input<string>[]>; maxAllowed?: Input<number> }>;
  /** Instances per region: 1..1000, max not below min. */
  autoscaling: Input<{ min: Input<number>; max: Input<number> }>;
  /** `shared` (default) or `reserved`. */
  runtimeType?: Input<"shared" | "reserved">;
  /** Containers by name (at least one). */
  containers: Input<Record<string, Input<ContainerAppContainerArgs>>>;
  /** Volumes by name, 1..100 GB per instance. */
  volumes?: Input<Record<string, Input<{ sizeGb: Input<number> }>>>;
  /** Removing a volume deletes its data: refused unless this is true. */
  allowVolumeDeletion?: Input<boolean>;
  /** How long `up` waits for a deployment to run (seconds, default 900). */
  deployTimeoutSeconds?: Input<number>;
}

argsMatchSchema<ContainerAppArgs, typeof containerAppInputs>(true);

/** A container as stored. */
export interface ContainerAppContainer {
  image: { registryId: number; namespace: string; name: string; tag?: string; digest?: string };
  pullPolicy: "always" | "ifNotPresent";
  env?: Record<string, string>;
  secretEnv?: Record<string, string>;
  command?: string;
  args?: string;
  workingDir?: string;
  probes?: { startup?: ContainerAppProbe; readiness?: ContainerAppProbe; liveness?: ContainerAppProbe };
  volumeMounts?: Record<string, string>;
  endpoints?: Record<string, ContainerAppEndpoint>;
}

/** A probe as stored (the timing defaults filled in). */
export interface ContainerAppProbe {
  type: "http" | "tcp" | "grpc";
  port: number;
  path?: string;
  expectedStatus?: number;
  service?: string;
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
  successThreshold: number;
}

/** An endpoint as stored. */
export interface ContainerAppEndpoint {
  type: "cdn" | "anycast";
  ports: { container: number; exposed?: number; protocols?: ("tcp" | "udp" | "sctp")[] }[];
  cdn?: { pullZoneId?: number; originSsl: boolean; stickySessionHeaders?: string[] };
}

/** What a ContainerApp holds once deployed. */
export interface ContainerAppOutputs {
  name: string;
  regions: { allowed: string[]; required?: string[]; maxAllowed?: number };
  autoscaling: { min: number; max: number };
  runtimeType: "shared" | "reserved";
  containers: Record<string, ContainerAppContainer>;
  volumes: Record<string, { sizeGb: number }> | undefined;
  allowVolumeDeletion: boolean;
  deployTimeoutSeconds: number;
  adoptExisting: boolean;
  /** The app's id in the API. */
  appId: string;
  /** ApplicationStatus as last read: `active` once deployed. */
  status: string;
  /** Each container's id, by container name. */
  containerIds: Record<string, string>;
  /**
   * Each endpoint by name: its id, container, type, public host (`*.b-cdn.net` or `*.bunny.run`), and the pull zone
   * in front of a cdn endpoint (the declared one, or the one the API made).
   */
  endpoints: Record<string, ContainerAppEndpointOutput>;
}

/** An endpoint as the API made it. */
export interface ContainerAppEndpointOutput {
  id: string;
  /** The container it belongs to. */
  container: string;
  /** `cdn` or `anycast`. */
  type: string;
  /** `*.b-cdn.net` for a cdn endpoint, `*.bunny.run` for an anycast one. */
  publicHost: string | undefined;
  /** The pull zone in front of a cdn endpoint: the declared one, or the one the API made. */
  pullZoneId: number | undefined;
}

/** A value the program gave as it is (not an Output or a Promise, known only later). */
const isGiven = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !pulumi.Output.isInstance(v) && typeof (v as { then?: unknown }).then !== "function";

/**
 * The containers with each `secretEnv` value made a secret. Where a level is an Output or a Promise (not known while
 * the program builds its inputs), that level is made a secret whole: more is hidden, nothing is shown.
 */
function withSecretEnv(containers: ContainerAppArgs["containers"]): ContainerAppArgs["containers"] {
  if (!isGiven(containers)) return pulumi.secret(containers) as ContainerAppArgs["containers"];
  return Object.fromEntries(
    Object.entries(containers).map(([name, container]) => {
      if (!isGiven(container)) return [name, pulumi.secret(container)];
      const c = container as ContainerAppContainerArgs;
      if (c.secretEnv === undefined) return [name, c];
      const secretEnv = isGiven(c.secretEnv) ? Object.fromEntries(Object.entries(c.secretEnv).map(([key, value]) => [key, pulumi.secret(value as Input<string>)])) : pulumi.secret(c.secretEnv);
      return [name, { ...c, secretEnv }];
    }),
  ) as ContainerAppArgs["containers"];
}

export interface ContainerApp extends OutputProperties<ContainerAppOutputs> {}
/** A Magic Containers app: containers from registry images, with endpoints on the CDN or Anycast, and volumes. */
export class ContainerApp extends BunnyResource {
  constructor(name: string, args: ContainerAppArgs, opts?: pulumi.CustomResourceOptions) {
    super(containerApp, name, { ...args, containers: withSecretEnv(args.containers) }, opts);
  }
}

