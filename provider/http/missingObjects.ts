/**
 * What a 404 on a path means in the user's words: `GET /pullzone/424242` answered 404 is "there is no pull zone
 * 424242 in this account". A path names its object by kind and id (the APIs' routes: core-api-v1.0.0.json,
 * edge-scripting-api-v1.0.0.json, shield-api-v1.0.0.json, magic-containers-api-v1.0.0.json, stream-api-v1.5.23.json);
 * an operation on an object (`/pullzone/{id}/addHostname`, `/compute/script/{id}/variables/add`) fails with 404 when
 * the object is missing, so it is described the same. A path with an id this table does not name is not described
 * (which of two ids is missing cannot be told).
 */

/**
 * A route's object: its segments (`{id}` where an id stands) and how it is named (`{1}` is the first id); `where`
 * is "this account" unless given ("" for Stream's paths, whose key is the library's).
 */
const OBJECTS: { route: string[]; name: string; where?: string }[] = [
  { route: ["pullzone", "{id}"], name: "pull zone {1}" },
  { route: ["storagezone", "{id}"], name: "storage zone {1}" },
  { route: ["dnszone", "{id}"], name: "DNS zone {1}" },
  { route: ["dnszone", "{id}", "records", "{id}"], name: "record {2} in DNS zone {1}" },
  { route: ["videolibrary", "{id}"], name: "video library {1}" },
  { route: ["compute", "script", "{id}"], name: "edge script {1}" },
  { route: ["compute", "script", "{id}", "variables", "{id}"], name: "variable {2} of edge script {1}" },
  { route: ["compute", "script", "{id}", "secrets", "{id}"], name: "secret {2} of edge script {1}" },
  { route: ["shield", "shield-zone", "{id}"], name: "Shield zone {1}" },
  { route: ["shield", "shield-zone", "get-by-pullzone", "{id}"], name: "Shield zone for pull zone {1} (or no pull zone {1})" },
  { route: ["shield", "rate-limit", "{id}"], name: "rate-limit rule {1}" },
  { route: ["shield", "waf", "custom-rule", "{id}"], name: "WAF rule {1}" },
  { route: ["apps", "{id}"], name: "container app {1}" },
  { route: ["registries", "{id}"], name: "container registry {1}" },
  { route: ["library", "{id}", "videos", "{id}"], name: "video {2} in video library {1}", where: "" },
  { route: ["library", "{id}", "collections", "{id}"], name: "collection {2} in video library {1}", where: "" },
];

/**
 * The operations on an object that answer 404 when the object itself is missing. A path that goes on to anything
 * else (a caption's language, a rule's GUID) may have failed for that other thing, so it is not described.
 */
const OPERATIONS = new Set([
  "addHostname", "removeHostname", "addCertificate", "removeCertificate", "setForceSSL", "edgerules", "addOrUpdate",
  "setEdgeRuleEnabled", "purgeCache", "records", "dnssec", "variables", "add", "secrets", "code", "publish", "releases",
  "active", "endpoints", "volumes", "access-lists", "custom-rules", "rate-limits", "configurations", "custom-page",
  "videos", "collections", "fetch", "logs",
]);

/** "there is no pull zone 424242 in this account" for a path whose object is missing, or undefined. */
export function describeMissing(path: string): string | undefined {
  const segments = path.split("?")[0].split("/").filter(Boolean).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  let best: { name: string; where?: string; ids: string[] } | undefined;
  for (const object of OBJECTS) {
    if (segments.length < object.route.length) continue;
    const ids: string[] = [];
    const matches = object.route.every((part, i) => (part === "{id}" ? !OPERATIONS.has(segments[i]) && ids.push(segments[i]) > 0 : segments[i] === part));
    if (!matches || !segments.slice(object.route.length).every((s) => OPERATIONS.has(s))) continue;
    if (!best || ids.length > best.ids.length) best = { name: object.name, where: object.where, ids };
  }
  if (!best) return undefined;
  const ids = best.ids;
  const where = best.where ?? "this account";
  return `there is no ${best.name.replace(/\{(\d)\}/g, (_m, n: string) => ids[Number(n) - 1])}${where ? ` in ${where}` : ""}`;
}
