// What the user reads when the registry ZIP is refused: every refusal of the ZIP reader
// (src/domain/registryZip.ts) has its own localized message, never the generic "Something went wrong".
import * as assert from 'node:assert/strict';
import { RegistryZipError, type RegistryZipErrorCode } from '../../src/domain/registryZip';
import { describeError } from '../../src/shell/errorMessages';

const CODES: RegistryZipErrorCode[] = ['corrupt', 'unsafeEntryName', 'noUsableEntry', 'multipleLists', 'unsupportedFormat', 'entryTooLarge', 'compressionRatio'];

suite('Error messages: registry ZIP refusals', () => {
  test('each refusal has its own message, naming the entry where there is one, with Retry and the log', () => {
    const generic = describeError(new Error('x')).text.replace('x', '');
    const texts = new Set<string>();
    for (const code of CODES) {
      const described = describeError(new RegistryZipError(code, `internal ${code}`, '../evil.xml'));
      assert.ok(described.show);
      assert.ok(!described.text.startsWith(generic), `${code} fell through to the generic message`);
      assert.ok(!described.text.includes(`internal ${code}`), `${code} shows the untranslated internal text`);
      if (code === 'unsafeEntryName' || code === 'entryTooLarge' || code === 'compressionRatio' || code === 'unsupportedFormat') assert.ok(described.text.includes('../evil.xml'), `${code} names the entry`);
      assert.deepEqual(described.actions, ['retry', 'showLog']);
      texts.add(described.text);
    }
    assert.equal(texts.size, CODES.length, 'every refusal reads differently');
  });
});
