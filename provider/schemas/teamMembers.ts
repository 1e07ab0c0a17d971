import { z } from "zod";
import { answerObject, nullishStrings, nullishText } from "./common";

/**
 * Team members (`/team/member`, with the account's JWT). Source: BunnyWay/terraform-provider-bunnynet
 * internal/api/account_subuser.go: the fields Id, FirstName, LastName, Email, Password (sent, never answered), Roles
 * (lines 16-23); `GET /team/member/{id}` (lines 25-59, 404 when gone); `GET /team/member` as `{Items, CurrentPage,
 * TotalItems, HasMoreItems}` (lines 61-103); `POST /team/member` → 201 with the member (lines 105-141); `POST
 * /team/member/{id}` → 200 or 204 (lines 143-174); `DELETE` → 204 (lines 176-191); the role `Subuser` every member
 * has is not a permission (lines 193-199). Errors are core's `{Message}` (internal/utils/utils.go ExtractErrorMessage).
 * The roles a permission is (teamMemberEnums.ts) and the password policy (at least 12
 * characters with a lower-case and an upper-case letter, a digit and another character:
 * internal/provider/resource_account_subuser.go lines 96-111).
 */

export { TEAM_MEMBER_PERMISSIONS } from "./teamMemberEnums";

/** The role every member has, which is no permission. */
export const MEMBER_ROLE = "Subuser";

/** What the password must hold, each with what to say when it does not. */
export const TEAM_MEMBER_PASSWORD_RULES: readonly [RegExp, string][] = [
  [/^.{12,}$/s, "must be at least 12 characters"],
  [/[a-z]/, "must contain a lower-case letter"],
  [/[A-Z]/, "must contain an upper-case letter"],
  [/[0-9]/, "must contain a digit"],
  [/[^a-zA-Z0-9]/, "must contain a character other than a letter or digit"],
];

/** An email address as the Terraform provider checks it: a local part, `@`, and a domain with a dot. */
export const TEAM_MEMBER_EMAIL = /^[^@\s]+@[^.@\s]+\.[^@\s]*[^.@\s]$/;

export const TeamMemberSchema = answerObject({
  Id: z.string().min(1),
  FirstName: nullishText,
  LastName: nullishText,
  Email: nullishText,
  Roles: nullishStrings,
});

export const TeamMemberPageSchema = z.object({
  Items: z.array(TeamMemberSchema).nullish().transform((i) => i ?? []),
  CurrentPage: z.number().nullish(),
  TotalItems: z.number().nullish(),
  HasMoreItems: z.boolean().nullish(),
});

/** Body of `POST /team/member` and `POST /team/member/{id}` (the update sends no password unless it sets one). */
export const TeamMemberRequestSchema = z
  .object({
    FirstName: z.string().min(1),
    LastName: z.string().min(1),
    Email: z.string().regex(TEAM_MEMBER_EMAIL, "must be an email address"),
    Password: z.string().min(12).optional(),
    Roles: z.array(z.string().min(1)).min(1),
  })
  .strict();

export type TeamMemberInfo = z.output<typeof TeamMemberSchema>;
export type TeamMemberRequest = z.input<typeof TeamMemberRequestSchema>;
