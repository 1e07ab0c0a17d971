import { randomUUID } from "node:crypto";
import type { EmulatorSurface } from "../context";
import { coreError } from "../errorShapes";
import { withJwt } from "./accountJwt";

/**
 * Team members (`/team/member`), with the account's JWT (accountJwt.ts). Source: BunnyWay/terraform-provider-bunnynet
 * internal/api/account_subuser.go: the fields (lines 16-23), `GET /team/member/{id}` → 200, 404 (lines 25-59),
 * `GET /team/member` → `{Items, CurrentPage, TotalItems, HasMoreItems}` (lines 61-103), `POST /team/member` → 201 with
 * the member (lines 105-141), `POST /team/member/{id}` → 204 (lines 143-174), `DELETE /team/member/{id}` → 204, 404
 * (lines 176-191); every member has the role `Subuser` besides its permissions (lines 193-199); errors carry core's
 * `Message` (internal/utils/utils.go ExtractErrorMessage). The roles and the password policy are the ones its resource
 * checks (internal/provider/enums_static.go lines 5-11, resource_account_subuser.go lines 85-122).
 *
 * Where those are silent, the emulator decides:
 * - Errors are core's `{ErrorKey, Field, Message}`: 400 `validation_error` naming the field, 409 `team.member_exists`
 *   for an email address already in the team (compared without case).
 * - A member made without a password is one invited to set their own.
 * - An update cannot change the email address (400: the Terraform resource replaces the member for a new one); it may
 *   set a new password.
 * - The password is never answered.
 */

const KIND = "teammember";
const ROLES = new Set(["SubuserManage", "SubuserBilling", "SubuserSupport", "SubuserAbuse", "SubuserUsers"]);
const EMAIL = /^[^@\s]+@[^.@\s]+\.[^@\s]*[^.@\s]$/;
const PASSWORD_RULES: [RegExp, string][] = [
  [/^.{12,}$/s, "at least 12 characters"],
  [/[a-z]/, "a lower-case letter"],
  [/[A-Z]/, "an upper-case letter"],
  [/[0-9]/, "a digit"],
  [/[^a-zA-Z0-9]/, "a character other than a letter or digit"],
];

interface MemberRecord {
  Id: string;
  FirstName: string;
  LastName: string;
  Email: string;
  Roles: string[];
  /** Kept to say whether one was set; never answered. */
  hasPassword: boolean;
}

const answer = (m: MemberRecord) => ({ Id: m.Id, FirstName: m.FirstName, LastName: m.LastName, Email: m.Email, Roles: ["Subuser", ...m.Roles] });

/** The first problem of a body: `[field, message]`, or undefined. */
function problem(body: Record<string, unknown>): [string, string] | undefined {
  for (const field of ["FirstName", "LastName"]) {
    const v = body[field];
    if (typeof v !== "string" || v.trim() === "") return [field, `${field} is required.`];
  }
  if (typeof body.Email !== "string" || !EMAIL.test(body.Email)) return ["Email", "Email must be a valid email address."];
  const roles = body.Roles;
  if (!Array.isArray(roles) || roles.length === 0) return ["Roles", "Roles must name at least one role."];
  const unknown = roles.find((r) => r !== "Subuser" && (typeof r !== "string" || !ROLES.has(r)));
  if (unknown !== undefined) return ["Roles", `${JSON.stringify(unknown)} is not a role (one of ${[...ROLES].join(", ")}).`];
  if (body.Password !== undefined && body.Password !== null && body.Password !== "") {
    if (typeof body.Password !== "string") return ["Password", "Password must be a string."];
    const missing = PASSWORD_RULES.filter(([rule]) => !rule.test(body.Password as string)).map(([, what]) => what);
    if (missing.length > 0) return ["Password", `Password must have ${missing.join(", ")}.`];
  }
  return undefined;
}

const rolesOf = (body: Record<string, unknown>) => [...new Set((body.Roles as string[]).filter((r) => r !== "Subuser"))];

export const teamMembersSurface: EmulatorSurface = {
  name: "teamMembers",
  seed: () => ({}),
  routes(app, ctx) {
    const byId = (id: string) => ctx.store.get<MemberRecord>(KIND, id);

    app.get(
      "/team/member",
      withJwt(ctx, async () => {
        const items = ctx.store.list<MemberRecord>(KIND).map(answer);
        return { Items: items, CurrentPage: 1, TotalItems: items.length, HasMoreItems: false };
      }),
    );

    app.get(
      "/team/member/:id",
      withJwt(ctx, async (req, reply) => {
        const member = byId((req.params as { id: string }).id);
        return member ? answer(member) : coreError(reply, 404, "team.member_not_found", "Id", "The team member was not found.");
      }),
    );

    app.post(
      "/team/member",
      withJwt(ctx, async (req, reply) => {
        const body = (req.body ?? {}) as Record<string, unknown>;
        const bad = problem(body);
        if (bad) return coreError(reply, 400, "validation_error", bad[0], bad[1]);
        const email = String(body.Email);
        if (ctx.store.list<MemberRecord>(KIND).some((m) => m.Email.toLowerCase() === email.toLowerCase())) {
          return coreError(reply, 409, "team.member_exists", "Email", `${email} is already a member of the team.`);
        }
        const member: MemberRecord = { Id: randomUUID(), FirstName: String(body.FirstName), LastName: String(body.LastName), Email: email, Roles: rolesOf(body), hasPassword: !!body.Password };
        ctx.store.put(KIND, member.Id, member);
        return reply.code(201).send(answer(member));
      }),
    );

    app.post(
      "/team/member/:id",
      withJwt(ctx, async (req, reply) => {
        const member = byId((req.params as { id: string }).id);
        if (!member) return coreError(reply, 404, "team.member_not_found", "Id", "The team member was not found.");
        const body = (req.body ?? {}) as Record<string, unknown>;
        const bad = problem(body);
        if (bad) return coreError(reply, 400, "validation_error", bad[0], bad[1]);
        if (String(body.Email).toLowerCase() !== member.Email.toLowerCase()) return coreError(reply, 400, "validation_error", "Email", "The email address of a member cannot be changed.");
        ctx.store.put(KIND, member.Id, { ...member, FirstName: String(body.FirstName), LastName: String(body.LastName), Roles: rolesOf(body), hasPassword: member.hasPassword || !!body.Password });
        return reply.code(204).send();
      }),
    );

    app.delete(
      "/team/member/:id",
      withJwt(ctx, async (req, reply) => {
        if (!ctx.store.delete(KIND, (req.params as { id: string }).id)) return coreError(reply, 404, "team.member_not_found", "Id", "The team member was not found.");
        return reply.code(204).send();
      }),
    );
  },
};
