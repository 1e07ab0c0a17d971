import { z } from "zod";
import { numericEnum } from "./common";
import { GenericRequestResponseSchema } from "./shield";
import { AccessListAction, AccessListType } from "./shieldEnums";

/**
 * Shield access lists (`/shield/shield-zone/{shieldZoneId}/access-lists*`), derived from shield-api-v1.0.0.json:
 * CreateCustomAccessListRequest (name, type and content required), UpdateCustomAccessListRequest (name and content;
 * null keeps the current one), UpdateAccessListConfigurationRequest (isEnabled, action), CustomAccessList and
 * CustomAccessListResponse, AccessListDetails and AccessListsDetailsResponse (the zone's managed and custom lists,
 * each with the configuration that holds its action and switch). Content is the entries, one a line.
 *
 * Beyond the document (a list the API could not use otherwise): a non-blank name, at least one entry, no blank entry,
 * no entry with a line break (it would split in two), no entry twice.
 */

export const accessListType = numericEnum(AccessListType);
export const accessListAction = numericEnum(AccessListAction);

const name = z.string().trim().min(1, "must not be empty");

/** A list's entries: one a line on the wire. */
export const accessListEntries = z
  .array(z.string().trim().min(1, "must not be empty").refine((e) => !/[\r\n]/.test(e), { message: "must not contain a line break" }))
  .min(1, "must hold at least one entry")
  .refine((a) => new Set(a).size === a.length, { message: "must not repeat an entry" });

/** `POST /shield/shield-zone/{shieldZoneId}/access-lists`. */
export const CreateAccessListRequestSchema = z.strictObject({
  name,
  description: z.string().nullish(),
  type: accessListType.schema,
  content: z.string().min(1, "must hold at least one entry"),
  checksum: z.string().nullish(),
});

/** `PATCH /shield/shield-zone/{shieldZoneId}/access-lists/{id}`: the name and content (a field left out stays). */
export const UpdateAccessListRequestSchema = z.strictObject({
  name: name.nullish(),
  content: z.string().min(1, "must hold at least one entry").nullish(),
  checksum: z.string().nullish(),
});

/** `PATCH /shield/shield-zone/{shieldZoneId}/access-lists/configurations/{id}`: what a matching request meets. */
export const UpdateAccessListConfigurationRequestSchema = z.strictObject({
  isEnabled: z.boolean().nullish(),
  action: accessListAction.schema.optional(),
});

// Responses: tolerant (enum fields accept any number, unknown fields ignored).

/** CustomAccessList. */
export const CustomAccessListSchema = z.object({
  id: z.number(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  type: z.number().nullish(),
  content: z.string().nullish(),
  checksum: z.string().nullish(),
  entryCount: z.number().nullish(),
  lastModified: z.string().nullish(),
});

/** AccessListDetails: a list of the zone with its configuration (action, switch). */
export const AccessListDetailsSchema = z.object({
  listId: z.number(),
  configurationId: z.number(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  isEnabled: z.boolean(),
  type: z.number().nullish(),
  category: z.number().nullish(),
  action: z.number(),
  requiredPlan: z.number().nullish(),
  entryCount: z.number().nullish(),
  updateFrequency: z.string().nullish(),
  lastUpdated: z.string().nullish(),
});

/** AccessListsDetailsResponse (`GET /shield/shield-zone/{shieldZoneId}/access-lists`). */
export const AccessListsSchema = z.object({
  managedLists: z
    .array(AccessListDetailsSchema)
    .nullish()
    .transform((d) => d ?? []),
  customLists: z
    .array(AccessListDetailsSchema)
    .nullish()
    .transform((d) => d ?? []),
  customEntryCount: z.number().nullish(),
  customEntryLimit: z.number().nullish(),
  customListCount: z.number().nullish(),
  customListLimit: z.number().nullish(),
  error: GenericRequestResponseSchema.nullish(),
});

export type CreateAccessListInput = z.input<typeof CreateAccessListRequestSchema>;
export type UpdateAccessListInput = z.input<typeof UpdateAccessListRequestSchema>;
export type UpdateAccessListConfigurationInput = z.input<typeof UpdateAccessListConfigurationRequestSchema>;
export type CustomAccessList = z.output<typeof CustomAccessListSchema>;
export type AccessListDetails = z.output<typeof AccessListDetailsSchema>;
export type AccessLists = z.output<typeof AccessListsSchema>;
