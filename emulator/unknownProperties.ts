import type { z } from "zod";

/**
 * Properties a request body's model does not have: unknown ones, and read-only ones sent back in a whole object.
 *
 * bunny.net's APIs ignore them. They are ASP.NET services, whose JSON model binding skips what a model does not
 * declare, and bunny.net's Terraform provider, whose acceptance tests pass against the real API, sends whole objects:
 * `POST /dnszone/{id}` gets the whole zone with `Id`, `Domain`, `Records` and `DnsSecEnabled`, none in
 * UpdateDnsZoneModel (terraform-provider-bunnynet v0.15.1 internal/api/dnszone.go, UpdateDnsZone marshals DnsZone,
 * lines 18-35 and 188-191); `PUT /dnszone/{id}/records` a record with `Id`, `Accelerated`, `AcceleratedPullZoneId`,
 * `LinkName`, not in AddDnsRecordModel (internal/api/dnsrecord.go lines 24-46 and 71); `POST /videolibrary/{id}` the
 * whole library it read (internal/api/stream_library.go line 146). So the emulator ignores them too.
 *
 * Unless strict (EmulatorOptions.strict, which this repository's own tests turn on): then the first one is refused
 * (400, naming it), as the published documents' `additionalProperties: false` reads, so a client that misspells a
 * property, or sends what the API would drop, fails its test instead of being ignored.
 */
export interface UnknownProperty {
  field: string;
  message: string;
}

/** The refusal of property `key` that the model lacks, when strict; undefined (ignore it) when not. */
export function unknownProperty(strict: boolean, key: string): UnknownProperty | undefined {
  return strict ? { field: key, message: `The property ${key} is not allowed` } : undefined;
}

/** The refusal of the first property of `body` not in `permitted`, when strict; else undefined. */
export function firstUnknownProperty(strict: boolean, body: Record<string, unknown>, permitted: readonly string[]): UnknownProperty | undefined {
  if (!strict) return undefined;
  const extra = Object.keys(body).find((k) => !permitted.includes(k));
  return extra === undefined ? undefined : unknownProperty(strict, extra);
}

/** `body` without the properties that are not in `permitted`. */
export function onlyPermitted(body: Record<string, unknown>, permitted: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => permitted.includes(k)));
}

/**
 * Parses `body` with a schema of strict objects. Not strict, the properties the schema does not know are dropped at
 * every depth first (zod names them, issue by issue, as `unrecognized_keys`), so only a wrong value of a known
 * property is refused.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown, strict: boolean): z.ZodSafeParseResult<z.output<T>> {
  let result = schema.safeParse(body);
  if (strict || result.success) return result;
  let pruned: unknown = body;
  // Each round drops what the last parse named; a dropped key can only reveal keys inside objects it did not hold.
  for (let round = 0; round < 8 && !result.success; round++) {
    const unrecognized = result.error.issues.filter((i): i is z.core.$ZodIssueUnrecognizedKeys => i.code === "unrecognized_keys");
    if (unrecognized.length === 0) break;
    pruned = structuredClone(pruned);
    for (const issue of unrecognized) {
      const holder = issue.path.reduce<unknown>((at, key) => (at !== null && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined), pruned);
      if (holder !== null && typeof holder === "object") for (const key of issue.keys) delete (holder as Record<string, unknown>)[key];
    }
    result = schema.safeParse(pruned);
  }
  return result;
}
