// Streaming decoder for a response body that is one JSON string holding base64 (`"UEsDB..."`), as
// the registry-list download returns it. Bytes come out as the body arrives, so the base64 text
// (4/3 of the ZIP) is never held whole. Accepts the JSON escapes a serializer may use for base64
// characters (`\/`, and `\u002B` which System.Text.Json writes for `+`) and whitespace around the
// string; anything else is an error, as is a body that ends before the closing quote.

export class Base64BodyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Base64BodyError';
  }
}

const enum State {
  BeforeString,
  InString,
  Escape,
  UnicodeEscape,
  AfterString,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;

/** 1 for a base64 alphabet byte (standard alphabet), 0 otherwise. */
const IS_B64 = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') IS_B64[c.charCodeAt(0)] = 1;

function isJsonWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

export class Base64JsonStringDecoder {
  private state: State;
  /** Unquoted base64 text (a text/plain body): no quotes, whitespace and line breaks skipped. */
  private readonly unquoted: boolean;

  constructor(options: { unquoted?: boolean } = {}) {
    this.unquoted = options.unquoted === true;
    this.state = this.unquoted ? State.InString : State.BeforeString;
  }

  /** Base64 characters not yet decoded (fewer than 4 between pushes). */
  private carry = Buffer.alloc(0);
  private unicodeHex = '';
  private padding = 0;
  private offset = 0;

  /** Feeds the next piece of the body; returns the bytes it completes (possibly empty). */
  push(chunk: Uint8Array): Buffer {
    // Worst case every byte is a base64 character.
    const chars = Buffer.allocUnsafe(this.carry.length + chunk.length);
    this.carry.copy(chars, 0);
    let n = this.carry.length;
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      if (this.state === State.InString && this.padding === 0) {
        // The body is almost all one run of base64 characters: find its end with a tight loop and
        // copy it at once rather than byte by byte through the switch below: the thread that decodes
        // also parses the list.
        let end = i;
        while (end < chunk.length && IS_B64[chunk[end]] === 1) end++;
        if (end > i) {
          chars.set(chunk.subarray(i, end), n);
          n += end - i;
          this.offset += end - i;
          i = end;
          if (i === chunk.length) break;
        }
      }
      const b = chunk[i];
      switch (this.state) {
        case State.InString:
          if (IS_B64[b] === 1) {
            if (this.padding > 0) this.fail('base64 data after padding');
            chars[n++] = b;
          } else if (this.unquoted && isJsonWhitespace(b)) {
            // line breaks of wrapped base64 text
          } else if (b === QUOTE && !this.unquoted) {
            this.state = State.AfterString;
          } else if (b === EQUALS) {
            if (++this.padding > 2) this.fail('too much base64 padding');
            chars[n++] = b;
          } else if (b === BACKSLASH) {
            this.state = State.Escape;
          } else {
            this.fail(`invalid base64 character 0x${b.toString(16).padStart(2, '0')}`);
          }
          break;
        case State.BeforeString:
          if (b === QUOTE) this.state = State.InString;
          else if (!isJsonWhitespace(b)) this.fail('the body is not a JSON string');
          break;
        case State.Escape:
          if (b === 0x2f /* / */) {
            if (this.padding > 0) this.fail('base64 data after padding');
            chars[n++] = b;
            this.state = State.InString;
          } else if (b === 0x75 /* u */) {
            this.unicodeHex = '';
            this.state = State.UnicodeEscape;
          } else {
            this.fail('unexpected escape in base64 text');
          }
          break;
        case State.UnicodeEscape: {
          this.unicodeHex += String.fromCharCode(b);
          if (this.unicodeHex.length < 4) break;
          const code = /^[0-9a-fA-F]{4}$/.test(this.unicodeHex) ? parseInt(this.unicodeHex, 16) : -1;
          if (code < 0 || code > 0xff || (IS_B64[code] !== 1 && code !== EQUALS)) this.fail('unexpected escape in base64 text');
          if (code === EQUALS) {
            if (++this.padding > 2) this.fail('too much base64 padding');
          } else if (this.padding > 0) {
            this.fail('base64 data after padding');
          }
          chars[n++] = code;
          this.state = State.InString;
          break;
        }
        case State.AfterString:
          if (!isJsonWhitespace(b)) this.fail('data after the JSON string');
          break;
      }
    }
    // Decode whole quanta only; keep the rest for the next push.
    const whole = n - (n % 4);
    this.carry = Buffer.from(chars.subarray(whole, n));
    return whole === 0 ? Buffer.alloc(0) : decodeQuanta(chars.subarray(0, whole));
  }

  /** Ends the body; returns the last bytes, or throws if the body was not one complete string. */
  end(): Buffer {
    if (this.unquoted && this.state === State.InString) this.state = State.AfterString;
    if (this.state !== State.AfterString) {
      throw new Base64BodyError(this.state === State.BeforeString ? 'the body is empty or not a JSON string' : 'the body ended inside the string (truncated)');
    }
    const rest = this.carry;
    this.carry = Buffer.alloc(0);
    if (rest.length === 0) return Buffer.alloc(0);
    // An unpadded tail of 2 or 3 characters is tolerated; 1 character cannot be base64.
    if (rest.length === 1) throw new Base64BodyError('the base64 text has an impossible length');
    if (rest.includes(EQUALS)) throw new Base64BodyError('the padded base64 group is incomplete');
    return Buffer.from(rest.toString('latin1'), 'base64');
  }

  private fail(reason: string): never {
    throw new Base64BodyError(`${reason} at byte ${this.offset}`);
  }
}

/** Decodes complete 4-character groups; padding may only close the final group. */
function decodeQuanta(chars: Buffer): Buffer {
  const firstPad = chars.indexOf(EQUALS);
  if (firstPad !== -1 && firstPad < chars.length - 2) throw new Base64BodyError('base64 padding in the middle of the data');
  if (firstPad === chars.length - 2 && chars[chars.length - 1] !== EQUALS) throw new Base64BodyError('base64 padding in the middle of the data');
  return Buffer.from(chars.toString('latin1'), 'base64');
}
