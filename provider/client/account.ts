import type { Transport } from "../http/transport";

/** TODO(stub): filled in by the account surface work. */
export class AccountClient {
  constructor(readonly http: Transport) {}
}
