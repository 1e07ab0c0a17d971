import type { EmulatorSurface } from "../context";
import { coreError } from "../errorShapes";

/** Pull zones (`GET /pullzone/{id}`) and their custom hostnames. */

export interface HostnameRecord {
  Id: number;
  Value: string;
  ForceSSL: boolean;
  IsSystemHostname: boolean;
  IsManagedHostname: boolean;
  HasCertificate: boolean;
  CertificateKeyType: number;
  CertificateProvisionType: number;
}

export interface PullZoneRecord {
  Id: number;
  Name: string;
  OriginUrl: string;
  Enabled: boolean;
  Suspended: boolean;
  EnableLogging: boolean;
  Hostnames: HostnameRecord[];
  [field: string]: unknown;
}

export function systemHostname(ctx: Parameters<EmulatorSurface["seed"]>[0], zoneName: string): HostnameRecord {
  return {
    Id: ctx.store.nextId("hostname", 7001),
    Value: `${zoneName}.b-cdn.net`,
    ForceSSL: false,
    IsSystemHostname: true,
    IsManagedHostname: true,
    HasCertificate: true,
    CertificateKeyType: 0,
    CertificateProvisionType: 0,
  };
}

/** Stores a new pull zone with the defaults of a fresh zone (logging on, a system hostname) and `fields` over them. */
export function createPullZone(ctx: Parameters<EmulatorSurface["seed"]>[0], name: string, fields: Partial<PullZoneRecord> = {}): PullZoneRecord {
  const zone: PullZoneRecord = {
    Id: ctx.store.nextId("pullzone", 1001),
    Name: name,
    OriginUrl: `https://origin.${name}.example`,
    Enabled: true,
    Suspended: false,
    EnableLogging: true,
    Type: 0,
    EnableOriginShield: false,
    LoggingIPAnonymizationEnabled: false,
    Hostnames: [systemHostname(ctx, name)],
    ...fields,
  };
  ctx.store.put("pullzone", zone.Id, zone);
  return zone;
}

export const pullZonesSurface: EmulatorSurface = {
  name: "pullZones",
  seed(ctx) {
    const main = createPullZone(ctx, "emulator-main");
    const suspended = createPullZone(ctx, "emulator-suspended", { Suspended: true, Enabled: false });
    const noLogging = createPullZone(ctx, "emulator-nologs", { EnableLogging: false });
    return { pullZoneId: main.Id, suspendedPullZoneId: suspended.Id, loggingDisabledPullZoneId: noLogging.Id };
  },
  routes(app, ctx) {
    app.get("/pullzone/:id", async (req, reply) => {
      const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
      if (!zone) return coreError(reply, 404);
      return zone;
    });

    // A suspended zone keeps its hostnames and may lose them (so cleanup works), but takes no new ones.
    app.post("/pullzone/:id/addHostname", async (req, reply) => {
      const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
      if (!zone) return coreError(reply, 404);
      const parsed = hostnameBody(req.body);
      if ("error" in parsed) return coreError(reply, 400, parsed.error.key, parsed.error.field, parsed.error.message);
      const invalid = serverHostnameProblem(parsed.hostname);
      if (invalid) return coreError(reply, 400, "pullzone.hostname_invalid", "Hostname", `The hostname is not valid: ${invalid}`);
      if (zone.Suspended) return coreError(reply, 400, "pullzone.suspended", undefined, "The pull zone is suspended");
      const value = parsed.hostname.toLowerCase();
      const taken = ctx.store.list<PullZoneRecord>("pullzone").some((z) => z.Hostnames.some((h) => h.Value.toLowerCase() === value));
      if (taken) return coreError(reply, 400, "pullzone.hostname_already_registered", "Hostname", "The hostname is already registered");
      zone.Hostnames.push({
        Id: ctx.store.nextId("hostname", 7001),
        Value: value,
        ForceSSL: false,
        IsSystemHostname: false,
        IsManagedHostname: false,
        HasCertificate: false,
        CertificateKeyType: 0,
        CertificateProvisionType: 0,
      });
      ctx.store.put("pullzone", zone.Id, zone);
      return reply.code(204).send();
    });

    app.delete("/pullzone/:id/removeHostname", async (req, reply) => {
      const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
      if (!zone) return coreError(reply, 404);
      const parsed = hostnameBody(req.body);
      if ("error" in parsed) return coreError(reply, 400, parsed.error.key, parsed.error.field, parsed.error.message);
      const value = parsed.hostname.toLowerCase();
      const index = zone.Hostnames.findIndex((h) => h.Value.toLowerCase() === value);
      if (index < 0) return coreError(reply, 400, "pullzone.hostname_not_found", "Hostname", "The hostname was not found on this pull zone");
      if (zone.Hostnames[index].IsSystemHostname) return coreError(reply, 400, "pullzone.hostname_system", "Hostname", "A system hostname cannot be removed");
      zone.Hostnames.splice(index, 1);
      ctx.store.put("pullzone", zone.Id, zone);
      return reply.code(204).send();
    });
  },
};

interface BodyError {
  key: string;
  field?: string;
  message: string;
}

/** AddHostnameRequestModel / RemoveHostnameRequestModel: `{Hostname}` (min length 1), no other properties. */
function hostnameBody(body: unknown): { hostname: string } | { error: BodyError } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { error: { key: "validation_error", message: "The request body must be a JSON object" } };
  }
  const extra = Object.keys(body).find((k) => k !== "Hostname");
  if (extra) return { error: { key: "validation_error", field: extra, message: `The property ${extra} is not allowed` } };
  const hostname = (body as { Hostname?: unknown }).Hostname;
  if (typeof hostname !== "string" || hostname.length === 0) return { error: { key: "validation_error", field: "Hostname", message: "The Hostname field is required" } };
  return { hostname };
}

const SERVER_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * The server's own hostname rule (deliberately not shared with the client's schema: the emulator
 * stands in for bunny.net, so tests can show the client refusing what the server would refuse).
 */
function serverHostnameProblem(value: string): string | undefined {
  if (value.length > 253) return "longer than 253 characters";
  const labels = value.split(".");
  if (labels.length < 2) return "not a fully qualified domain name";
  if (!labels.every((l) => SERVER_LABEL.test(l))) return "labels must be 1-63 letters, digits or hyphens, not starting or ending with a hyphen";
  if (/^\d+$/.test(labels[labels.length - 1])) return "IP addresses are not hostnames";
  return undefined;
}
