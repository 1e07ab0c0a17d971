import { randomBytes } from "node:crypto";
import type { EmulatorSurface } from "../context";
import { coreError } from "../errorShapes";

/** The account: its API keys (`GET /apikey`) and closing it (`POST /user/closeaccount`). */

export const ACCOUNT_PASSWORD = "emulator-password";
const SEEDED_API_KEYS = 12;

interface ApiKeyRecord {
  Id: number;
  Key: string;
  Roles: string[];
}

function newKey(): string {
  // bunny.net keys look like two GUIDs glued together.
  const hex = randomBytes(36).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 52)}-${hex.slice(52, 56)}-${hex.slice(56, 60)}-${hex.slice(60, 72)}`;
}

function intParam(value: unknown, fallback: number): number | undefined {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  return Number.isInteger(n) ? n : undefined;
}

export const accountSurface: EmulatorSurface = {
  name: "account",
  seed(ctx) {
    const keys: ApiKeyRecord[] = [];
    for (let i = 0; i < SEEDED_API_KEYS; i++) {
      const record = { Id: ctx.store.nextId("apikey", 5001), Key: newKey(), Roles: i === 0 ? ["Admin"] : i % 2 ? ["ReadOnly"] : ["Billing", "ReadOnly"] };
      ctx.store.put("apikey", record.Id, record);
      keys.push(record);
    }
    ctx.store.put("account", "current", { closed: false });
    return { accessKey: keys[0].Key, apiKeyCount: keys.length, accountPassword: ACCOUNT_PASSWORD };
  },
  routes(app, ctx) {
    app.get("/apikey", async (req, reply) => {
      const q = req.query as Record<string, string | undefined>;
      const page = intParam(q.page, 1);
      const perPage = intParam(q.perPage, 1000);
      if (page === undefined || page < 1 || page > 2147483647) return coreError(reply, 400, "validation_error", "page", "page must be between 1 and 2147483647");
      if (perPage === undefined || perPage < 5 || perPage > 1000) return coreError(reply, 400, "validation_error", "perPage", "perPage must be between 5 and 1000");
      const all = ctx.store.list<ApiKeyRecord>("apikey");
      const items = all.slice((page - 1) * perPage, page * perPage);
      return { Items: items, CurrentPage: page, TotalItems: all.length, HasMoreItems: page * perPage < all.length };
    });

    app.post("/user/closeaccount", async (req, reply) => {
      const body = (req.body ?? {}) as { Password?: unknown; Reason?: unknown };
      if (typeof body.Password !== "string" || body.Password === "") {
        return reply.code(400).send({ Success: false, Message: "Password is required." });
      }
      if (body.Password !== ACCOUNT_PASSWORD) return reply.code(400).send({ Success: false, Message: "The password is not correct." });
      ctx.store.put("account", "current", { closed: true, reason: typeof body.Reason === "string" ? body.Reason : null, closedAt: new Date().toISOString() });
      return { Success: true, Message: "The account was closed." };
    });
  },
};
