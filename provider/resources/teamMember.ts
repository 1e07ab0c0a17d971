import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { TEAM_MEMBER_EMAIL, TEAM_MEMBER_PASSWORD_RULES } from "../schemas/teamMembers";
import { TEAM_MEMBER_PERMISSIONS, type TeamMemberPermission } from "../schemas/teamMemberEnums";
import type { TeamMemberInfo } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * A member of the account's team (Terraform's `bunnynet_account_subuser`; `/team/member` with the account's JWT: see
 * schemas/teamMembers.ts). Sources: BunnyWay/terraform-provider-bunnynet internal/provider/resource_account_subuser.go
 * (email replaces; names and permissions in place; the password write-only: "to update it after creation, re-create
 * the resource", lines 96-111; import by email, lines 246-260) and its issue #83. Here the password is optional (a
 * member without one is invited to set their own), a secret in the state, and a change of it replaces the member, as
 * the API never shows it to compare.
 */

export const TEAM_MEMBER_TYPE = "TeamMember";

export type { TeamMemberPermission };
const PERMISSION_NAMES = Object.keys(TEAM_MEMBER_PERMISSIONS) as [TeamMemberPermission, ...TeamMemberPermission[]];

const password = z.string().superRefine((v, ctx) => {
  const missing = TEAM_MEMBER_PASSWORD_RULES.filter(([rule]) => !rule.test(v)).map(([, message]) => message);
  // The reason only: the engine prints a failure's value, and this one is a secret (checking.ts).
  if (missing.length > 0) ctx.addIssue({ code: "custom", message: missing.join("; ") });
});

const teamMemberInputs = z
  .object({
    email: z
      .string()
      .regex(TEAM_MEMBER_EMAIL, "must be an email address (name@example.com)")
      .transform((e) => e.trim().toLowerCase()),
    firstName: z.string().trim().min(1, "must not be empty"),
    lastName: z.string().trim().min(1, "must not be empty"),
    // A set: sorted and without repeats, so the order written in the program is no change.
    permissions: z
      .array(z.enum(PERMISSION_NAMES))
      .min(1, "must name at least one permission")
      .transform((p) => [...new Set(p)].sort()),
    password: password.optional(),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof teamMemberInputs>;

const roleOf = (p: TeamMemberPermission) => TEAM_MEMBER_PERMISSIONS[p];
const permissionOf = (role: string) => PERMISSION_NAMES.find((p) => TEAM_MEMBER_PERMISSIONS[p] === role);

const teamMember = defineResource<TeamMemberOutputs>()({
  type: TEAM_MEMBER_TYPE,
  inputs: teamMemberInputs,
  computedOutputs: ["memberId"],
  idOutput: { name: "memberId", numeric: false },
  // An address is who the member is (the API keeps it); a password cannot be read back to compare.
  replaceOnChanges: ["email", "password"],
  identity: ["email"],
  // The API refuses a second member with one address (409).
  refusesDuplicates: true,
  secretInputs: ["password"],
  secretOutputs: ["password"],

  describe(member: TeamMemberInfo, requested: Inputs) {
    const permissions = member.Roles.map(permissionOf).filter((p): p is TeamMemberPermission => p !== undefined);
    return {
      id: member.Id,
      // The password is the program's: the API never answers it.
      inputs: { ...requested, email: member.Email.toLowerCase(), firstName: member.FirstName, lastName: member.LastName, permissions: [...new Set(permissions)].sort() },
      outputs: { memberId: member.Id },
    };
  },

  find: ({ client }, inputs) => client.teamMembers.findMemberByEmail(inputs.email),

  // A member taken over (adopted, or ours after a lost answer) gets the program's password: the API cannot say whether
  // the one it has is the same. Its other values are the object's (adoption refuses a member that differs).
  async whenFound({ client }, member, inputs) {
    if (inputs.password === undefined) return member;
    await client.teamMembers.updateMember(member.Id, { Email: member.Email, FirstName: member.FirstName, LastName: member.LastName, Roles: member.Roles, Password: inputs.password });
    return client.teamMembers.getMember(member.Id);
  },

  create: ({ client }, inputs) =>
    client.teamMembers.addMember({ Email: inputs.email, FirstName: inputs.firstName, LastName: inputs.lastName, Roles: inputs.permissions.map(roleOf), Password: inputs.password }),

  importId: {
    ...ownIdOnly("memberId", false),
    notRead: "password: the API never answers it, and a new password replaces the member: import a member without declaring one",
  },

  get: ({ client }, id) => client.teamMembers.getMember(id),

  // No password: a new one replaces the member, so an update never carries one.
  async update({ client }, id, _state, inputs) {
    await client.teamMembers.updateMember(id, { Email: inputs.email, FirstName: inputs.firstName, LastName: inputs.lastName, Roles: inputs.permissions.map(roleOf) });
    return client.teamMembers.getMember(id);
  },

  delete: ({ client }, id) => client.teamMembers.deleteMember(id),
});

export interface TeamMemberArgs extends AdoptableArgs {
  /** The member's email address (compared without case). Changing it replaces the member. */
  email: pulumi.Input<string>;
  /** The member's first name. Changes in place. */
  firstName: pulumi.Input<string>;
  /** The member's last name. Changes in place. */
  lastName: pulumi.Input<string>;
  /** What the member may do (at least one); a set, so order is no change. Changes in place. */
  permissions: pulumi.Input<pulumi.Input<TeamMemberPermission>[]>;
  /**
   * The member's password (at least 12 characters with a lower-case and an upper-case letter, a digit and another
   * character): write-only in the API, always a secret in the state; changing it replaces the member. Without one the
   * member is invited to set their own.
   */
  password?: pulumi.Input<string>;
}

argsMatchSchema<TeamMemberArgs, typeof teamMemberInputs>(true);

/** What a TeamMember holds once deployed. */
export interface TeamMemberOutputs {
  /** The member's email address, in lower case. */
  email: string;
  /** The member's first name. */
  firstName: string;
  /** The member's last name. */
  lastName: string;
  /** What the member may do, sorted. */
  permissions: TeamMemberPermission[];
  /** The program's password: always a secret. */
  password: string | undefined;
  /** Whether an existing member of the address was to be taken over. */
  adoptExisting: boolean;
  /** The member's id in the API. */
  memberId: string;
}

export interface TeamMember extends OutputProperties<TeamMemberOutputs> {}
/** A member of the account's team with their permissions (`/team/member`; Terraform's `bunnynet_account_subuser`). */
export class TeamMember extends BunnyResource {
  constructor(name: string, args: TeamMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(teamMember, name, args, opts);
  }
}
