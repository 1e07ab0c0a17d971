import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import { CollectionRequestSchema } from "../schemas/stream";
import type { Collection } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { numericPart } from "../pulumi/importIds";

/**
 * A collection of a Stream video library.
 *
 * Sources: stream-api-v1.5.23.json (Collection_CreateCollection, Collection_GetCollection, Collection_UpdateCollection,
 * Collection_DeleteCollection, Collection_List; UpdateCollectionModel, CollectionModel), the Terraform resource
 * bunnynet_stream_collection (terraform-attributes-v0.15.1.txt: `library` replaces, `name` changes in place; its
 * attributes are the floor). The name changes in place (Collection_UpdateCollection); another library is another
 * collection. Collections are found by name for `adoptExisting` (the listing's `search`, then an exact match).
 * Deleting the library deletes its collections: a collection already gone is deleted.
 */

export const STREAM_COLLECTION_TYPE = "StreamCollection";

const streamCollectionInputs = z
  .object({
    libraryId: idFromString,
    name: CollectionRequestSchema.shape.name,
    libraryKey: z.string().min(1, "must not be empty").optional(),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof streamCollectionInputs>;
const keyOf = (inputs: { libraryKey?: string }) => ({ libraryKey: inputs.libraryKey });

const streamCollection = defineResource<StreamCollectionOutputs>()({
  type: STREAM_COLLECTION_TYPE,
  inputs: streamCollectionInputs,
  computedOutputs: ["collectionId"],
  replaceOnChanges: ["libraryId"],
  identity: ["libraryId", "name"],
  secretInputs: ["libraryKey"],
  // The library key is stored encrypted whatever the program passed.
  secretOutputs: ["libraryKey"],

  importId: {
    format: "<libraryId>/<collectionId>",
    parse: ([libraryId, collectionId]) => ({ id: `${libraryId}/${collectionId}`, state: { libraryId: numericPart(libraryId, "libraryId"), collectionId } }),
  },
  describe(collection: Collection, requested: Inputs) {
    return {
      id: `${collection.videoLibraryId}/${collection.guid}`,
      inputs: { ...requested, name: collection.name ?? requested.name },
      outputs: { collectionId: collection.guid },
    };
  },

  find: ({ client }, inputs) => client.stream.findCollectionByName(inputs.libraryId, inputs.name, keyOf(inputs)),

  create: ({ client }, inputs) => client.stream.createCollection(inputs.libraryId, inputs.name, keyOf(inputs)),

  get: ({ client }, _id, state) => client.stream.getCollection(state.libraryId, state.collectionId, keyOf(state)),

  async update({ client }, _id, state, inputs) {
    if (inputs.name !== state.name) await client.stream.renameCollection(state.libraryId, state.collectionId, inputs.name, keyOf(inputs));
    return client.stream.getCollection(state.libraryId, state.collectionId, keyOf(inputs));
  },

  delete: ({ client }, _id, state) => client.stream.deleteCollection(state.libraryId, state.collectionId, keyOf(state)),
});

export interface StreamCollectionArgs extends AdoptableArgs {
  /** The video library (e.g. `VideoLibrary.libraryId`). Changing it replaces the collection. */
  libraryId: pulumi.Input<NumericId>;
  /** The collection's name (1..200 characters; with `adoptExisting`, what finds it). Changes in place. */
  name: pulumi.Input<string>;
  /** The library's API key. Omitted: looked up with the account key. Always stored as a secret. */
  libraryKey?: pulumi.Input<string>;
}

argsMatchSchema<StreamCollectionArgs, typeof streamCollectionInputs>(true);

/** What a StreamCollection holds once deployed. */
export interface StreamCollectionOutputs {
  libraryId: number;
  name: string;
  libraryKey: string | undefined;
  adoptExisting: boolean;
  /** The collection's id (guid): what `StreamVideo.collectionId` takes. */
  collectionId: string;
}

export interface StreamCollection extends OutputProperties<StreamCollectionOutputs> {}
/** A collection of videos in a Stream library (`/library/{libraryId}/collections`). */
export class StreamCollection extends BunnyResource {
  constructor(name: string, args: StreamCollectionArgs, opts?: pulumi.CustomResourceOptions) {
    super(streamCollection, name, args, opts);
  }
}
