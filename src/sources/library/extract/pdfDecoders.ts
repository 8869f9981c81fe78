import { constants, createBrotliDecompress, createInflate } from 'node:zlib';

/*
 * The PDF stream filters that expand data, decoded only to learn how much they produce. Each one
 * stops as soon as its output passes `limit`, and keeps its output only when a later filter of the
 * chain needs it as input, so measuring never holds more than the limit. The JavaScript decoders
 * follow pdf.js's own (src/core/*_stream.js) byte for byte where the format leaves room to differ,
 * because what is measured has to be what pdf.js will decode.
 */

export const MEASURED_FILTERS = [
  'FlateDecode',
  'BrotliDecode',
  'LZWDecode',
  'RunLengthDecode',
  'ASCII85Decode',
  'ASCIIHexDecode',
] as const;
export type MeasuredFilter = (typeof MEASURED_FILTERS)[number];

export interface DecodeOptions {
  /** Stop once the output is longer than this. */
  readonly limit: number;
  /** Keep the output, for the next filter of a chain; otherwise it is only counted. */
  readonly keep: boolean;
  /** LZWDecode's /EarlyChange. */
  readonly earlyChange: number;
}

export interface Decoded {
  /** Bytes produced before the decoder finished, failed or passed the limit. */
  readonly size: number;
  readonly exceeded: boolean;
  /** The output, when it was kept and stayed within the limit. */
  readonly bytes: Uint8Array;
}

const NOTHING = new Uint8Array(0);

/** Collects (or only counts) output up to one byte past the limit. */
class Output {
  size = 0;
  private buffer: Uint8Array;

  constructor(private readonly options: DecodeOptions) {
    this.buffer = options.keep ? new Uint8Array(Math.min(options.limit + 1, 64 * 1024)) : NOTHING;
  }

  get exceeded(): boolean {
    return this.size > this.options.limit;
  }

  push(byte: number): void {
    if (this.options.keep && !this.exceeded) {
      if (this.size === this.buffer.length) this.grow();
      this.buffer[this.size] = byte;
    }
    this.size += 1;
  }

  pushChunk(chunk: Uint8Array): void {
    if (this.options.keep && this.size + chunk.length <= this.options.limit) {
      while (this.size + chunk.length > this.buffer.length) this.grow();
      this.buffer.set(chunk, this.size);
    }
    this.size += chunk.length;
  }

  result(): Decoded {
    return {
      size: this.size,
      exceeded: this.exceeded,
      bytes: this.options.keep && !this.exceeded ? this.buffer.subarray(0, this.size) : NOTHING,
    };
  }

  private grow(): void {
    const larger = new Uint8Array(Math.min(this.options.limit + 1, Math.max(1, this.buffer.length * 2)));
    larger.set(this.buffer);
    this.buffer = larger;
  }
}

/**
 * zlib and Brotli through Node's streaming decompressors, so output is seen (and dropped) chunk by
 * chunk. A damaged stream counts what decoded before the damage: pdf.js keeps that much too.
 * Input past the end of the compressed data is ignored by the decoder.
 */
const decompress = (brotli: boolean, input: Uint8Array, options: DecodeOptions): Promise<Decoded> =>
  new Promise((resolve) => {
    const output = new Output(options);
    const decoder = brotli ? createBrotliDecompress() : createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      decoder.destroy();
      resolve(output.result());
    };
    decoder.on('data', (chunk: Buffer) => {
      output.pushChunk(chunk);
      if (output.exceeded) settle();
    });
    decoder.on('end', settle);
    decoder.on('error', settle);
    decoder.end(input);
  });

const decodeRunLength = (input: Uint8Array, output: Output): void => {
  for (let index = 0; index + 1 < input.length && !output.exceeded; ) {
    const header = input[index] ?? 128;
    if (header === 128) return;
    if (header < 128) {
      // pdf.js writes header+1 bytes even when the input ends first.
      for (let offset = 1; offset <= header + 1; offset += 1) output.push(input[index + offset] ?? 0);
      index += header + 2;
    } else {
      const byte = input[index + 1] ?? 0;
      for (let count = 0; count < 257 - header; count += 1) output.push(byte);
      index += 2;
    }
  }
};

const isPdfWhitespace = (byte: number | undefined): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;

const decodeAscii85 = (input: Uint8Array, output: Output): void => {
  let index = 0;
  const next = (): number => {
    while (isPdfWhitespace(input[index])) index += 1;
    return index < input.length ? (input[index++] ?? -1) : -1;
  };
  const group = new Array<number>(5);
  while (!output.exceeded) {
    const first = next();
    if (first === -1 || first === 0x7e) return;
    if (first === 0x7a) {
      for (let count = 0; count < 4; count += 1) output.push(0);
      continue;
    }
    group[0] = first;
    let length = 1;
    for (; length < 5; length += 1) {
      const byte = next();
      group[length] = byte;
      if (byte === -1 || byte === 0x7e) break;
    }
    // A short last group yields length-1 bytes, padded the way pdf.js pads it.
    for (let pad = length; pad < 5; pad += 1) group[pad] = 0x21 + 84;
    let value = 0;
    for (const digit of group) value = value * 85 + (digit - 0x21);
    for (let shift = 24, written = 0; written < (length < 5 ? length - 1 : 4); shift -= 8, written += 1)
      output.push((value >>> shift) & 0xff);
    if (length < 5) return;
  }
};

const hexValue = (byte: number): number => {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if ((byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)) return (byte & 0x0f) + 9;
  return -1;
};

const decodeAsciiHex = (input: Uint8Array, output: Output): void => {
  let high = -1;
  for (const byte of input) {
    if (output.exceeded) return;
    if (byte === 0x3e) break;
    const digit = hexValue(byte);
    if (digit === -1) continue;
    if (high === -1) high = digit;
    else {
      output.push((high << 4) | digit);
      high = -1;
    }
  }
  if (high !== -1) output.push(high << 4);
};

const LZW_TABLE_SIZE = 4096;

/** pdf.js decodes LZW 512 codes at a time; at the end of its input it still finishes the block. */
const LZW_BLOCK_CODES = 512;

/**
 * pdf.js's LZW, including its leniency: a code at or past the next free entry repeats the current
 * sequence plus its first byte, the table keeps growing past 4096 entries without storing them, and
 * running out of input mid-block reads as a zero byte for each code left in the block.
 */
const decodeLzw = (input: Uint8Array, output: Output, earlyChange: number): void => {
  const values = new Uint8Array(LZW_TABLE_SIZE);
  const lengths = new Uint16Array(LZW_TABLE_SIZE);
  const previousCodes = new Uint16Array(LZW_TABLE_SIZE);
  for (let code = 0; code < 256; code += 1) {
    values[code] = code;
    lengths[code] = 1;
  }
  const sequence = new Uint8Array(LZW_TABLE_SIZE);
  let sequenceLength = 0;
  let nextCode = 258;
  let codeLength = 9;
  let previousCode = 0;
  let bitBuffer = 0;
  let bitCount = 0;
  let index = 0;
  for (let codes = 0; !output.exceeded; codes += 1) {
    while (bitCount < codeLength) {
      if (index >= input.length) {
        for (let left = LZW_BLOCK_CODES - (codes % LZW_BLOCK_CODES); left > 0; left -= 1) output.push(0);
        return;
      }
      bitBuffer = ((bitBuffer << 8) | (input[index++] ?? 0)) >>> 0;
      bitCount += 8;
    }
    bitCount -= codeLength;
    const code = (bitBuffer >>> bitCount) & ((1 << codeLength) - 1);
    bitBuffer &= (1 << bitCount) - 1;
    const hadSequence = sequenceLength > 0;
    if (code < 256) {
      sequence[0] = code;
      sequenceLength = 1;
    } else if (code >= 258) {
      if (code < nextCode) {
        sequenceLength = lengths[code] ?? 0;
        for (let position = sequenceLength - 1, entry = code; position >= 0; position -= 1) {
          sequence[position] = values[entry] ?? 0;
          entry = previousCodes[entry] ?? 0;
        }
      } else {
        sequence[sequenceLength] = sequence[0] ?? 0;
        sequenceLength += 1;
      }
    } else if (code === 256) {
      codeLength = 9;
      nextCode = 258;
      sequenceLength = 0;
      continue;
    } else {
      return;
    }
    if (hadSequence) {
      if (nextCode < LZW_TABLE_SIZE) {
        previousCodes[nextCode] = previousCode;
        lengths[nextCode] = (lengths[previousCode] ?? 0) + 1;
        values[nextCode] = sequence[0] ?? 0;
      }
      nextCode += 1;
      const threshold = nextCode + earlyChange;
      codeLength = threshold & (threshold - 1) ? codeLength : Math.min(Math.log(threshold) / Math.LN2 + 1, 12) | 0;
    }
    previousCode = code;
    // Past 4096 bytes pdf.js's sequence array drops writes but still counts them as output.
    for (let position = 0; position < sequenceLength; position += 1) output.push(sequence[position] ?? 0);
  }
};

export const decodeFilter = async (
  filter: MeasuredFilter,
  input: Uint8Array,
  options: DecodeOptions,
): Promise<Decoded> => {
  if (filter === 'FlateDecode' || filter === 'BrotliDecode')
    return decompress(filter === 'BrotliDecode', input, options);
  const output = new Output(options);
  switch (filter) {
    case 'LZWDecode':
      decodeLzw(input, output, options.earlyChange);
      break;
    case 'RunLengthDecode':
      decodeRunLength(input, output);
      break;
    case 'ASCII85Decode':
      decodeAscii85(input, output);
      break;
    case 'ASCIIHexDecode':
      decodeAsciiHex(input, output);
      break;
  }
  return output.result();
};
