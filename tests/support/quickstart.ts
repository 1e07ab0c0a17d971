import { randomBytes } from "node:crypto";
import { issueCertificate } from "bunnynet-emulator/dist/certificates.js";
import { stackConfigFor } from "bunnynet-emulator/testing";

/** The quickstart's Pulumi project name (its stack config keys are under it). */
export const QUICKSTART_PROJECT = "bunnynet-quickstart";

/** The quickstart's config keys that hold secrets (besides `bunnynet:apiKey`). */
export const QUICKSTART_SECRET_KEYS = [`${QUICKSTART_PROJECT}:apiCertificateKey`, `${QUICKSTART_PROJECT}:signingKey`];
/** Every config key of the quickstart stored as a secret. */
export const QUICKSTART_SECRET_CONFIG = ["bunnynet:apiKey", ...QUICKSTART_SECRET_KEYS];

/**
 * Stack config that points the quickstart (examples/quickstart/program.ts) at an emulator's fixtures, with a
 * certificate made for this run for its api hostname and a random signing key. `bunnynet:apiKey` and
 * QUICKSTART_SECRET_KEYS are meant to be secret.
 */
export async function quickstartConfig(emu: { url: string; fixtures: Record<string, string | number> }, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const f = emu.fixtures;
  const p = QUICKSTART_PROJECT;
  const api = await issueCertificate({ hostnames: ["api.quickstart.example"] });
  return {
    ...stackConfigFor(emu.url, String(f.accessKey)),
    [`${p}:pullZoneId`]: String(f.pullZoneId),
    [`${p}:scriptId`]: String(f.scriptId),
    [`${p}:videoLibraryId`]: String(f.videoLibraryId),
    [`${p}:videoId`]: String(f.videoId),
    [`${p}:appId`]: String(f.appId),
    [`${p}:volumeId`]: String(f.attachedVolumeId),
    [`${p}:volumeInstanceId`]: String(f.attachedInstanceId),
    [`${p}:apiCertificate`]: api.certificatePem,
    [`${p}:apiCertificateKey`]: api.privateKeyPem,
    [`${p}:signingKey`]: `signing-${randomBytes(24).toString("base64url")}`,
    ...extra,
  };
}
