import { z } from "zod";

/** `GET /apikey` query: the API refuses page outside 1..2147483647 and perPage outside 5..1000. */
export const ApiKeyListQuerySchema = z
  .object({
    page: z.number().int().min(1).max(2147483647).default(1),
    perPage: z.number().int().min(5).max(1000).default(1000),
  })
  .strict();

export const ApiKeySchema = z.object({
  Id: z.number(),
  /** The key value: a secret. Nullable in core-api-v1.0.0.json (ApiKeyModel.Key). */
  Key: z
    .string()
    .nullish()
    .transform((k) => k ?? null),
  Roles: z.array(z.string()).nullish().transform((r) => r ?? []),
});

export const ApiKeyPageSchema = z.object({
  Items: z.array(ApiKeySchema).nullish().transform((i) => i ?? []),
  CurrentPage: z.number(),
  TotalItems: z.number(),
  HasMoreItems: z.boolean(),
});

export type ApiKeyListQuery = z.input<typeof ApiKeyListQuerySchema>;
export type ApiKey = z.output<typeof ApiKeySchema>;
export type ApiKeyPage = z.output<typeof ApiKeyPageSchema>;
