import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { stackConfigFor } from "bunnynet-emulator/testing";

/** The site example's Pulumi project name (its stack config keys are under it). */
export const SITE_PROJECT = "bunnynet-site";
/** Every config key of the site stored as a secret. */
export const SITE_SECRET_CONFIG = ["bunnynet:apiKey", `${SITE_PROJECT}:apiToken`];

/** examples/site/public, from the compiled tests (dist/tests/support). */
export const SITE_PUBLIC_FOLDER = join(__dirname, "..", "..", "..", "examples", "site", "public");
/** examples/site/media (the video and its poster), from the compiled tests (dist/tests/support). */
export const SITE_MEDIA_FOLDER = join(__dirname, "..", "..", "..", "examples", "site", "media");

/** Stack config that points examples/site at an emulator: no fixture ids, only the key, the URL and the site's own settings. */
export function siteConfig(emu: { url: string; fixtures: Record<string, string | number> }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...stackConfigFor(emu.url, String(emu.fixtures.accessKey)),
    [`${SITE_PROJECT}:domain`]: "site.example",
    [`${SITE_PROJECT}:prefix`]: "demo",
    [`${SITE_PROJECT}:apiToken`]: `token-${randomBytes(16).toString("base64url")}`,
    // The files the example ships, wherever the compiled program runs from.
    [`${SITE_PROJECT}:publicFolder`]: SITE_PUBLIC_FOLDER,
    // The video and poster the example ships, wherever the compiled program runs from.
    [`${SITE_PROJECT}:mediaFolder`]: SITE_MEDIA_FOLDER,
    ...extra,
  };
}
