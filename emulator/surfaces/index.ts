import type { EmulatorSurface } from "../context";
import { accountSurface } from "./account";
import { pullZonesSurface } from "./pullZones";
import { loggingSurface } from "./logging/routes";
import { shieldSurface } from "./shield";
import { shieldZonesSurface } from "./shieldZones";
import { shieldWafRulesSurface } from "./shieldWafRules";
import { shieldAccessListsSurface } from "./shieldAccessLists";
import { shieldZoneFeaturesSurface } from "./shieldZoneFeatures";
import { shieldWafEngineSurface } from "./shieldWafEngine";
import { streamSurface } from "./stream";
import { streamVideosSurface } from "./streamVideos";
import { streamTusSurface } from "./streamTus";
import { videoLibrariesSurface } from "./videoLibraries";
import { containersSurface } from "./containers/routes";
import { dnsSurface } from "./dns/routes";
import { edgeScriptsSurface } from "./edgeScripts/routes";
import { storageZonesSurface } from "./storageZones";
import { storageSurface } from "./storage";
import { accountJwtSurface } from "./accountJwt";
import { edgeDatabasesSurface } from "./edgeDatabases";
import { teamMembersSurface } from "./teamMembers";

/** Every surface of the emulator, in seeding order (later ones may use earlier fixtures). */
export const surfaces: EmulatorSurface[] = [
  accountSurface,
  pullZonesSurface,
  loggingSurface,
  shieldSurface,
  shieldZonesSurface,
  shieldWafRulesSurface,
  shieldAccessListsSurface,
  shieldZoneFeaturesSurface,
  shieldWafEngineSurface,
  streamSurface,
  streamVideosSurface,
  streamTusSurface,
  videoLibrariesSurface,
  containersSurface,
  edgeScriptsSurface,
  storageZonesSurface,
  storageSurface,
  dnsSurface,
  accountJwtSurface,
  edgeDatabasesSurface,
  teamMembersSurface,
];
