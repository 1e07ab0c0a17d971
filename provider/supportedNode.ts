/**
 * The oldest Node.js this package runs on, checked before anything else is loaded. undici 8, the HTTP client under
 * every API call, declares `engines: node >=22.19.0` and on older Node fails inside its own code while loading
 * ("Cannot read properties of undefined (reading 'bind')"), which tells a user nothing; npm only warns about engines.
 */
export const MINIMUM_NODE_VERSION = "22.19.0";

function parts(version: string): number[] {
  return version.replace(/^v/, "").split(".").map((n) => Number.parseInt(n, 10) || 0);
}

/** Why this Node cannot run the package, or undefined when it can. */
export function unsupportedNodeReason(packageName = "bunnynet-pulumi", version: string = process.versions.node): string | undefined {
  const have = parts(version);
  const need = parts(MINIMUM_NODE_VERSION);
  for (let i = 0; i < need.length; i++) {
    if ((have[i] ?? 0) > need[i]) return undefined;
    if ((have[i] ?? 0) < need[i]) {
      return (
        `${packageName} needs Node.js ${MINIMUM_NODE_VERSION} or newer (its HTTP client, undici 8, does), ` +
        `but this is Node.js ${version.replace(/^v/, "")}: install Node.js 22 (22.19+) or 24 LTS and run again`
      );
    }
  }
  return undefined;
}

/**
 * Refuses an unsupported Node.js: a library entry point throws (the caller sees one clear Error), a command exits 1
 * with the sentence on stderr (a person sees no stack trace). Called by the tiny guard modules that every entry point
 * imports first, before undici (or node:sqlite) loads.
 */
export function refuseUnsupportedNode(packageName: string, how: "throw" | "exit"): void {
  const reason = unsupportedNodeReason(packageName);
  if (!reason) return;
  if (how === "throw") throw new Error(reason);
  process.stderr.write(`${reason}\n`);
  process.exit(1);
}
