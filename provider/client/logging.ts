import type { Transport } from "../http/transport";

/** TODO(stub): filled in by the logging surface work. */
export class LoggingClient {
  constructor(readonly http: Transport) {}
}
