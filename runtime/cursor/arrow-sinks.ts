/**
 * Where the Arrow table builder puts one column's values: fixed-width columns fill typed arrays
 * directly, strings are UTF-8 encoded straight into one growing buffer, the rest use Arrow builders.
 */
import type { Builder, Data, DataType, Utf8 } from "apache-arrow";
import type { TypedColumn } from "../driver/query-result.js";
import { arrow } from "./load-arrow.js";
import { LibError } from "../errors.js";

export type FixedArray = Int32Array | BigInt64Array | Float64Array | Uint32Array;

/** Copies a typed column's values into `values` from element `at` on (already converted to this sink's layout). */
export type TypedCopy = (values: FixedArray, at: number, column: TypedColumn) => void;

/** Where one column's values go: fixed-width columns fill typed arrays directly, the rest use Arrow builders. */
export interface ColumnSink {
  /** The Arrow type of the column's values. */
  readonly type: DataType;
  /** Appends one chunk's values of this column. */
  append(values: readonly unknown[]): void;
  /** Makes room for `rows` more rows at once (a batch of known size grows no buffer row by row). */
  reserve(rows: number): void;
  /** The column's values as Arrow data. */
  finish(): Data;
}

export class BuilderSink implements ColumnSink {
  readonly #builder: Builder;
  constructor(
    readonly type: DataType,
    readonly toArrow: (value: unknown) => unknown,
  ) {
    this.#builder = arrow().makeBuilder({ type, nullValues: [null, undefined] });
  }
  reserve(): void {
    // Arrow builders grow their own buffers.
  }
  append(values: readonly unknown[]): void {
    const builder = this.#builder;
    for (const v of values) builder.append(v === null || v === undefined ? null : this.toArrow(v));
  }
  finish(): Data {
    return this.#builder.finish().flush();
  }
}

/**
 * A fixed-width column written straight into a growing typed array plus a validity bitmap; with a
 * `copy`, it also takes the driver's typed columns whole (no value converted one by one).
 */
export class FixedSink implements ColumnSink {
  #values: FixedArray;
  #validity = new Uint8Array(0);
  #length = 0;
  #nulls = 0;
  constructor(
    readonly type: DataType,
    readonly make: (size: number) => FixedArray,
    readonly stride: number,
    readonly write: (values: FixedArray, at: number, value: unknown) => void,
    readonly copy?: TypedCopy,
  ) {
    this.#values = make(0);
  }
  /** Room for `rows` more rows (values and validity bits). */
  reserve(rows: number): void {
    const needed = (this.#length + rows) * this.stride;
    if (needed > this.#values.length) {
      const grown = this.make(Math.max(needed, this.#values.length * 2));
      grown.set(this.#values as never);
      this.#values = grown;
    }
    const bytes = Math.ceil((this.#length + rows) / 8);
    if (bytes > this.#validity.length) this.#validity = grown(this.#validity, bytes, (n) => new Uint8Array(n));
  }
  /** Appends a typed column (only sinks made with a `copy` take them). */
  appendTyped(column: TypedColumn): void {
    if (this.copy === undefined) throw new LibError(`fetchArrow(): no typed copy into ${String(this.type)}`);
    this.reserve(column.length);
    this.copy(this.#values, this.#length * this.stride, column);
    this.#nulls += appendValidity(this.#validity, this.#length, column.validity, column.length);
    this.#length += column.length;
  }
  append(rows: readonly unknown[]): void {
    this.reserve(rows.length);
    const values = this.#values;
    const validity = this.#validity;
    let i = this.#length;
    for (const v of rows) {
      if (v === null || v === undefined) this.#nulls++;
      else {
        validity[i >> 3]! |= 1 << (i & 7);
        this.write(values, i * this.stride, v);
      }
      i++;
    }
    this.#length = i;
  }
  finish(): Data {
    const length = this.#length;
    return arrow().makeData({
      type: this.type,
      length,
      nullCount: this.#nulls,
      nullBitmap: this.#nulls === 0 ? new Uint8Array(0) : this.#validity.subarray(0, Math.ceil(length / 8)),
      data: this.#values.subarray(0, length * this.stride),
    } as never) as Data;
  }
}

/** Largest Utf8 data buffer (Arrow's 32-bit offsets). */
const MAX_UTF8_BYTES = 2 ** 31 - 1;

/** A `Utf8` column: strings encoded with Buffer.write (no per-value allocation) plus offsets and validity. */
export class Utf8Sink implements ColumnSink {
  #offsets = new Int32Array(1);
  #bytes: Buffer = Buffer.allocUnsafe(1 << 16);
  #validity = new Uint8Array(0);
  #length = 0;
  #byteLength = 0;
  #nulls = 0;
  readonly type: Utf8 = new (arrow().Utf8)();
  constructor(readonly toString: (value: unknown) => string) {}

  reserve(more: number): void {
    const rows = this.#length + more;
    if (rows + 1 > this.#offsets.length) this.#offsets = grown(this.#offsets, rows + 1, (n) => new Int32Array(n));
    if (Math.ceil(rows / 8) > this.#validity.length)
      this.#validity = grown(this.#validity, Math.ceil(rows / 8), (n) => new Uint8Array(n));
  }

  append(values: readonly unknown[]): void {
    this.reserve(values.length);
    const offsets = this.#offsets;
    const validity = this.#validity;
    let i = this.#length;
    let end = this.#byteLength;
    for (const v of values) {
      if (v === null || v === undefined) this.#nulls++;
      else {
        const text = this.toString(v);
        // UTF-16 code units take at most 3 UTF-8 bytes each.
        if (end + text.length * 3 > this.#bytes.length) this.#bytes = this.#grow(end, end + text.length * 3);
        end += this.#bytes.write(text, end, "utf8");
        validity[i >> 3]! |= 1 << (i & 7);
      }
      offsets[++i] = end;
    }
    this.#length = i;
    this.#byteLength = end;
  }

  #grow(used: number, needed: number): Buffer {
    if (needed > MAX_UTF8_BYTES)
      throw new LibError(`fetchArrow(): a string column holds more than ${MAX_UTF8_BYTES} bytes, Arrow Utf8's limit`);
    const next = Buffer.allocUnsafe(Math.min(MAX_UTF8_BYTES, Math.max(needed, this.#bytes.length * 2)));
    this.#bytes.copy(next, 0, 0, used);
    return next;
  }

  finish(): Data {
    const length = this.#length;
    const bytes = this.#bytes.subarray(0, this.#byteLength);
    return arrow().makeData({
      type: this.type,
      length,
      nullCount: this.#nulls,
      nullBitmap: this.#nulls === 0 ? new Uint8Array(0) : this.#validity.subarray(0, Math.ceil(length / 8)),
      valueOffsets: this.#offsets.subarray(0, length + 1),
      data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
  }
}

/** Set bits per byte value. */
const BITS_SET = Uint8Array.from({ length: 256 }, (_, byte) => {
  let n = 0;
  for (let b = byte; b !== 0; b >>= 1) n += b & 1;
  return n;
});

/**
 * Writes `length` validity bits (`bits`, or all valid when null) at bit `offset` of `bitmap`, whose
 * bits from `offset` on are zero and stay zero past the end. Returns how many of them are null.
 */
export function appendValidity(bitmap: Uint8Array, offset: number, bits: Uint8Array | null, length: number): number {
  if (length === 0) return 0;
  const end = offset + length;
  if (offset % 8 === 0) {
    const first = offset >> 3;
    const bytes = Math.ceil(length / 8);
    if (bits === null) bitmap.fill(0xff, first, first + bytes);
    else bitmap.set(bits.subarray(0, bytes), first);
    if (end % 8 !== 0) bitmap[first + bytes - 1]! &= (1 << (end % 8)) - 1; // nothing past the end
    if (bits === null) return 0;
    let valid = 0;
    for (let i = first; i < first + bytes; i++) valid += BITS_SET[bitmap[i]!]!;
    return length - valid;
  }
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    if (bits === null || (bits[i >> 3]! & (1 << (i & 7))) !== 0) bitmap[(offset + i) >> 3]! |= 1 << ((offset + i) & 7);
    else nulls++;
  }
  return nulls;
}

/** A copy of `array` with room for at least `needed` elements (doubling). */
function grown<T extends Int32Array | Uint8Array>(array: T, needed: number, make: (size: number) => T): T {
  const next = make(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}
