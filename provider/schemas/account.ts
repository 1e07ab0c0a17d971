import { z } from "zod";

/** `POST /user/closeaccount` (CloseAccountRequestModel / CloseAccountResponseModel). */

/** The API accepts a null password and then refuses it; the client refuses it before sending. */
export const CloseAccountRequestSchema = z
  .object({
    Password: z.string().min(1, "the account password is required"),
    Reason: z.string().nullish(),
  })
  .strict();

/** The answer to a close, for 200 and 400 alike. */
export const CloseAccountResponseSchema = z.object({
  Success: z.boolean(),
  Message: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
});

export type CloseAccountRequest = z.input<typeof CloseAccountRequestSchema>;
export type CloseAccountResponse = z.output<typeof CloseAccountResponseSchema>;
