import { type StructMessage, Struct } from "./sdkModules";
import type { Plain } from "./wire";

/**
 * google.protobuf.Struct (struct.proto) encoded straight to its wire bytes, the same bytes google-protobuf's
 * `Struct.fromJavaScript(v).serializeBinary()` gives (tests/unit/testing/structWire.test.ts compares them), at a
 * fraction of the CPU: google-protobuf builds a message object per value and encodes every string to UTF-8 one
 * character at a time in JavaScript; here strings go through Buffer's native encoder. The kit sends every resource's
 * properties (and `__provider`) this way in each RPC, so this is most of its protobuf work.
 *
 * What google-protobuf writes, and so this: a Struct is its `fields` map (field 1) as one entry per key, keys in
 * JavaScript's default sort order (jspb.Map serializeBinary sorts them), each entry `key` (1) then `value` (2); a
 * Value is the one field of its oneof that is set: null_value (1, enum 0), number_value (2, double), string_value
 * (3, also when empty), bool_value (4), struct_value (5), list_value (6, `values` = 1 per element). A value of
 * another JavaScript type (undefined, a function, a bigint) is refused as google-protobuf refuses it.
 */

/** Tags (field number << 3 | wire type) of the fields written. */
const STRUCT_ENTRY = 0x0a; // Struct.fields = 1, length-delimited
const ENTRY_KEY = 0x0a; // a map entry's key = 1, length-delimited
const ENTRY_VALUE = 0x12; // its value = 2, length-delimited
const LIST_ELEMENT = 0x0a; // ListValue.values = 1, length-delimited
const NULL_VALUE = 0x08; // 1, varint
const NUMBER_VALUE = 0x11; // 2, fixed64
const STRING_VALUE = 0x1a; // 3, length-delimited
const BOOL_VALUE = 0x20; // 4, varint
const STRUCT_VALUE = 0x2a; // 5, length-delimited
const LIST_VALUE = 0x32; // 6, length-delimited

/** NaN as google-protobuf writes it (jspb.utils.splitFloat64: all mantissa bits set), not the canonical 7ff8…. */
const JSPB_NAN = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);

/** Half of a UTF-16 surrogate pair without its other half (String.isWellFormed, which Node 18 lacks). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

class UnencodableError extends Error {}

const varintSize = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);
const delimitedSize = (bodySize: number) => 1 + varintSize(bodySize) + bodySize;

/**
 * Two passes: the sizes of every nested message first (recorded in the order they are written, as each is
 * length-prefixed), then the bytes into one buffer of the total size.
 */
class Encoder {
  private readonly sizes: number[] = [];
  private next = 0;
  private buffer = Buffer.alloc(0);
  private at = 0;

  encodeStruct(value: Plain): Buffer {
    const size = this.structSize(value);
    this.buffer = Buffer.allocUnsafe(size);
    this.writeStruct(value);
    return this.buffer;
  }

  private keysOf(value: Plain): string[] {
    // google-protobuf reads the keys with for…in (inherited enumerable ones too) and writes them sorted.
    const keys: string[] = [];
    for (const key in value) keys.push(key);
    return keys.sort();
  }

  private textSize(text: string): number {
    // Buffer writes a lone surrogate as U+FFFD, which google-protobuf may not: such text takes google-protobuf's path.
    if (LONE_SURROGATE.test(text)) throw new UnencodableError();
    return delimitedSize(Buffer.byteLength(text, "utf8"));
  }

  /** The size of a message body whose own size is recorded (filled in once its contents are counted). */
  private recorded(count: () => number): number {
    const slot = this.sizes.length;
    this.sizes.push(0);
    const size = count();
    this.sizes[slot] = size;
    return size;
  }

  private structSize(value: Plain): number {
    let size = 0;
    for (const key of this.keysOf(value)) {
      const entry = this.recorded(() => this.textSize(key) + delimitedSize(this.recorded(() => this.valueSize(value[key]))));
      size += delimitedSize(entry);
    }
    return size;
  }

  private valueSize(value: unknown): number {
    switch (typeof value) {
      case "string":
        return this.textSize(value);
      case "number":
        return 9;
      case "boolean":
        return 2;
      case "object":
        if (value === null) return 2;
        if (Array.isArray(value)) {
          const list = this.recorded(() => {
            let size = 0;
            for (let i = 0; i < value.length; i++) size += delimitedSize(this.recorded(() => this.valueSize(value[i])));
            return size;
          });
          return delimitedSize(list);
        }
        return delimitedSize(this.recorded(() => this.structSize(value as Plain)));
      default:
        throw new Error("Unexpected struct type.");
    }
  }

  private byte(b: number): void {
    this.buffer[this.at++] = b;
  }

  private varint(n: number): void {
    while (n > 127) {
      this.byte((n & 127) | 128);
      n >>>= 7;
    }
    this.byte(n);
  }

  /** A tag and the next recorded size. */
  private opening(tag: number): void {
    this.byte(tag);
    this.varint(this.sizes[this.next++]!);
  }

  private text(tag: number, text: string): void {
    this.byte(tag);
    this.varint(Buffer.byteLength(text, "utf8"));
    this.at += this.buffer.write(text, this.at, "utf8");
  }

  private writeStruct(value: Plain): void {
    for (const key of this.keysOf(value)) {
      this.opening(STRUCT_ENTRY);
      this.text(ENTRY_KEY, key);
      this.opening(ENTRY_VALUE);
      this.writeValue(value[key]);
    }
  }

  private writeValue(value: unknown): void {
    switch (typeof value) {
      case "string":
        this.text(STRING_VALUE, value);
        break;
      case "number":
        this.byte(NUMBER_VALUE);
        if (Number.isNaN(value)) this.at += JSPB_NAN.copy(this.buffer, this.at);
        else this.at = this.buffer.writeDoubleLE(value, this.at);
        break;
      case "boolean":
        this.byte(BOOL_VALUE);
        this.byte(value ? 1 : 0);
        break;
      default:
        if (value === null) {
          this.byte(NULL_VALUE);
          this.byte(0);
        } else if (Array.isArray(value)) {
          this.opening(LIST_VALUE);
          for (let i = 0; i < value.length; i++) {
            this.opening(LIST_ELEMENT);
            this.writeValue(value[i]);
          }
        } else {
          this.opening(STRUCT_VALUE);
          this.writeStruct(value as Plain);
        }
    }
  }
}

/**
 * A Struct message that the SDK's generated request classes serialize as `value`'s bytes (encoded above): its fields
 * map, which Struct.serializeBinaryToWriter asks for, writes them whole (BinaryWriter.writeSerializedMessage).
 * Only for sending: it has no fields to read back.
 */
export function structForSending(value: Plain): StructMessage {
  let bytes: Buffer;
  try {
    bytes = new Encoder().encodeStruct(value);
  } catch (e) {
    if (e instanceof UnencodableError) return Struct.fromJavaScript(value);
    throw e;
  }
  const struct = new (Struct as unknown as new () => StructMessage & { getFieldsMap: unknown })();
  struct.getFieldsMap = () => ({
    getLength: () => bytes.length,
    serializeBinary: (_field: number, writer: { writeSerializedMessage(bytes: Uint8Array, start: number, end: number): void }) =>
      writer.writeSerializedMessage(bytes, 0, bytes.length),
  });
  return struct;
}
