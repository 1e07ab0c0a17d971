import type { Transport } from "../http/transport";

/** TODO(stub): filled in by the shield surface work. */
export class ShieldClient {
  constructor(readonly http: Transport) {}
}
