/**
 * The refusal of a delete that would leave pull zones without their origin (a storage zone, an edge script): issue
 * 37's "silent broken site". One wording for every origin kind.
 */
export function stillServing(pullZones: readonly { Id: number; Name?: string | null; PullZoneName?: string | null }[], leftWith: string): string {
  const one = pullZones.length === 1;
  const named = pullZones.map((p) => `${p.Name ?? p.PullZoneName ?? ""} (id ${p.Id})`.trim()).join(", ");
  return (
    `it is the origin of pull zone${one ? "" : "s"} ${named}, which would be left serving ${leftWith}. ` +
    `Point ${one ? "its" : "their"} origin elsewhere (or delete ${one ? "it" : "them"}) first, then run again.`
  );
}
