import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { MEMBER_ROLE, TeamMemberPageSchema, TeamMemberRequestSchema, TeamMemberSchema } from "../schemas/teamMembers";
import type { TeamMemberInfo, TeamMemberRequest } from "../types.generated";

/** A member as read: without the role every member has (schemas/teamMembers.ts). */
const withoutMemberRole = (m: TeamMemberInfo): TeamMemberInfo => ({ ...m, Roles: m.Roles.filter((r) => r !== MEMBER_ROLE) });

/**
 * The account's team members (`/team/member`), every request with the account's JWT (`auth: "accountJwt"`). The API
 * and its sources: schemas/teamMembers.ts. A password is sent, never read back.
 */
export class TeamMembersClient {
  constructor(private readonly http: Transport) {}

  async listMembers(): Promise<TeamMemberInfo[]> {
    const res = await this.http.request({ api: "core", method: "GET", path: "/team/member", auth: "accountJwt", responseSchema: TeamMemberPageSchema });
    return res.body.Items.map(withoutMemberRole);
  }

  /** The member with that email address (compared without case), or undefined. */
  async findMemberByEmail(email: string): Promise<TeamMemberInfo | undefined> {
    const wanted = email.trim().toLowerCase();
    return (await this.listMembers()).find((m) => m.Email.toLowerCase() === wanted);
  }

  /** The member; NotFoundError when gone. */
  async getMember(id: string): Promise<TeamMemberInfo> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("team", "member", id), auth: "accountJwt", responseSchema: TeamMemberSchema });
    return withoutMemberRole(res.body);
  }

  /** Adds a member (a create: not repeated after a 5xx or timeout); answers it. */
  async addMember(request: TeamMemberRequest): Promise<TeamMemberInfo> {
    const body = validateRequest(TeamMemberRequestSchema, request, "POST", "/team/member");
    const res = await this.http.request({ api: "core", method: "POST", path: "/team/member", json: body, auth: "accountJwt", retry: "create", responseSchema: TeamMemberSchema });
    return withoutMemberRole(res.body);
  }

  /** Sets the member's names and roles (and a password, when given): absolute values, safe to repeat. */
  async updateMember(id: string, request: TeamMemberRequest): Promise<void> {
    const path = encodePath("team", "member", id);
    const body = validateRequest(TeamMemberRequestSchema, request, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, auth: "accountJwt", retry: "idempotent" });
  }

  async deleteMember(id: string): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("team", "member", id), auth: "accountJwt" });
  }
}
