import { numberedPages } from "../http/paging";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { ApiKeyListQuerySchema, ApiKeyPageSchema } from "../schemas/apiKeys";
import type { ApiKey, ApiKeyListQuery, ApiKeyPage } from "../types.generated";

/** The account's API keys (`GET /apikey`). Key values are secrets: callers must treat them so. */
export class ApiKeysClient {
  constructor(private readonly http: Transport) {}

  async listPage(query: ApiKeyListQuery = {}): Promise<ApiKeyPage> {
    const q = validateRequest(ApiKeyListQuerySchema, query, "GET", "/apikey");
    const res = await this.http.request({ api: "core", method: "GET", path: "/apikey", query: q, responseSchema: ApiKeyPageSchema });
    return res.body;
  }

  /** Every key, page by page (bounded: see PageGuard). */
  async *list(options: { perPage?: number } = {}): AsyncGenerator<ApiKey> {
    yield* numberedPages("GET", "/apikey", this.http.limits, (page) => this.listPage({ page, perPage: options.perPage }));
  }
}
