/**
 * A team member's permissions by name, with the API role each is (BunnyWay/terraform-provider-bunnynet
 * internal/provider/enums_static.go lines 5-11, its names). Plain values without schemas, so public declarations can
 * name them; schemas/teamMembers.ts builds on them.
 */
export const TEAM_MEMBER_PERMISSIONS = { zones: "SubuserManage", billing: "SubuserBilling", support: "SubuserSupport", abuse: "SubuserAbuse", users: "SubuserUsers" } as const;

/** A permission of a team member, by name: manage zones, billing, support, abuse reports, users. */
export type TeamMemberPermission = keyof typeof TEAM_MEMBER_PERMISSIONS;
