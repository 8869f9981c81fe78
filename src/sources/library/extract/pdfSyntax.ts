/*
 * Just enough PDF object syntax to read stream dictionaries the way pdf.js reads them. Its Lexer
 * and Parser (src/core/parser.js) are lenient in ways an attacker can use: comments between any
 * tokens, "#xx" escapes in names, junk skipped where a dictionary key belongs, a missing value
 * swallowing the closing ">>". Reading the same bytes with different rules would let a file show
 * one filter to the measurement and another to pdf.js, so the token rules here are pdf.js's.
 */

/** The structure cannot be measured with confidence; the document is refused rather than guessed at. */
export class Unmeasurable extends Error {
  override readonly name = 'Unmeasurable';
}

/** pdf.js gives up on this object (bad syntax), so it cannot be a stream pdf.js decodes. */
class NotAnObject extends Error {}

export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfCommand {
  constructor(readonly command: string) {}
}
export class PdfRef {}
export class PdfDict {
  readonly entries = new Map<string, PdfValue>();
}
/** Strings, whose content never matters here. */
const STRING = Symbol('string');
const EOF = Symbol('eof');

export type PdfValue = number | boolean | null | PdfName | PdfCommand | PdfRef | PdfDict | PdfValue[] | typeof STRING;
type Token = number | boolean | null | PdfName | PdfCommand | typeof STRING | typeof EOF | undefined;

const WHITESPACE = 1;
const DELIMITER = 2;
const CHARACTER_CLASS = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CHARACTER_CLASS[byte] = WHITESPACE;
for (const character of '()<>[]{}/%') CHARACTER_CLASS[character.charCodeAt(0)] = DELIMITER;

const isSpecial = (byte: number): boolean => byte >= 0 && (CHARACTER_CLASS[byte] ?? 0) !== 0;
const hexDigit = (byte: number): number => {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if ((byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)) return (byte & 0x0f) + 9;
  return -1;
};

/** Counts every byte read, across all the objects of a file, so hostile syntax cannot make reading it quadratic. */
export interface ReadMeter {
  remaining: number;
}

class Lexer {
  private index: number;
  current: number;

  constructor(
    private readonly bytes: Uint8Array,
    start: number,
    private readonly meter: ReadMeter,
  ) {
    this.index = start;
    this.current = this.byteAt(start);
  }

  /** Offset of `current`. */
  get position(): number {
    return this.index;
  }

  private byteAt(index: number): number {
    return index < this.bytes.length ? (this.bytes[index] ?? -1) : -1;
  }

  next(): number {
    this.meter.remaining -= 1;
    if (this.meter.remaining < 0) throw new Unmeasurable('its object syntax takes too long to read');
    this.index += 1;
    this.current = this.byteAt(this.index);
    return this.current;
  }

  peek(): number {
    return this.byteAt(this.index + 1);
  }

  token(): Token {
    let inComment = false;
    let byte = this.current;
    for (;;) {
      if (byte < 0) return EOF;
      if (inComment) {
        if (byte === 0x0a || byte === 0x0d) inComment = false;
      } else if (byte === 0x25) inComment = true;
      else if (CHARACTER_CLASS[byte] !== WHITESPACE) break;
      byte = this.next();
    }
    switch (byte) {
      case 0x2b:
      case 0x2d:
      case 0x2e:
        return this.number();
      case 0x28:
        return this.literalString();
      case 0x2f:
        return this.name();
      case 0x5b:
      case 0x5d:
      case 0x7b:
      case 0x7d:
        this.next();
        return new PdfCommand(String.fromCharCode(byte));
      case 0x3c:
        if (this.next() === 0x3c) {
          this.next();
          return new PdfCommand('<<');
        }
        return this.hexString();
      case 0x3e:
        if (this.next() === 0x3e) {
          this.next();
          return new PdfCommand('>>');
        }
        return new PdfCommand('>');
      case 0x29:
        throw new NotAnObject();
    }
    if (byte >= 0x30 && byte <= 0x39) return this.number();
    return this.command(byte);
  }

  /** The byte offset just after the end of line that follows `current` (pdf.js's skipToNextLine). */
  startOfNextLine(): number {
    for (let byte = this.current; byte >= 0; byte = this.next()) {
      if (byte === 0x0d) {
        if (this.next() === 0x0a) this.next();
        break;
      }
      if (byte === 0x0a) {
        this.next();
        break;
      }
    }
    return this.position;
  }

  private number(): number {
    let byte = this.current;
    let sign = 1;
    if (byte === 0x2d) {
      sign = -1;
      byte = this.next();
      if (byte === 0x2d) byte = this.next();
    } else if (byte === 0x2b) byte = this.next();
    while (byte === 0x0a || byte === 0x0d) byte = this.next();
    let divideBy = 0;
    if (byte === 0x2e) {
      divideBy = 10;
      byte = this.next();
    }
    if (byte < 0x30 || byte > 0x39) {
      if (byte === -1 || CHARACTER_CLASS[byte] === WHITESPACE || byte === 0x28 || byte === 0x3c) return 0;
      throw new NotAnObject();
    }
    let value = byte - 0x30;
    for (byte = this.next(); byte >= 0; byte = this.next()) {
      if (byte >= 0x30 && byte <= 0x39) {
        if (divideBy !== 0) divideBy *= 10;
        value = value * 10 + (byte - 0x30);
      } else if (byte === 0x2e) {
        if (divideBy !== 0) break;
        divideBy = 1;
      } else if (byte !== 0x2d) break;
    }
    return sign * (divideBy !== 0 ? value / divideBy : value);
  }

  private literalString(): typeof STRING {
    let depth = 1;
    for (let byte = this.next(); byte >= 0; byte = this.next()) {
      if (byte === 0x5c) {
        if (this.next() < 0) break;
      } else if (byte === 0x28) depth += 1;
      else if (byte === 0x29 && --depth === 0) {
        this.next();
        break;
      }
    }
    return STRING;
  }

  private hexString(): typeof STRING {
    for (let byte = this.current; byte >= 0; byte = this.next()) {
      if (byte === 0x3e) {
        this.next();
        break;
      }
    }
    return STRING;
  }

  private name(): PdfName {
    let name = '';
    for (let byte = this.next(); byte >= 0 && !isSpecial(byte); byte = this.next()) {
      if (byte !== 0x23) {
        name += String.fromCharCode(byte);
        continue;
      }
      byte = this.next();
      if (isSpecial(byte)) {
        name += '#';
        break;
      }
      const high = hexDigit(byte);
      if (high === -1) {
        name += `#${String.fromCharCode(byte)}`;
        continue;
      }
      const first = byte;
      byte = this.next();
      const low = hexDigit(byte);
      if (low !== -1) {
        name += String.fromCharCode((high << 4) | low);
        continue;
      }
      name += `#${String.fromCharCode(first)}`;
      if (isSpecial(byte)) break;
      name += String.fromCharCode(byte);
    }
    return new PdfName(name);
  }

  private command(first: number): Token {
    let command = String.fromCharCode(first);
    // pdf.js: a command cannot start with an invisible byte, so one followed by a visible one stands alone.
    if ((first < 0x20 || first > 0x7f) && this.peek() >= 0x20 && this.peek() <= 0x7f) {
      this.next();
      return new PdfCommand(command);
    }
    for (let byte = this.next(); byte >= 0 && !isSpecial(byte); byte = this.next()) {
      if (command.length === 128) throw new NotAnObject();
      command += String.fromCharCode(byte);
    }
    if (command === 'true') return true;
    if (command === 'false') return false;
    if (command === 'null') return null;
    return new PdfCommand(command);
  }
}

const isCommand = (token: Token, command: string): boolean => token instanceof PdfCommand && token.command === command;

/** A stream object's dictionary and where its data begins. */
export interface StreamStart {
  readonly dict: PdfDict;
  readonly dataStart: number;
}

/** pdf.js's Parser: two tokens of lookahead, and the same leniency. */
class Parser {
  private buffer1: Token;
  private buffer2: Token;

  constructor(private readonly lexer: Lexer) {
    this.buffer1 = lexer.token();
    this.buffer2 = lexer.token();
  }

  /** A method, not a comparison, so the compiler does not assume shift() leaves buffer1 alone. */
  private atEnd(): boolean {
    return this.buffer1 === EOF;
  }

  private shift(): void {
    if (isCommand(this.buffer2, 'ID')) {
      this.buffer1 = this.buffer2;
      this.buffer2 = undefined;
    } else {
      this.buffer1 = this.buffer2;
      this.buffer2 = this.lexer.token();
    }
  }

  /** One object; a dictionary followed by `stream` is returned as a StreamStart at the top level only. */
  value(topLevel: boolean): PdfValue | StreamStart {
    const first = this.buffer1;
    this.shift();
    if (first instanceof PdfCommand) {
      switch (first.command) {
        case 'BI':
          throw new Unmeasurable('an object holds an inline image');
        case '[': {
          const items: PdfValue[] = [];
          while (!isCommand(this.buffer1, ']') && !this.atEnd()) items.push(this.nested());
          if (this.atEnd()) throw new NotAnObject();
          this.shift();
          return items;
        }
        case '<<': {
          const dict = new PdfDict();
          while (!isCommand(this.buffer1, '>>') && !this.atEnd()) {
            const key = this.buffer1;
            if (!(key instanceof PdfName)) {
              this.shift();
              continue;
            }
            this.shift();
            if (this.atEnd()) break;
            dict.entries.set(key.name, this.nested());
          }
          if (this.atEnd()) throw new NotAnObject();
          if (isCommand(this.buffer2, 'stream')) {
            if (!topLevel) throw new Unmeasurable('a stream sits inside another object');
            return { dict, dataStart: this.lexer.startOfNextLine() };
          }
          this.shift();
          return dict;
        }
        default:
          return first;
      }
    }
    if (typeof first === 'number' && Number.isInteger(first)) {
      if (typeof this.buffer1 === 'number' && Number.isInteger(this.buffer1) && isCommand(this.buffer2, 'R')) {
        this.shift();
        this.shift();
        return new PdfRef();
      }
      return first;
    }
    return first === EOF || first === undefined ? null : first;
  }

  private nested(): PdfValue {
    return this.value(false) as PdfValue;
  }
}

/**
 * Reads the object that starts at `start` (just after an `obj` or `trailer` keyword) as pdf.js
 * would. Returns its dictionary, with the data offset when it is a stream; null when it is not a
 * dictionary or pdf.js could not parse it. Throws Unmeasurable when pdf.js would build something
 * this reader does not follow.
 */
export const readObject = (
  bytes: Uint8Array,
  start: number,
  meter: ReadMeter,
): { dict: PdfDict; dataStart: number | null } | null => {
  try {
    const value = new Parser(new Lexer(bytes, start, meter)).value(true);
    if (value instanceof PdfDict) return { dict: value, dataStart: null };
    if (value !== null && typeof value === 'object' && 'dataStart' in value) return value;
    return null;
  } catch (error) {
    if (error instanceof NotAnObject) return null;
    throw error;
  }
};

/** The end of the keyword token that starts at `start` (pdf.js reads "obj1234" as one command). */
export const endOfKeyword = (bytes: Uint8Array, start: number): number => {
  let end = start;
  while (end < bytes.length && !isSpecial(bytes[end] ?? 0)) end += 1;
  return end;
};
