import { randomBytes } from "node:crypto";
import { stackConfigFor } from "bunnynet-emulator/testing";

/** The site example's Pulumi project name (its stack config keys are under it). */
export const SITE_PROJECT = "bunnynet-site";
/** Every config key of the site stored as a secret. */
export const SITE_SECRET_CONFIG = ["bunnynet:apiKey", `${SITE_PROJECT}:apiToken`];

/** Stack config that points examples/site at an emulator: no fixture ids, only the key, the URL and the site's own settings. */
export function siteConfig(emu: { url: string; fixtures: Record<string, string | number> }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...stackConfigFor(emu.url, String(emu.fixtures.accessKey)),
    [`${SITE_PROJECT}:domain`]: "site.example",
    [`${SITE_PROJECT}:prefix`]: "demo",
    [`${SITE_PROJECT}:apiToken`]: `token-${randomBytes(16).toString("base64url")}`,
    ...extra,
  };
}
