import { Transport } from "../http/transport";
import { type BunnySettings, type SettingsInput, hideKey, resolveSettings } from "../settings";
import { AccountClient } from "./account";
import { ApiKeysClient } from "./apiKeys";
import { ContainersClient } from "./containers";
import { DatabasesClient } from "./databases";
import { DnsClient } from "./dns";
import { EdgeScriptsClient } from "./edgeScripts";
import { LoggingClient } from "./logging";
import { PullZonesClient } from "./pullZones";
import { ShieldClient } from "./shield";
import { ShieldAccessListsClient } from "./shieldAccessLists";
import { ShieldWafRulesClient } from "./shieldWafRules";
import { StorageClient } from "./storage";
import { StorageZonesClient } from "./storageZones";
import { ShieldZonesClient } from "./shieldZones";
import { StreamClient } from "./stream";
import { TeamMembersClient } from "./teamMembers";
import { VideoLibrariesClient } from "./videoLibraries";

/** The typed client for every operation the package uses: one module per API surface over one transport. */
export class BunnyClient {
  readonly http: Transport;
  readonly settings: BunnySettings;
  readonly account: AccountClient;
  readonly apiKeys: ApiKeysClient;
  readonly containers: ContainersClient;
  /** Edge databases (with the account's JWT). */
  readonly databases: DatabasesClient;
  readonly dns: DnsClient;
  readonly edgeScripts: EdgeScriptsClient;
  readonly logging: LoggingClient;
  readonly pullZones: PullZonesClient;
  readonly shield: ShieldClient;
  /** A Shield zone's custom WAF rules. */
  readonly wafRules: ShieldWafRulesClient;
  /** A Shield zone's access lists. */
  readonly accessLists: ShieldAccessListsClient;
  readonly storageZones: StorageZonesClient;
  /** A zone's files (the Storage API, with the zone's password). */
  readonly storage: StorageClient;
  readonly shieldZones: ShieldZonesClient;
  readonly stream: StreamClient;
  readonly videoLibraries: VideoLibrariesClient;
  /** The account's team members (with the account's JWT). */
  readonly teamMembers: TeamMembersClient;

  /**
   * Takes resolved settings, or partial ones completed from BUNNYNET_* environment variables. `settings` is a copy
   * that `util.inspect` and `JSON.stringify` show without the key.
   */
  constructor(settings: BunnySettings | SettingsInput = {}) {
    this.settings = hideKey(isResolved(settings) ? settings : resolveSettings(settings));
    this.http = new Transport(this.settings);
    this.account = new AccountClient(this.http);
    this.apiKeys = new ApiKeysClient(this.http);
    this.containers = new ContainersClient(this.http);
    this.databases = new DatabasesClient(this.http);
    this.dns = new DnsClient(this.http);
    this.edgeScripts = new EdgeScriptsClient(this.http);
    this.logging = new LoggingClient(this.http);
    this.pullZones = new PullZonesClient(this.http);
    this.shield = new ShieldClient(this.http);
    this.wafRules = new ShieldWafRulesClient(this.http);
    this.accessLists = new ShieldAccessListsClient(this.http);
    this.storageZones = new StorageZonesClient(this.http);
    this.storage = new StorageClient(this.http, this.storageZones);
    this.shieldZones = new ShieldZonesClient(this.http);
    this.stream = new StreamClient(this.http, this.settings);
    this.videoLibraries = new VideoLibrariesClient(this.http);
    this.teamMembers = new TeamMembersClient(this.http);
  }

  /** Keeps the key out of console.log / util.inspect of the client. */
  toJSON(): unknown {
    return { apiUrl: this.settings.apiUrl };
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `BunnyClient { apiUrl: ${this.settings.apiUrl} }`;
  }
}

function isResolved(s: BunnySettings | SettingsInput): s is BunnySettings {
  return typeof (s as BunnySettings).timeoutMs === "number" && typeof (s as BunnySettings).streamApiUrl === "string" && typeof (s as BunnySettings).retryBaseDelayMs === "number";
}
