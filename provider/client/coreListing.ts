import { PageGuard } from "../http/paging";
import type { Transport } from "../http/transport";
import type { Schema } from "../http/validation";

/**
 * A core listing (`GET /pullzone`, `GET /storagezone`): `page` ≥ 1, `perPage` 5..1000, `search` (core-api-v1.0.0.json
 * PullZonePublic_IndexAll, StorageZonePublic_IndexAll). The document answers an array, so an array shorter than
 * `perPage` is the last page; a page `{Items, HasMoreItems}` is followed as it says. Bounded by PageGuard.
 */
export async function* listCore<T>(
  http: Transport,
  path: string,
  schema: Schema<T[] | { Items: T[]; HasMoreItems: boolean }>,
  options: { search?: string; perPage?: number } = {},
): AsyncGenerator<T> {
  const guard = new PageGuard("GET", path, http.limits);
  const perPage = options.perPage ?? 1000;
  for (let page = 1; ; page++) {
    const res = await http.request({ api: "core", method: "GET", path, query: { page, perPage, search: options.search }, responseSchema: schema });
    const items = Array.isArray(res.body) ? res.body : res.body.Items;
    guard.page(items);
    yield* items;
    const more = Array.isArray(res.body) ? items.length >= perPage : res.body.HasMoreItems;
    if (!more || items.length === 0) return;
  }
}
