import { ValidationError } from "../http/errors";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { CloseAccountRequestSchema, CloseAccountResponseSchema } from "../schemas/account";
import type { CloseAccountResponse } from "../types.generated";

const PATH = "/user/closeaccount";

/** The account itself. */
export class AccountClient {
  constructor(private readonly http: Transport) {}

  /**
   * Closes the account: irreversible, so it is sent exactly once (RetryPolicy "never"), whatever happens.
   * A refusal (`400 {Success:false, Message}`) is a ValidationError carrying the server's message.
   * The password is never part of an error or log line.
   */
  async closeAccount(options: { password: string; reason?: string }): Promise<CloseAccountResponse> {
    const body = validateRequest(CloseAccountRequestSchema, { Password: options.password, Reason: options.reason }, "POST", PATH);
    const res = await this.http.request({ api: "core", method: "POST", path: PATH, json: body, retry: "never", responseSchema: CloseAccountResponseSchema });
    if (!res.body.Success) throw new ValidationError({ method: "POST", path: PATH, status: res.status, serverMessage: res.body.Message || "the account was not closed" });
    return res.body;
  }
}
