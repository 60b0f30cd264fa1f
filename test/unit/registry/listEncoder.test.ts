// The index build's fast reader of a registry list (src/registry/listEncoder.ts): for a list of the
// usual shape it must give byte for byte what the general parser (registryXml.ts) plus encodeRecord,
// titleForBatch and taxNumberKey give, however the bytes are cut into chunks; for any other shape it
// must refuse (NotCanonicalListError), so that the general parser reads the list instead.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Taxpayer } from '../../../src/domain/registryXml';
import { TITLE_SEPARATOR, titleForBatch } from '../../../src/registry/fold';
import { encodeRecord, RECORD_SEP, RECORDS_PER_BLOCK, taxNumberKey } from '../../../src/registry/format';
import { ListEncoder, NotCanonicalListError, type EncodedBatch } from '../../../src/registry/listEncoder';
import { Registry } from '../../../src/sandbox/registry';
import { userXml } from '../../../src/sandbox/registryXml';
import { buildTaxpayer, parseRegistryXml, registryXml, taxpayerXml } from '../../support/registryFixtures';

const BATCH = 2 * RECORDS_PER_BLOCK;

interface Encoded {
  records: Buffer;
  blockEnds: number[];
  titles: Buffer;
  keys: number[];
}

/** What the general way gives, cut into batches as the encoder cuts them. */
function generalWay(xml: string | Buffer): Encoded[] {
  const taxpayers = parseRegistryXml(xml);
  const out: Encoded[] = [];
  for (let first = 0; first < taxpayers.length; first += BATCH) {
    const batch = taxpayers.slice(first, first + BATCH);
    const blocks: Buffer[] = [];
    for (let b = 0; b < batch.length; b += RECORDS_PER_BLOCK) blocks.push(Buffer.from(batch.slice(b, b + RECORDS_PER_BLOCK).map(encodeRecord).join(RECORD_SEP), 'utf8'));
    let end = 0;
    out.push({
      records: Buffer.concat(blocks),
      blockEnds: blocks.map((b) => (end += b.length)),
      titles: Buffer.from(batch.map((t) => titleForBatch(t.Title)).join(TITLE_SEPARATOR), 'utf8'),
      keys: batch.map((t) => taxNumberKey(t.Identifier)),
    });
  }
  return out;
}

/** The encoder's output for the same bytes, fed in pieces of the given sizes (repeated), or whole. */
function encoderWay(xml: string | Buffer, pieces: number[] = []): Encoded[] {
  const bytes = Buffer.isBuffer(xml) ? xml : Buffer.from(xml, 'utf8');
  const encoder = new ListEncoder(BATCH);
  const batches: EncodedBatch[] = [];
  const drain = () => {
    for (let b = encoder.take(); b; b = encoder.take()) batches.push(b);
  };
  if (pieces.length === 0) encoder.write(bytes);
  for (let at = 0, k = 0; pieces.length > 0 && at < bytes.length; k++) {
    const n = pieces[k % pieces.length];
    encoder.write(bytes.subarray(at, at + n));
    at += n;
    drain();
  }
  encoder.end();
  drain();
  let first = 0;
  return batches.map((b) => {
    assert.equal(b.first, first, 'batches follow one another');
    first += b.keys.length;
    return { records: Buffer.from(b.records), blockEnds: [...b.blockEnds], titles: Buffer.from(b.titles), keys: [...b.keys] };
  });
}

function assertSameAsGeneral(xml: string | Buffer, pieces?: number[]): void {
  const expected = generalWay(xml);
  const actual = encoderWay(xml, pieces);
  assert.equal(actual.length, expected.length, 'batches');
  for (let i = 0; i < expected.length; i++) {
    assert.ok(actual[i].records.equals(expected[i].records), `records of batch ${i}: ${actual[i].records.toString('utf8').slice(0, 200)} vs ${expected[i].records.toString('utf8').slice(0, 200)}`);
    assert.deepEqual(actual[i].blockEnds, expected[i].blockEnds, `block ends of batch ${i}`);
    assert.equal(actual[i].titles.toString('utf8'), expected[i].titles.toString('utf8'), `titles of batch ${i}`);
    assert.ok(actual[i].titles.equals(expected[i].titles), `title bytes of batch ${i}`);
    assert.deepEqual(actual[i].keys, expected[i].keys, `keys of batch ${i}`);
  }
}

/** Pieces of 1 to 97 bytes from a fixed seed: every construct gets cut somewhere. */
function smallPieces(seed: number): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < 500; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(1 + (x % 97));
  }
  return out;
}

function withUser(fields: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<UserList>\n${taxpayerXml(buildTaxpayer(1))}\n<User>${fields}</User>\n</UserList>\n`;
}

const DOCUMENTS = '<Documents><Document type="Invoice"><Alias><Name>urn:mail:defaultpk@a.com</Name><CreationTime>2020-01-01T00:00:00</CreationTime></Alias></Document></Documents>';
const user = (title: string, id = '1234567890', rest = DOCUMENTS) => `<Identifier>${id}</Identifier><Title>${title}</Title><Type>Özel</Type><AccountType>Portal</AccountType><FirstCreationTime>2020-01-01T00:00:00</FirstCreationTime>${rest}`;

describe('the index build reads a list of the usual shape as the general parser does', () => {
  const taxpayers: Taxpayer[] = Array.from({ length: 700 }, (_, i) => buildTaxpayer(i));

  for (const [label, separator] of [['one line', ''], ['a line each', '\n'], ['indented', '\r\n    ']] as const) {
    test(`a generated list, ${label}: the same records, titles and keys, whole or in small pieces`, () => {
      const xml = registryXml(taxpayers, { separator });
      assertSameAsGeneral(xml);
      assertSameAsGeneral(xml, smallPieces(7));
      assertSameAsGeneral(xml, [65536]);
    });
  }

  test("the sandbox's realistic list (Turkish titles, entities, deleted aliases, two documents)", () => {
    const registry = new Registry(20261125, 3000);
    let xml = '<?xml version="1.0" encoding="UTF-8"?>\n<UserList>\n';
    for (const e of registry.entries()) xml += userXml(e, 'PK', 'Invoice');
    xml += '</UserList>\n';
    assertSameAsGeneral(xml);
    assertSameAsGeneral(xml, smallPieces(11));
  });

  // Values where the bytes cannot simply be copied: each must still come out as the general way gives it.
  const values: Array<[string, string]> = [
    ['a title ending in a Turkish letter', 'ÇUKUROVA TEKSTİL SANAYİ VE TİCARET LİMİTED ŞİRKETİ'],
    ['a title starting with one', 'Şahin Öztürk'],
    ['no-break spaces around a title', '\u00a0 ANADOLU A.Ş.\u00a0'],
    ['an ideographic space and a BOM around a title', '\u3000X\ufeff'],
    ['a line separator and an en quad', '\u2028Y\u2000'],
    ['spaces, tabs and new lines around a title', ' \t\r\n Z Y \n'],
    ['an entity', 'ÖZTÜRK &amp; OĞULLARI'],
    ['numeric references, one of them a space', '&#32;&#350;ahin &#x130;nşaat&#32;'],
    ['a separator by reference', 'A&#28;B&#x1f;C'],
    ['NUL by reference', 'A&#0;B'],
    ['an empty title', ''],
    ['only spaces', '   '],
    ['a new line inside', 'A\r\nB'],
    ['an unknown entity', 'A &nbsp; B'],
  ];
  for (const [label, title] of values) {
    test(`a value the bytes of which are not copied as they are: ${label}`, () => {
      const xml = withUser(user(title));
      assertSameAsGeneral(xml);
      assertSameAsGeneral(xml, smallPieces(3));
    });
  }

  for (const [label, id] of [
    ['spaces around', '  1234567890 '],
    ['a TCKN', '10000000146'],
    ['twelve digits', '123456789012'],
    ['letters', '12AB567890'],
    ['empty', ''],
    ['an entity', '1234&#53;67890'],
    ['a no-break space', '\u00a01234567890'],
  ] as const) {
    test(`a tax number with ${label}: the same key as taxNumberKey`, () => assertSameAsGeneral(withUser(user('T', id))));
  }

  test('documents with no alias, several aliases, a deletion time and a type with an entity', () => {
    const rest = '<Documents><Document type="Invoice"></Document><Document type="Despatch&amp;Advice"><Alias><Name>a</Name><CreationTime>1</CreationTime><DeletionTime>2</DeletionTime></Alias><Alias><Name> b </Name><CreationTime>3</CreationTime></Alias></Document></Documents>';
    assertSameAsGeneral(withUser(user('T', '1234567890', rest)));
    assertSameAsGeneral(withUser(user('T', '1234567890', '')), smallPieces(5));
    assertSameAsGeneral(withUser(user('T', '1234567890', '<Documents></Documents>')));
  });

  test('comments, a declaration and text outside the users are passed over', () => {
    const xml = `\ufeff<?xml version="1.0"?>\n<!-- GİB list -->\n<UserList>\n<!-- <User><Identifier>9</Identifier></User> -->\n${taxpayers.slice(0, 3).map(taxpayerXml).join('\n<!-- between -->\n')}\n</UserList>\n`;
    assertSameAsGeneral(xml, smallPieces(13));
    assert.equal(generalWay(xml)[0].keys.length, 3);
  });

  test('a batch is whole record blocks, and the last one may be short', () => {
    const batches = encoderWay(registryXml(taxpayers.slice(0, BATCH + RECORDS_PER_BLOCK + 5)));
    assert.deepEqual(batches.map((b) => b.keys.length), [BATCH, RECORDS_PER_BLOCK + 5]);
    assert.equal(batches[1].blockEnds.length, 2);
  });
});

describe('a list of another shape is refused, for the general parser to read', () => {
  const shapes: Array<[string, string | Buffer]> = [
    ['a comment inside a user', withUser(user('T').replace('<Type>', '<!-- note --><Type>'))],
    ['a CDATA title', withUser(user('<![CDATA[A & B]]>'))],
    ['an attribute on a field', withUser(user('T').replace('<Type>', '<Type lang="tr">'))],
    ['fields in another order', withUser(user('T').replace(/<Type>Özel<\/Type><AccountType>Portal<\/AccountType>/, '<AccountType>Portal</AccountType><Type>Özel</Type>'))],
    ['an unknown element in a user', withUser(user('T').replace('<Documents>', '<Tags>x</Tags><Documents>'))],
    ['an empty-element title', withUser(user('T').replace('<Title>T</Title>', '<Title/>'))],
    ['a user with an attribute', withUser(user('T')).replace('<User><Identifier>1234567890', '<User id="1"><Identifier>1234567890')],
    ['a namespace prefix', withUser(user('T')).replace('<User><Identifier>1234567890', '<x:User xmlns:x="u"><Identifier>1234567890').replace(/<\/User>\n<\/UserList>/, '</x:User>\n</UserList>')],
    ['a document type', `<!DOCTYPE UserList>\n${registryXml([buildTaxpayer(1)], { declaration: false })}`],
    ['a missing field', withUser(user('T').replace('<AccountType>Portal</AccountType>', ''))],
    ['bytes that are not UTF-8', Buffer.concat([Buffer.from(withUser(user('X')).split('X')[0]), Buffer.from([0xc3, 0x28]), Buffer.from(withUser(user('X')).split('X').slice(1).join('X'))])],
    ['a list cut inside a user', registryXml([buildTaxpayer(1), buildTaxpayer(2)]).slice(0, 400)],
    ['no elements at all', '   \n'],
  ];
  for (const [label, xml] of shapes) {
    test(label, () => {
      assert.throws(() => encoderWay(xml), NotCanonicalListError);
      assert.throws(() => encoderWay(xml, smallPieces(17)), NotCanonicalListError);
    });
  }
});
