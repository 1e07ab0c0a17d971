import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import {
  DatabaseAnswerSchema,
  DatabaseCreatedSchema,
  DatabaseCreateRequestSchema,
  DatabaseListSchema,
  DatabaseTokenRequestSchema,
  DatabaseTokenSchema,
  DatabaseUpdateRequestSchema,
} from "../schemas/databases";
import type { DatabaseCreateRequest, DatabaseInfo, DatabaseTokenAuthorization, DatabaseUpdateRequest } from "../types.generated";

const BASE = "/edgedb/v2/databases";

/**
 * Edge databases (`/edgedb/v2/databases`), every request with the account's JWT (`auth: "accountJwt"`: the transport
 * exchanges the key for it and keeps it). The API and its sources: schemas/databases.ts.
 */
export class DatabasesClient {
  constructor(private readonly http: Transport) {}

  /** Every database of the account. */
  async listDatabases(): Promise<DatabaseInfo[]> {
    const res = await this.http.request({ api: "core", method: "GET", path: BASE, auth: "accountJwt", responseSchema: DatabaseListSchema });
    return res.body.databases;
  }

  /** The database of exactly that name, or undefined. */
  async findDatabaseByName(name: string): Promise<DatabaseInfo | undefined> {
    return (await this.listDatabases()).find((d) => d.name === name);
  }

  /** The database; NotFoundError when it is gone. */
  async getDatabase(id: string): Promise<DatabaseInfo> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("edgedb", "v2", "databases", id), auth: "accountJwt", responseSchema: DatabaseAnswerSchema });
    return res.body.db;
  }

  /** Creates a database (a create: not repeated after a 5xx or timeout); answers its id. */
  async createDatabase(request: DatabaseCreateRequest): Promise<string> {
    const body = validateRequest(DatabaseCreateRequestSchema, request, "POST", BASE);
    const res = await this.http.request({ api: "core", method: "POST", path: BASE, json: body, auth: "accountJwt", retry: "create", responseSchema: DatabaseCreatedSchema });
    return res.body.db_id;
  }

  /** Sets the database's regions (both lists whole: safe to repeat). */
  async updateDatabase(id: string, request: DatabaseUpdateRequest): Promise<void> {
    const path = encodePath("edgedb", "v2", "databases", id);
    const body = validateRequest(DatabaseUpdateRequestSchema, request, "PATCH", path);
    await this.http.request({ api: "core", method: "PATCH", path, json: body, auth: "accountJwt", retry: "idempotent" });
  }

  async deleteDatabase(id: string): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("edgedb", "v2", "databases", id), auth: "accountJwt" });
  }

  /** A new access token of the database (the ones before stay valid). A secret: the caller keeps it so. */
  async generateToken(id: string, authorization: DatabaseTokenAuthorization): Promise<string> {
    const path = encodePath("edgedb", "v2", "databases", id, "auth", "generate");
    const body = validateRequest(DatabaseTokenRequestSchema, { authorization }, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, auth: "accountJwt", retry: "create", responseSchema: DatabaseTokenSchema });
    return res.body.token;
  }
}
