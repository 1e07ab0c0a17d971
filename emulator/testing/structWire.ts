import { type StructMessage, Struct } from "./sdkModules";
import type { Plain } from "./wire";

/**
 * google.protobuf.Struct (struct.proto) encoded straight to its wire bytes, the same bytes google-protobuf's
 * `Struct.fromJavaScript(v).serializeBinary()` gives (tests/unit/testing/structWire.test.ts compares them), and
 * decoded to the same JavaScript values as its `Struct.deserializeBinary(b).toJavaScript()`, at a fraction of the
 * CPU: google-protobuf builds a message object per value and converts every string between UTF-16 and UTF-8 one
 * character at a time in JavaScript; here strings go through Buffer's native codec. The kit sends and receives
 * every resource's properties (and `__provider`) in each RPC, so this was most of its protobuf work.
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

/** What this file leaves to google-protobuf (rare forms whose exact handling is its own). */
class UnusualError extends Error {}

const varintSize = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);
const delimitedSize = (bodySize: number) => 1 + varintSize(bodySize) + bodySize;

/**
 * Two passes: the sizes of every nested message and text first (recorded in the order they are written, as each is
 * length-prefixed), with each object's sorted keys, then the bytes into one buffer of the total size.
 */
class Encoder {
  private readonly sizes: number[] = [];
  private next = 0;
  private readonly keyLists: string[][] = [];
  private nextKeys = 0;
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
    if (LONE_SURROGATE.test(text)) throw new UnusualError();
    const length = Buffer.byteLength(text, "utf8");
    this.sizes.push(length);
    return delimitedSize(length);
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
    const keys = this.keysOf(value);
    this.keyLists.push(keys);
    for (const key of keys) {
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

  /** A tag, the text's recorded length, and the text. */
  private text(tag: number, text: string): void {
    this.byte(tag);
    this.varint(this.sizes[this.next++]!);
    this.at += this.buffer.write(text, this.at, "utf8");
  }

  private writeStruct(value: Plain): void {
    for (const key of this.keyLists[this.nextKeys++]!) {
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
    if (e instanceof UnusualError) return Struct.fromJavaScript(value);
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

/** A Struct's bytes read into plain values; anything unusual (see `readStruct`) is read by google-protobuf instead. */
export function structFromBytes(bytes: Buffer): Plain {
  try {
    return new Decoder(bytes).readStruct(0, bytes.length);
  } catch (e) {
    if (!(e instanceof UnusualError)) throw e;
    return (Struct as unknown as { deserializeBinary(b: Uint8Array): StructMessage }).deserializeBinary(bytes).toJavaScript();
  }
}

/**
 * Reads what google-protobuf's toJavaScript would give for the Structs the plugin (google-protobuf itself) writes.
 * Unusual, and so left to google-protobuf: a field or wire type struct.proto does not have, an entry without its key
 * or value, a Value with no kind, a repeated key, the key `__proto__`, text that is not valid UTF-8 (decoded to
 * U+FFFD here). Keys come out in sorted order, as google-protobuf's map forEach gives them.
 */
class Decoder {
  private at = 0;
  constructor(private readonly bytes: Buffer) {}

  private varint(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.bytes[this.at++];
      if (b === undefined) throw new UnusualError();
      result += (b & 127) * 2 ** shift;
      if (b < 128) return result;
    }
    throw new UnusualError();
  }

  /** The tag of the next field, which must start before `end`. */
  private tag(end: number): number {
    if (this.at >= end) throw new UnusualError();
    return this.bytes[this.at++]!;
  }

  /** The end of the length-delimited field whose length comes next. */
  private delimitedEnd(end: number): number {
    const length = this.varint();
    const fieldEnd = this.at + length;
    if (fieldEnd > end) throw new UnusualError();
    return fieldEnd;
  }

  private text(end: number): string {
    const fieldEnd = this.delimitedEnd(end);
    const text = this.bytes.toString("utf8", this.at, fieldEnd);
    if (text.includes("\uFFFD")) throw new UnusualError();
    this.at = fieldEnd;
    return text;
  }

  readStruct(start: number, end: number): Plain {
    this.at = start;
    const entries: [string, unknown][] = [];
    while (this.at < end) {
      if (this.tag(end) !== STRUCT_ENTRY) throw new UnusualError();
      const entryEnd = this.delimitedEnd(end);
      if (this.tag(entryEnd) !== ENTRY_KEY) throw new UnusualError();
      const key = this.text(entryEnd);
      if (this.tag(entryEnd) !== ENTRY_VALUE) throw new UnusualError();
      const valueEnd = this.delimitedEnd(entryEnd);
      if (valueEnd !== entryEnd) throw new UnusualError();
      entries.push([key, this.readValue(valueEnd)]);
    }
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const result: Plain = {};
    for (let i = 0; i < entries.length; i++) {
      const [key, value] = entries[i]!;
      if (key === "__proto__" || (i > 0 && entries[i - 1]![0] === key)) throw new UnusualError();
      result[key] = value;
    }
    return result;
  }

  /** One Value, which ends at `end`: exactly one kind. */
  private readValue(end: number): unknown {
    let value: unknown;
    switch (this.tag(end)) {
      case NULL_VALUE:
        if (this.varint() !== 0) throw new UnusualError();
        value = null;
        break;
      case NUMBER_VALUE:
        if (this.at + 8 > end) throw new UnusualError();
        value = this.bytes.readDoubleLE(this.at);
        this.at += 8;
        break;
      case STRING_VALUE:
        value = this.text(end);
        break;
      case BOOL_VALUE: {
        const b = this.varint();
        if (b > 1) throw new UnusualError();
        value = b === 1;
        break;
      }
      case STRUCT_VALUE: {
        const structEnd = this.delimitedEnd(end);
        value = this.readStruct(this.at, structEnd);
        break;
      }
      case LIST_VALUE: {
        const listEnd = this.delimitedEnd(end);
        const list: unknown[] = [];
        while (this.at < listEnd) {
          if (this.tag(listEnd) !== LIST_ELEMENT) throw new UnusualError();
          const elementEnd = this.delimitedEnd(listEnd);
          list.push(this.readValue(elementEnd));
        }
        value = list;
        break;
      }
      default:
        throw new UnusualError();
    }
    if (this.at !== end) throw new UnusualError();
    return value;
  }
}

/**
 * A response's top-level fields parted: the Struct fields named in `structFields` decoded (the last of a repeated
 * one, as google-protobuf keeps), and the bytes of all the others, for the generated response class to read.
 */
export function partResponse(bytes: Buffer, structFields: readonly number[]): { rest: Buffer; structs: Map<number, Plain> } {
  const structs = new Map<number, Plain>();
  const rest: Buffer[] = [];
  const reader = new FieldReader(bytes);
  while (!reader.done()) {
    const { field, start, bodyStart, end } = reader.next();
    if (structFields.includes(field) && bodyStart !== undefined) structs.set(field, structFromBytes(bytes.subarray(bodyStart, end)));
    else rest.push(bytes.subarray(start, end));
  }
  return { rest: rest.length === 1 ? rest[0]! : Buffer.concat(rest), structs };
}

/** The top-level fields of a message, by wire type (a malformed message is an error, as google-protobuf's). */
class FieldReader {
  private at = 0;
  constructor(private readonly bytes: Buffer) {}

  done(): boolean {
    return this.at >= this.bytes.length;
  }

  private varint(): number {
    let result = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      const b = this.bytes[this.at++];
      if (b === undefined) break;
      result += (b & 127) * 2 ** shift;
      if (b < 128) return result;
    }
    throw new Error("malformed protobuf message: a varint runs past its end");
  }

  /** The next field: where it starts, where its body starts if length-delimited, and its end. */
  next(): { field: number; start: number; bodyStart?: number; end: number } {
    const start = this.at;
    const tag = this.varint();
    const field = Math.floor(tag / 8);
    let bodyStart: number | undefined;
    switch (tag % 8) {
      case 0:
        this.varint();
        break;
      case 1:
        this.at += 8;
        break;
      case 2: {
        const length = this.varint();
        bodyStart = this.at;
        this.at += length;
        break;
      }
      case 5:
        this.at += 4;
        break;
      default:
        throw new Error(`malformed protobuf message: wire type ${tag % 8} of field ${field}`);
    }
    if (this.at > this.bytes.length) throw new Error(`malformed protobuf message: field ${field} runs past its end`);
    return { field, start, bodyStart, end: this.at };
  }
}
