import type { Command } from "../command";
import { ExitCode, UsageError } from "../exitCodes";
import { rowWriter } from "../output";
import { certificateKind, describeCertificate, installedCertificate } from "../../schemas/certificates";
import type { Hostname } from "../../schemas/pullZones";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A hostname with what its certificate says (parsed once). */
interface HostnameRow {
  hostname: Hostname;
  issuer?: string;
  expiresAt?: string;
  daysLeft?: number;
}

/** A positional id, refused (usage error) unless a positive integer. */
export function positiveId(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${what} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

export const hostnamesCommand: Command = {
  name: "hostnames",
  summary: "List a pull zone's hostnames with their certificate (kind, issuer, expiry) and force-SSL.",
  args: "<pullZoneId>",
  positionals: { min: 1, max: 1 },
  options: { "expiring-within": { type: "string" } },
  details:
    "--expiring-within DAYS keeps hostnames whose certificate expires within DAYS days (expired ones included).\n" +
    "Certificate kinds: none, free (issued by bunny.net), custom, bunny.net (the zone's own b-cdn.net hostname).",
  async run({ io, values, positionals, format, client }) {
    const pullZoneId = positiveId(positionals[0], "<pullZoneId>");
    const within = values["expiring-within"];
    const days = within === undefined ? undefined : Number(within);
    if (days !== undefined && (!Number.isFinite(days) || days < 0)) throw new UsageError(`--expiring-within must be a number of days >= 0, got ${JSON.stringify(within)}`);
    const out = rowWriter<HostnameRow>(
      format,
      [
        { header: "id", value: (r) => r.hostname.Id },
        { header: "hostname", value: (r) => r.hostname.Value },
        { header: "system", value: (r) => r.hostname.IsSystemHostname },
        { header: "forceSsl", value: (r) => r.hostname.ForceSSL },
        { header: "certificate", value: (r) => certificateKind(r.hostname) },
        { header: "issuer", value: (r) => r.issuer ?? "" },
        { header: "expiresAt", value: (r) => r.expiresAt ?? "" },
        { header: "daysLeft", value: (r) => r.daysLeft ?? "" },
      ],
      io.stdout,
    );
    const zone = await client().pullZones.getPullZoneWithCertificates(pullZoneId);
    for (const hostname of zone.Hostnames) {
      const cert = installedCertificate(hostname);
      const details = cert && describeCertificate(cert);
      const daysLeft = details && Math.floor((Date.parse(details.expiresAt) - Date.now()) / DAY_MS);
      if (days !== undefined && (daysLeft === undefined || daysLeft > days)) continue;
      out.write({ hostname, issuer: details?.issuer, expiresAt: details?.expiresAt, daysLeft });
    }
    out.end();
    return ExitCode.Ok;
  },
};
