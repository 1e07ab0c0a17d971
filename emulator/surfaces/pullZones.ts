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

export const pullZonesSurface: EmulatorSurface = {
  name: "pullZones",
  seed(ctx) {
    const make = (name: string, fields: Partial<PullZoneRecord>): PullZoneRecord => {
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
    };
    const main = make("emulator-main", {});
    const suspended = make("emulator-suspended", { Suspended: true, Enabled: false });
    const noLogging = make("emulator-nologs", { EnableLogging: false });
    return { pullZoneId: main.Id, suspendedPullZoneId: suspended.Id, loggingDisabledPullZoneId: noLogging.Id };
  },
  routes(app, ctx) {
    app.get("/pullzone/:id", async (req, reply) => {
      const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
      if (!zone) return coreError(reply, 404);
      return zone;
    });
  },
};
