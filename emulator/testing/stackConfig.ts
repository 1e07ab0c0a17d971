// Its own module: the kit's public declarations may re-export it without reaching the server's (fastify's, zod's) types.

/** Where the emulator serves the Storage API (zones' files) below its origin: the real one is a host per region. */
export const STORAGE_API_PATH = "/storage";

/**
 * Stack config that points the provider at an emulator at `url` (every API at that one origin, the Storage API under
 * `/storage`), with its account key (mark `bunnynet:apiKey` secret). For an emulator in this process
 * `TestEmulator.stackConfig()` gives the same.
 */
export function stackConfigFor(url: string, accessKey: string): Record<string, string> {
  return {
    "bunnynet:apiKey": accessKey,
    "bunnynet:apiUrl": url,
    "bunnynet:streamApiUrl": url,
    "bunnynet:loggingApiUrl": url,
    "bunnynet:storageApiUrl": `${url}${STORAGE_API_PATH}`,
  };
}
