import { brotliCompressSync, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFilter, type MeasuredFilter } from './pdfDecoders.js';

/* Encoders for the round trips: the textbook algorithms, written independently of the decoders. */

/** LZW as PDF writes it: 9- to 12-bit codes, MSB first, clear code first, EarlyChange 1. */
const encodeLzw = (data: Uint8Array): Uint8Array => {
  const out: number[] = [];
  let bitBuffer = 0;
  let bitCount = 0;
  let codeLength = 9;
  const write = (code: number): void => {
    bitBuffer = (bitBuffer << codeLength) | code;
    bitCount += codeLength;
    while (bitCount >= 8) {
      bitCount -= 8;
      out.push((bitBuffer >>> bitCount) & 0xff);
    }
    bitBuffer &= (1 << bitCount) - 1;
  };
  let table = new Map<string, number>();
  let nextCode = 258;
  const reset = (): void => {
    table = new Map(Array.from({ length: 256 }, (_, byte) => [String.fromCharCode(byte), byte]));
    nextCode = 258;
    codeLength = 9;
  };
  write(256);
  reset();
  let current = '';
  for (const byte of data) {
    const extended = current + String.fromCharCode(byte);
    if (table.has(extended)) {
      current = extended;
      continue;
    }
    write(table.get(current)!);
    table.set(extended, nextCode++);
    // EarlyChange 1: the width grows one code early.
    if (nextCode + 1 > 1 << codeLength && codeLength < 12) codeLength += 1;
    if (nextCode >= 4094) {
      write(256);
      reset();
    }
    current = String.fromCharCode(byte);
  }
  if (current !== '') write(table.get(current)!);
  write(257);
  if (bitCount > 0) out.push((bitBuffer << (8 - bitCount)) & 0xff);
  return new Uint8Array(out);
};

const encodeRunLength = (data: Uint8Array): Uint8Array => {
  const out: number[] = [];
  for (let index = 0; index < data.length; ) {
    let run = 1;
    while (index + run < data.length && run < 128 && data[index + run] === data[index]) run += 1;
    if (run > 1) {
      out.push(257 - run, data[index]!);
      index += run;
      continue;
    }
    const start = index;
    while (index < data.length && index - start < 128 && (index + 1 >= data.length || data[index + 1] !== data[index]))
      index += 1;
    out.push(index - start - 1, ...data.subarray(start, index));
  }
  out.push(128);
  return new Uint8Array(out);
};

const encodeAscii85 = (data: Uint8Array): Uint8Array => {
  let text = '';
  for (let index = 0; index < data.length; index += 4) {
    const group = data.subarray(index, index + 4);
    const padded = new Uint8Array(4);
    padded.set(group);
    let value = new DataView(padded.buffer).getUint32(0);
    if (group.length === 4 && value === 0) {
      text += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let digit = 0; digit < 5; digit += 1) {
      digits.unshift(String.fromCharCode(0x21 + (value % 85)));
      value = Math.floor(value / 85);
    }
    text += digits.slice(0, group.length + 1).join('');
  }
  return new TextEncoder().encode(`${text}~>`);
};

const ENCODERS: Record<MeasuredFilter, (data: Uint8Array) => Uint8Array> = {
  FlateDecode: (data) => deflateSync(data),
  BrotliDecode: (data) => brotliCompressSync(data),
  LZWDecode: encodeLzw,
  RunLengthDecode: encodeRunLength,
  ASCII85Decode: encodeAscii85,
  ASCIIHexDecode: (data) => new TextEncoder().encode(`${Buffer.from(data).toString('hex')}>`),
};

const decode = (filter: MeasuredFilter, input: Uint8Array, limit = 1 << 30) =>
  decodeFilter(filter, input, { limit, keep: true, earlyChange: 1 });

describe('decodeFilter', () => {
  const data = fc.oneof(
    fc.uint8Array({ maxLength: 3000 }),
    fc.array(fc.constantFrom(0, 32, 65, 66), { maxLength: 5000 }).map((bytes) => new Uint8Array(bytes)),
  );

  it.each(Object.keys(ENCODERS) as MeasuredFilter[])(
    '%s decodes what its encoder wrote, and counts it (property)',
    async (filter) => {
      await fc.assert(
        fc.asyncProperty(data, async (bytes) => {
          // Bytes after the end marker are the rest of the file: a decoder must stop at its own end.
          const encoded = new Uint8Array([
            ...ENCODERS[filter](bytes),
            ...new TextEncoder().encode('\nendstream\nendobj\n'),
          ]);
          const decoded = await decode(filter, encoded);
          expect(Buffer.from(decoded.bytes).equals(Buffer.from(bytes))).toBe(true);
          expect(decoded).toMatchObject({ size: bytes.length, exceeded: false });
        }),
        { numRuns: 150 },
      );
    },
  );

  it.each(Object.keys(ENCODERS) as MeasuredFilter[])(
    '%s stops just past the limit, long before the end of a bomb',
    async (filter) => {
      const bomb = ENCODERS[filter](new Uint8Array(1024 * 1024));
      const decoded = await decodeFilter(filter, bomb, { limit: 100_000, keep: false, earlyChange: 1 });
      expect(decoded.exceeded).toBe(true);
      expect(decoded.size).toBeGreaterThan(100_000);
      // Streaming decompressors hand over output in chunks of at most 64 KiB.
      expect(decoded.size).toBeLessThan(100_000 + 64 * 1024);
      expect(decoded.bytes).toHaveLength(0);
    },
  );

  it('counts what a damaged zlib stream yields before the damage, as pdf.js keeps it', async () => {
    const intact = deflateSync(new Uint8Array(1_000_000));
    const damaged = new Uint8Array([
      ...intact.subarray(0, Math.floor(intact.length * 0.7)),
      ...new TextEncoder().encode('garbage!garbage!'),
    ]);
    const decoded = await decodeFilter('FlateDecode', damaged, { limit: 1 << 30, keep: false, earlyChange: 1 });
    expect(decoded.size).toBeGreaterThan(500_000);
  });

  it('reads LZW as pdf.js does: a code past the table repeats the sequence, and the last block is finished with zeros', async () => {
    // 9-bit codes 65 ('A'), 258 (not yet defined: "AA"), then the input ends mid-block.
    const codes = [65, 258];
    let bits = '';
    for (const code of codes) bits += code.toString(2).padStart(9, '0');
    const bytes = new Uint8Array(Math.ceil(bits.length / 8)).map((_, index) =>
      Number.parseInt(bits.slice(index * 8, index * 8 + 8).padEnd(8, '0'), 2),
    );
    const decoded = await decode('LZWDecode', bytes);
    expect(Array.from(decoded.bytes.subarray(0, 3))).toEqual([65, 65, 65]);
    // Two codes read, 510 left in pdf.js's block of 512, each read as a zero byte.
    expect(decoded.size).toBe(3 + 510);
  });
});
