import { z } from "zod";

/**
 * `POST /apikey/exchange`: the account key for a JWT that the edge-database and team-member APIs take
 * (BunnyWay/terraform-provider-bunnynet internal/api/client.go lines 84-127, getJWTToken: body `{AccessKey}`, answer
 * `{Token}`, an empty token refused). Not in core-api-v1.0.0.json.
 */
export const JwtExchangeAnswerSchema = z.object({ Token: z.string().min(1, "the exchange answered no token") });

export type JwtExchangeAnswer = z.output<typeof JwtExchangeAnswerSchema>;
