import type { AddApplicationRequest, Application, ContainerRequest, ContainerTemplate, ProbeAnswer } from "../schemas/containers";
import type { ContainerAppEndpointOutput } from "./containerApp";
import type { ContainerAppInputs, ContainerInputs, EndpointInputs, ProbeInputs } from "./containerAppInputs";

/**
 * ContainerApp's inputs (maps keyed by name) to the API's request (arrays), and the API's Application back to inputs,
 * without any call: pure, so unit-tested alone (tests/unit/pulumi/containerAppMapping.test.ts).
 *
 * - Arrays are sent sorted by name, and read back into maps by name: the order of the program, or of the API's
 *   answer, is never a difference (Terraform's CHANGELOG 0.11.0 sorts by hand for the same reason).
 * - A container keeps its id across updates: the request names the id the app has for that container name
 *   (ContainerRequest.id: "Presence of the id means it is an update of the existing").
 * - Reading back, a setting the program left unset is left unset whatever the API chose for it (an endpoint's
 *   exposed port, the pull zone the API made, a digest the registry resolved): only what the program states can
 *   drift. The rest is in the outputs.
 */

const byName = <T>(entries: Record<string, T> | undefined): [string, T][] => Object.entries(entries ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The tag sent when the program pins a digest only: ContainerRequest requires a tag, the digest decides the image. */
export const TAG_WITH_DIGEST_ONLY = "latest";

/** The request for the inputs; `containerIds` are the app's containers by name (an update), empty for a create. */
export function applicationRequest(inputs: ContainerAppInputs, containerIds: Record<string, string> = {}): AddApplicationRequest {
  return {
    name: inputs.name,
    runtimeType: inputs.runtimeType,
    autoScaling: { min: inputs.autoscaling.min, max: inputs.autoscaling.max },
    regionSettings: {
      allowedRegionIds: [...inputs.regions.allowed].sort(),
      requiredRegionIds: [...(inputs.regions.required ?? [])].sort(),
      maxAllowedRegions: inputs.regions.maxAllowed ?? null,
    },
    containerTemplates: byName(inputs.containers).map(([name, c]) => containerRequest(name, c, containerIds[name])),
    volumes: byName(inputs.volumes).map(([name, v]) => ({ name, size: v.sizeGb })),
  };
}

function containerRequest(name: string, c: ContainerInputs, id: string | undefined): ContainerRequest {
  return {
    ...(id ? { id } : {}),
    name,
    imageRegistryId: String(c.image.registryId),
    imageNamespace: c.image.namespace,
    imageName: c.image.name,
    imageTag: c.image.tag ?? TAG_WITH_DIGEST_ONLY,
    ...(c.image.digest ? { imageDigest: c.image.digest } : {}),
    imagePullPolicy: c.pullPolicy,
    entryPoint: { command: c.command ?? "", arguments: c.args ?? "", workingDirectory: c.workingDir ?? "" },
    probes: Object.fromEntries((["startup", "readiness", "liveness"] as const).flatMap((kind) => (c.probes?.[kind] ? [[kind, probeRequest(c.probes[kind])]] : []))),
    environmentVariables: byName({ ...c.env, ...c.secretEnv }).map(([envName, value]) => ({ name: envName, value })),
    endpoints: byName(c.endpoints).map(([endpointName, e]) => endpointRequest(endpointName, e)),
    volumeMounts: byName(c.volumeMounts).map(([volume, mountPath]) => ({ name: volume, mountPath })),
  };
}

function probeRequest(p: ProbeInputs): NonNullable<NonNullable<ContainerRequest["probes"]>["startup"]> {
  const timing = {
    initialDelaySeconds: p.initialDelaySeconds,
    periodSeconds: p.periodSeconds,
    timeoutSeconds: p.timeoutSeconds,
    failureThreshold: p.failureThreshold,
    successThreshold: p.successThreshold,
  };
  if (p.type === "http") {
    return { ...timing, httpGet: { request: { path: p.path ?? "/", portNumber: p.port }, ...(p.expectedStatus !== undefined ? { response: { expectedStatusCode: p.expectedStatus } } : {}) } };
  }
  if (p.type === "grpc") return { ...timing, grpc: { request: { portNumber: p.port, ...(p.service !== undefined ? { serviceName: p.service } : {}) } } };
  return { ...timing, tcpSocket: { request: { portNumber: p.port } } };
}

function endpointRequest(name: string, e: EndpointInputs): NonNullable<ContainerRequest["endpoints"]>[number] {
  const portMappings = e.ports.map((p) => ({ containerPort: p.container, ...(p.exposed !== undefined ? { exposedPort: p.exposed } : {}), ...(p.protocols ? { protocols: p.protocols } : {}) }));
  if (e.type === "anycast") return { displayName: name, anycast: { type: "iPv4", portMappings } };
  const headers = e.cdn?.stickySessionHeaders;
  return {
    displayName: name,
    cdn: {
      isSslEnabled: e.cdn?.originSsl ?? false,
      ...(e.cdn?.pullZoneId !== undefined ? { pullZoneId: e.cdn.pullZoneId } : {}),
      ...(headers ? { stickySessions: { enabled: true, sessionHeaders: headers } } : {}),
      portMappings,
    },
  };
}

/** What ContainerApp stores beyond its inputs: the ids, hosts and pull zones the API gave. */
export interface AppOutputs {
  appId: string;
  /** ApplicationStatus as last read (`active` once deployed). */
  status: string;
  /** Each container's id, by container name. */
  containerIds: Record<string, string>;
  /** Each endpoint, by endpoint name (unique in the app). */
  endpoints: Record<string, ContainerAppEndpointOutput>;
}

const unsetWhenEmpty = <T extends object>(value: T, requested: unknown): T | undefined => (requested === undefined && Object.keys(value).length === 0 ? undefined : value);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

/** The inputs as the app is (refresh, adoption), with the requested settings that the API does not hold. */
export function observedInputs(app: Application, requested: ContainerAppInputs): ContainerAppInputs {
  const regions = app.regionSettings;
  const wanted = requested.regions;
  return {
    ...requested,
    name: app.name,
    runtimeType: app.runtimeType.toLowerCase() === "reserved" ? "reserved" : "shared",
    autoscaling: app.autoScaling ? { min: app.autoScaling.min, max: app.autoScaling.max } : requested.autoscaling,
    regions: {
      // Sets: kept in the program's order while they hold the same regions.
      allowed: wanted && sameSet(wanted.allowed, regions.allowedRegionIds) ? wanted.allowed : regions.allowedRegionIds,
      required: wanted?.required && sameSet(wanted.required, regions.requiredRegionIds) ? wanted.required : unsetWhenEmpty(regions.requiredRegionIds, wanted?.required),
      maxAllowed: regions.maxAllowedRegions ?? undefined,
    },
    containers: Object.fromEntries(app.containerTemplates.map((t) => [t.name, observedContainer(t, requested.containers?.[t.name])])),
    volumes: unsetWhenEmpty(Object.fromEntries(app.volumes.map((v) => [v.name, { sizeGb: v.size }])), requested.volumes),
  };
}

function observedContainer(t: ContainerTemplate, wanted: ContainerInputs | undefined): ContainerInputs {
  const entry = t.entryPoint ?? {};
  const tag = wanted && wanted.image.tag === undefined && t.imageTag === TAG_WITH_DIGEST_ONLY ? undefined : t.imageTag;
  return {
    image: {
      registryId: Number(t.imageRegistryId),
      namespace: t.imageNamespace,
      name: t.imageName,
      ...(tag !== undefined ? { tag } : {}),
      // The registry resolves a tag to a digest: drift only where the program pins one.
      ...(wanted?.image.digest !== undefined && t.imageDigest ? { digest: t.imageDigest } : {}),
    },
    pullPolicy: t.imagePullPolicy?.toLowerCase() === "always" ? "always" : "ifNotPresent",
    // A variable is in secretEnv when the program put it there; any other (one added outside too) is in env.
    env: unsetWhenEmpty(Object.fromEntries(t.environmentVariables.filter((v) => !(v.name in (wanted?.secretEnv ?? {}))).map((v) => [v.name, v.value ?? ""])), wanted?.env),
    secretEnv: unsetWhenEmpty(Object.fromEntries(t.environmentVariables.filter((v) => v.name in (wanted?.secretEnv ?? {})).map((v) => [v.name, v.value ?? ""])), wanted?.secretEnv),
    command: entry.command || undefined,
    args: entry.arguments || undefined,
    workingDir: entry.workingDirectory || undefined,
    probes: observedProbes(t.probes ?? {}, wanted?.probes),
    volumeMounts: unsetWhenEmpty(Object.fromEntries(t.volumeMounts.map((m) => [m.name, m.mountPath])), wanted?.volumeMounts),
    endpoints: unsetWhenEmpty(Object.fromEntries(t.endpoints.map((e) => [e.displayName ?? e.id, observedEndpoint(e, wanted?.endpoints?.[e.displayName ?? e.id])])), wanted?.endpoints),
  };
}

type ProbeKind = "startup" | "readiness" | "liveness";
function observedProbes(probes: Partial<Record<ProbeKind, ProbeAnswer | null>>, wanted: ContainerInputs["probes"]): ContainerInputs["probes"] {
  const out: Partial<Record<ProbeKind, ProbeInputs>> = {};
  for (const kind of ["startup", "readiness", "liveness"] as const) {
    const p = probes[kind];
    const probe = p ? observedProbe(p, wanted?.[kind]) : undefined;
    if (probe) out[kind] = probe;
  }
  return unsetWhenEmpty(out, wanted);
}

function observedProbe(p: ProbeAnswer, wanted: ProbeInputs | undefined): ProbeInputs | undefined {
  const timing = {
    initialDelaySeconds: p.initialDelaySeconds ?? 10,
    periodSeconds: p.periodSeconds ?? 10,
    timeoutSeconds: p.timeoutSeconds ?? 7,
    failureThreshold: p.failureThreshold ?? 3,
    successThreshold: p.successThreshold ?? 1,
  };
  if (p.httpGet?.request) {
    const expected = Number(p.httpGet.response?.expectedStatusCode);
    const path = p.httpGet.request.path ?? "/";
    return {
      type: "http",
      port: p.httpGet.request.portNumber,
      // `/` is what an unset path sends.
      ...(path !== "/" || wanted?.path !== undefined ? { path } : {}),
      ...(Number.isInteger(expected) && expected > 0 ? { expectedStatus: expected } : {}),
      ...timing,
    };
  }
  if (p.grpc?.request) return { type: "grpc", port: p.grpc.request.portNumber, ...(p.grpc.request.serviceName ? { service: p.grpc.request.serviceName } : {}), ...timing };
  if (p.tcpSocket?.request) return { type: "tcp", port: p.tcpSocket.request.portNumber, ...timing };
  return undefined;
}

function observedEndpoint(e: ContainerTemplate["endpoints"][number], wanted: EndpointInputs | undefined): EndpointInputs {
  const type = e.type.toLowerCase() === "anycast" ? "anycast" : "cdn";
  const ports = e.portMappings.map((m, i) => {
    const asked = wanted?.ports[i];
    const protocols = m.protocols.length > 0 ? m.protocols.map((p) => p.toLowerCase() as "tcp" | "udp" | "sctp") : undefined;
    return {
      container: m.containerPort,
      ...(asked?.exposed !== undefined ? { exposed: m.exposedPort } : {}),
      ...(asked?.protocols !== undefined || (protocols && protocols.join() !== "tcp") ? { protocols } : {}),
    };
  });
  if (type === "anycast") return { type, ports };
  const sticky = e.stickySessions?.enabled ? (e.stickySessions.sessionHeaders ?? undefined) : undefined;
  const pullZoneId = wanted?.cdn?.pullZoneId !== undefined && e.pullZoneId ? Number(e.pullZoneId) : undefined;
  const cdn = { originSsl: e.isSslEnabled ?? false, ...(pullZoneId !== undefined ? { pullZoneId } : {}), ...(sticky && sticky.length > 0 ? { stickySessionHeaders: sticky } : {}) };
  // The cdn settings at their defaults are the same as none.
  const unset = wanted?.cdn === undefined && !cdn.originSsl && Object.keys(cdn).length === 1;
  return { type, ports, ...(unset ? {} : { cdn }) };
}

/** The outputs: ids by name, and each endpoint's host and pull zone. */
export function appOutputs(app: Application): AppOutputs {
  const endpoints: AppOutputs["endpoints"] = {};
  for (const t of app.containerTemplates) {
    for (const e of t.endpoints) {
      const pullZoneId = Number(e.pullZoneId);
      endpoints[e.displayName ?? e.id] = { id: e.id, container: t.name, type: e.type.toLowerCase(), publicHost: e.publicHost ?? undefined, pullZoneId: pullZoneId > 0 ? pullZoneId : undefined };
    }
  }
  return { appId: app.id, status: app.status, containerIds: Object.fromEntries(app.containerTemplates.map((t) => [t.name, t.id])), endpoints };
}

/** The volumes the old inputs have and the new ones drop (their data goes with them). */
export function removedVolumes(oldVolumes: unknown, newVolumes: unknown): string[] {
  const names = (v: unknown) => (v !== null && typeof v === "object" ? Object.keys(v) : []);
  const kept = new Set(names(newVolumes));
  return names(oldVolumes).filter((n) => !kept.has(n));
}

/** Endpoint names must be unique in the app (the API's endpoint list is by app): the first name used twice, with its containers. */
export function repeatedEndpoint(containers: Record<string, { endpoints?: Record<string, unknown> }>): { endpoint: string; containers: [string, string] } | undefined {
  const seen = new Map<string, string>();
  for (const [container, c] of byName(containers)) {
    for (const endpoint of Object.keys(c.endpoints ?? {})) {
      const first = seen.get(endpoint);
      if (first !== undefined) return { endpoint, containers: [first, container] };
      seen.set(endpoint, container);
    }
  }
  return undefined;
}
