import type { Transport } from "../http/transport";

/** TODO(stub): filled in by the stream surface work. */
export class StreamClient {
  constructor(readonly http: Transport, readonly settings: import("../settings").BunnySettings) {}
}
