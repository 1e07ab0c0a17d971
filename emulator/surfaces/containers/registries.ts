import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../../context";
import { documentEnum, firstIssue, notFound, validationProblem } from "./problems";
import { APP, REGISTRY, type AppRecord, type RegistryRecord } from "./records";
import { parseBody } from "../../unknownProperties";

/**
 * Magic Containers image registries: `GET /mc/registries`, `POST /mc/registries`, `GET`, `PUT` and `DELETE
 * /mc/registries/{registryId}`, the calls bunny.net's Terraform provider makes for
 * `bunnynet_compute_container_imageregistry`.
 *
 * Sources: magic-containers-api-v1.0.0.json (paths `/registries`, `/registries/{registryId}`; schemas
 * ContainerRegistryRequest, Credentials, RegistryType, ContainerRegistry, ListContainerRegistriesResponse,
 * SaveContainerRegistryResult, SavedContainerRegistryStatus, RemoveContainerRegistryResult). The real API beyond the
 * document, from the Terraform provider whose acceptance tests pass against it (BunnyWay/terraform-provider-bunnynet
 * internal/api/compute_container_imageregistry.go):
 * - a create answers 201 (Terraform fails on anything else; the document says 200);
 * - `type` in another case (Terraform sends its display name, `"DockerHub"`): read case-insensitively;
 * - the registry's own `id` in a PUT (not in ContainerRegistryRequest): accepted when it is the registry's.
 * The public registries ("DockerHub Public", "GitHub Public", no user name) are as Terraform looks them up
 * (FindComputeContainerImageregistry).
 *
 * Decided (not published): the host name follows the type (docker.io, ghcr.io, registry.bunny.net); the answer shows
 * the password's first and last two characters; a platform-managed registry cannot be changed or deleted (400); a
 * delete of an unknown registry answers 200 `status: notFound`, of one an app's container uses 200 `status: inUse`
 * with the apps' ids (the document's 200 "deleted or conflict returned").
 */

const REGISTRY_HOSTS = { dockerHub: "docker.io", gitHub: "ghcr.io", bunnyRegistry: "registry.bunny.net" } as const;

const RegistryBody = z.strictObject({
  displayName: z.string().min(1).max(50),
  type: documentEnum(["dockerHub", "gitHub", "bunnyRegistry"]).optional(),
  passwordCredentials: z.strictObject({ userName: z.string().min(1), password: z.string().min(1) }).optional(),
});
type RegistryRequest = z.output<typeof RegistryBody>;

/** The record a create or an update stores. */
function registryRecord(id: number, body: RegistryRequest, previous?: RegistryRecord): RegistryRecord {
  const now = new Date().toISOString();
  const password = body.passwordCredentials?.password;
  return {
    id,
    accountId: "emulator-account",
    userId: "emulator-user",
    namespaceId: "",
    displayName: body.displayName,
    hostName: REGISTRY_HOSTS[body.type ?? "dockerHub"],
    userName: body.passwordCredentials?.userName ?? null,
    firstPasswordSymbols: password ? password.slice(0, 2) : null,
    lastPasswordSymbols: password ? password.slice(-2) : null,
    createdAt: previous?.createdAt ?? now,
    isPublic: false,
    isPlatformManaged: false,
    lastUpdatedAt: previous ? now : null,
  };
}

export function registryRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  /** The body parsed, or undefined after answering 400 naming the field. */
  const bodyOf = (body: unknown, reply: FastifyReply): RegistryRequest | undefined => {
    const parsed = parseBody(RegistryBody, body, ctx.strict);
    if (parsed.success) return parsed.data;
    const { field, message } = firstIssue(parsed.error);
    return void validationProblem(reply, field, `${field}: ${message}`);
  };
  /** The registry of the path, or undefined after answering (400 for an id that is no int64, 404 when unknown). */
  const registryOf = (params: unknown, reply: FastifyReply): RegistryRecord | undefined => {
    const raw = (params as { registryId: string }).registryId;
    if (!/^\d{1,18}$/.test(raw)) return void validationProblem(reply, "registryId", "registryId: must be an integer");
    return ctx.store.get<RegistryRecord>(REGISTRY, String(Number(raw))) ?? void notFound(reply, "registryId", "The container registry");
  };

  app.get("/mc/registries", async () => {
    const items = ctx.store.list<RegistryRecord>(REGISTRY);
    return { items, meta: { totalItems: items.length }, cursor: null };
  });

  app.post("/mc/registries", async (req, reply) => {
    const body = bodyOf(req.body, reply);
    if (!body) return reply;
    const id = ctx.store.nextId(REGISTRY, 1000);
    ctx.store.put(REGISTRY, String(id), registryRecord(id, body));
    return reply.code(201).send({ id, error: null, status: "saved" });
  });

  app.get("/mc/registries/:registryId", async (req, reply) => registryOf(req.params, reply) ?? reply);

  app.put("/mc/registries/:registryId", async (req, reply) => {
    const found = registryOf(req.params, reply);
    if (!found) return reply;
    if (found.isPlatformManaged) return validationProblem(reply, "registryId", "registryId: a platform-managed registry cannot be changed");
    const { id, ...rest } = (typeof req.body === "object" && req.body !== null ? req.body : {}) as Record<string, unknown>;
    if (id !== undefined && id !== found.id) return validationProblem(reply, "id", "id: is not the registry's id");
    const body = bodyOf(rest, reply);
    if (!body) return reply;
    ctx.store.put(REGISTRY, String(found.id), registryRecord(found.id, body, found));
    return { id: found.id, error: null, status: "saved" };
  });

  app.delete("/mc/registries/:registryId", async (req, reply) => {
    const raw = (req.params as { registryId: string }).registryId;
    if (!/^\d{1,18}$/.test(raw)) return validationProblem(reply, "registryId", "registryId: must be an integer");
    const found = ctx.store.get<RegistryRecord>(REGISTRY, String(Number(raw)));
    if (!found) return { status: "notFound", applications: [] };
    if (found.isPlatformManaged) return validationProblem(reply, "registryId", "registryId: a platform-managed registry cannot be deleted");
    const users = ctx.store.list<AppRecord>(APP).filter((a) => a.settings?.containers.some((c) => c.imageRegistryId === String(found.id)));
    if (users.length > 0) return { status: "inUse", applications: users.map((a) => a.id) };
    ctx.store.delete(REGISTRY, String(found.id));
    return { status: "removed", applications: [] };
  });
}

/** The public registries every account has; answers the DockerHub one's id for the fixtures. */
export function seedRegistries(ctx: EmulatorContext): string {
  const registry = (id: number, displayName: string, hostName: string): RegistryRecord => ({
    id,
    accountId: null,
    userId: null,
    namespaceId: "",
    displayName,
    hostName,
    userName: null,
    firstPasswordSymbols: null,
    lastPasswordSymbols: null,
    createdAt: "2024-01-01T00:00:00Z",
    isPublic: true,
    isPlatformManaged: true,
    lastUpdatedAt: null,
  });
  for (const r of [registry(1, "DockerHub Public", "docker.io"), registry(2, "GitHub Public", "ghcr.io")]) ctx.store.put(REGISTRY, String(r.id), r);
  return "1";
}
