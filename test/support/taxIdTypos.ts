// Every single-digit typo of a tax number: each position replaced by each other digit. The checksum
// tests walk them to show that no such typo of a valid VKN or TCKN passes.
export interface Typo {
  typo: string;
  /** Where the digit was changed, and what to. */
  pos: number;
  digit: number;
}

export function* singleDigitTypos(valid: string): Generator<Typo> {
  for (let pos = 0; pos < valid.length; pos++) {
    for (let digit = 0; digit <= 9; digit++) {
      if (String(digit) === valid[pos]) continue;
      yield { typo: valid.slice(0, pos) + digit + valid.slice(pos + 1), pos, digit };
    }
  }
}
