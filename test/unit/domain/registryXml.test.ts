import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RegistryXmlError, RegistryXmlParser } from '../../../src/domain/registryXml';
import { decodeXmlEntities } from '../../../src/domain/xmlChars';
import type { Taxpayer } from '../../../src/domain/registryXml';
import { buildTaxpayer, parseRegistryXml, registryXml, splitAt, taxpayerXml, xmlEscape } from '../../support/registryFixtures';

function parseChunks(chunks: Buffer[]): Taxpayer[] {
  const out: Taxpayer[] = [];
  const p = new RegistryXmlParser();
  for (const c of chunks) {
    p.write(c);
    out.push(...(p.take() ?? []));
  }
  p.end();
  return out;
}

/** A small document exercising everything the parser must tolerate. */
const TRICKY = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE UserList [ <!ELEMENT UserList ANY> ]>
<!-- GİB e-Fatura kayıtlı kullanıcı listesi; a <User> in a comment is not a user -->
<UserList xmlns:x="urn:example" version='2'>
  <User>
    <Identifier> 4540536920 </Identifier>
    <Title>ÖZTÜRK &amp; OĞULLARI &lt;Ltd&gt; &quot;Şti&quot; &apos;x&apos; &#304;&#x15F; &#x1F600; &unknown;</Title>
    <Type>Özel</Type>
    <Notes><User><Identifier>999</Identifier></User><Deep a="1"><Deeper/></Deep></Notes>
    <AccountType><![CDATA[Portal <&> ]]></AccountType>
    <FirstCreationTime>2019-01-02T10:00:00</FirstCreationTime>
    <Documents>
      <Unknown/>
      <Document type='Invoice' note="a > b">
        <Alias><Name>urn:mail:defaultpk@öztürk.com.tr</Name><CreationTime>2019-01-02T10:00:00</CreationTime><Extra>skip</Extra></Alias>
        <Alias>
          <Name>urn:mail:eski@x.com</Name>
          <CreationTime>2018-01-01T00:00:00</CreationTime>
          <DeletionTime>2019-01-01T00:00:00</DeletionTime>
        </Alias>
      </Document>
      <x:Document x:type="DespatchAdvice"><x:Alias><x:Name>urn:mail:irsaliye@x.com</x:Name><x:CreationTime>2020</x:CreationTime></x:Alias></x:Document>
    </Documents>
  </User>
  <User><Identifier>10000000146</Identifier><Title>Ayşe 😀 <b>Yılmaz</b></Title><Documents/></User>
</UserList>
`;

const TRICKY_EXPECTED: Taxpayer[] = [
  {
    Identifier: '4540536920',
    Title: `ÖZTÜRK & OĞULLARI <Ltd> "Şti" 'x' İş \u{1F600} &unknown;`,
    Type: 'Özel',
    AccountType: 'Portal <&>',
    FirstCreationTime: '2019-01-02T10:00:00',
    Documents: [
      {
        type: 'Invoice',
        aliases: [
          { Name: 'urn:mail:defaultpk@öztürk.com.tr', CreationTime: '2019-01-02T10:00:00' },
          { Name: 'urn:mail:eski@x.com', CreationTime: '2018-01-01T00:00:00', DeletionTime: '2019-01-01T00:00:00' },
        ],
      },
      { type: 'DespatchAdvice', aliases: [{ Name: 'urn:mail:irsaliye@x.com', CreationTime: '2020' }] },
    ],
  },
  // Text of a child element inside a field is skipped; the field keeps its own text.
  { Identifier: '10000000146', Title: 'Ayşe \u{1F600}', Type: '', AccountType: '', FirstCreationTime: '', Documents: [] },
];

test('parses what the fixture builder writes, field for field', () => {
  const taxpayers = Array.from({ length: 50 }, (_, i) => buildTaxpayer(i));
  assert.deepEqual(parseRegistryXml(registryXml(taxpayers)), taxpayers);
  assert.deepEqual(parseRegistryXml(Buffer.from(registryXml(taxpayers, { declaration: false, separator: '' }))), taxpayers);
  // The builder varies what matters: persons and companies, deleted aliases, two document types.
  assert.ok(taxpayers.some((t) => t.Identifier.length === 11) && taxpayers.some((t) => t.Identifier.length === 10));
  assert.ok(taxpayers.some((t) => t.Documents.some((d) => d.aliases.some((a) => a.DeletionTime))));
  assert.ok(taxpayers.some((t) => t.Documents.some((d) => d.type === 'DespatchAdvice')));
});

test('declaration, DOCTYPE, comments, CDATA, entities, unknown elements, namespaces and both quote styles', () => {
  assert.deepEqual(parseRegistryXml(TRICKY), TRICKY_EXPECTED);
});

test('split at every byte (inside characters, tags, entities, comments and CDATA) the result is the same', () => {
  const bytes = Buffer.from(TRICKY, 'utf8');
  for (let i = 0; i <= bytes.length; i++) {
    assert.deepEqual(parseChunks(splitAt(bytes, [i])), TRICKY_EXPECTED, `split at byte ${i}`);
  }
  // One byte at a time.
  assert.deepEqual(parseChunks(splitAt(bytes, [...Array(bytes.length).keys()].slice(1))), TRICKY_EXPECTED);
});

test('many users in uneven chunks match the builder output', () => {
  const taxpayers = Array.from({ length: 400 }, (_, i) => buildTaxpayer(1000 + i));
  const bytes = Buffer.from(registryXml(taxpayers), 'utf8');
  const cuts: number[] = [];
  for (let o = 0, k = 0; o < bytes.length; k++) {
    o += 1 + ((k * 37) % 251);
    if (o < bytes.length) cuts.push(o);
  }
  assert.deepEqual(parseChunks(splitAt(bytes, cuts)), taxpayers);
});

test('entity decoding', () => {
  assert.equal(decodeXmlEntities('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;'), `a & b <c> "d" 'e'`);
  assert.equal(decodeXmlEntities('&#65;&#x42; &#x131; &#128512;'), 'AB ı \u{1F600}');
  assert.equal(decodeXmlEntities('&nbsp; &#xFFFFFFF; & alone'), '&nbsp; &#xFFFFFFF; & alone');
  assert.equal(decodeXmlEntities('&amp;lt;'), '&lt;');
});

test('users come out one by one, before the input has ended', () => {
  const seen: string[] = [];
  const p = new RegistryXmlParser();
  const write = (text: string) => {
    p.write(Buffer.from(text));
    seen.push(...(p.take() ?? []).map((t) => t.Identifier));
  };
  const a = buildTaxpayer(1);
  const b = buildTaxpayer(2);
  write('<UserList>' + taxpayerXml(a));
  assert.deepEqual(seen, [a.Identifier]);
  write(taxpayerXml(b).slice(0, 40));
  assert.deepEqual(seen, [a.Identifier]);
  write(taxpayerXml(b).slice(40) + '</UserList>');
  assert.deepEqual(seen, [a.Identifier, b.Identifier]);
  p.end();
  assert.equal(p.taxpayerCount, 2);
});

test('truncated or broken input gives a RegistryXmlError', () => {
  const full = registryXml([buildTaxpayer(1), buildTaxpayer(2)]);
  const cut = full.slice(0, full.indexOf('<Title>', full.indexOf('<Title>') + 1) + 3);
  assert.throws(() => parseRegistryXml(cut), (e: unknown) => e instanceof RegistryXmlError && /ends inside/.test(e.message));
  assert.throws(() => parseRegistryXml(full.slice(0, full.lastIndexOf('</User>'))), RegistryXmlError);
  assert.throws(() => parseRegistryXml('plain text, not XML'), RegistryXmlError);
  assert.throws(() => parseRegistryXml(''), RegistryXmlError);
  assert.throws(() => parseRegistryXml('<UserList><User><Identifier>1</Identifier></Wrong></UserList>'), (e: unknown) => e instanceof RegistryXmlError && /Wrong/.test(e.message));
  assert.throws(() => parseRegistryXml('<UserList><!-- never closed </UserList>'), RegistryXmlError);
  // An empty list is valid and yields nothing.
  assert.deepEqual(parseRegistryXml('<?xml version="1.0"?><UserList/>'), []);
});

test('a field larger than the limit stops the parser instead of buffering without end', () => {
  const p = new RegistryXmlParser(1000);
  p.write(Buffer.from('<UserList><User><Title>'));
  assert.throws(() => {
    for (let i = 0; i < 10; i++) p.write(Buffer.from('x'.repeat(300)));
  }, (e: unknown) => e instanceof RegistryXmlError && /longer than 1000 bytes/.test(e.message));
  // Skipped text does not count against the limit: it is dropped as it streams past.
  const q = new RegistryXmlParser(1000);
  q.write(Buffer.from('<UserList><User><Identifier>1</Identifier><Big>'));
  for (let i = 0; i < 100; i++) q.write(Buffer.from('y'.repeat(300)));
  q.write(Buffer.from('</Big></User></UserList>'));
  q.end();
  assert.equal(q.taxpayerCount, 1);
});

/** Escapes text for an attribute in `quote`, leaving '>' as written (XML allows it there). */
function attrEscape(text: string, quote: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(new RegExp(quote, 'g'), quote === '"' ? '&quot;' : '&apos;');
}

// The ways a <Document> start tag can be written: GİB's own first (the parser reads it on a shorter path).
const DOCUMENT_TAGS: Array<(type: string) => [open: string, close: string]> = [
  (t) => [`<Document type="${attrEscape(t, '"')}">`, '</Document>'],
  (t) => [`<Document type='${attrEscape(t, "'")}'>`, '</Document>'],
  (t) => [`<Document type="${attrEscape(t, '"')}" note="x">`, '</Document>'],
  (t) => [`<Document note="a > b" type="${attrEscape(t, '"')}" >`, '</Document>'],
  (t) => [`<Document type = "${attrEscape(t, '"')}"\n>`, '</Document>'],
  (t) => [`<x:Document x:type="${attrEscape(t, '"')}">`, '</x:Document>'],
];
// Values that repeat, differ from each other in one character or share a start, with entities and white space to trim.
const value = fc.oneof(fc.constantFrom('Özel', 'Özal', 'Özel Şirket', 'Kamu', 'İş', 'a > "b" & \'c\'', ''), fc.string({ maxLength: 8 }).map((s) => s.trim()));
const padding = fc.constantFrom('', ' ', '\n\t', '\u00a0');
const alias = fc.record({ Name: value, CreationTime: value, DeletionTime: value }, { requiredKeys: ['Name', 'CreationTime'], noNullPrototype: true });
const taxpayer = fc.record({
  Identifier: fc.stringMatching(/^[0-9]{10,11}$/),
  Title: value,
  Type: value,
  AccountType: value,
  FirstCreationTime: value,
  Documents: fc.array(fc.record({ type: value, aliases: fc.array(alias, { maxLength: 2 }) }, { noNullPrototype: true }), { maxLength: 3 }),
}, { noNullPrototype: true });
const written = fc.record({ taxpayers: fc.array(taxpayer, { maxLength: 6 }), tags: fc.array(fc.nat(), { minLength: 20, maxLength: 20 }), pad: padding, cuts: fc.array(fc.nat(), { maxLength: 8 }), prefixedUser: fc.boolean() });

test('what was written comes back field for field, however <Document> is written and the input is cut (property)', () => {
  fc.assert(
    fc.property(written, ({ taxpayers, tags, pad, cuts, prefixedUser }) => {
      let k = 0;
      const field = (name: string, text: string) => `<${name}>${pad}${xmlEscape(text)}${pad}</${name}>`;
      const user = prefixedUser ? 'x:User' : 'User';
      const xml = taxpayers.map((t) => {
        const docs = t.Documents.map((d) => {
          const [open, close] = DOCUMENT_TAGS[tags[k++ % tags.length] % DOCUMENT_TAGS.length](d.type);
          const aliases = d.aliases.map((a) => `<Alias>${field('Name', a.Name)}${field('CreationTime', a.CreationTime)}${a.DeletionTime === undefined ? '' : field('DeletionTime', a.DeletionTime)}</Alias>`);
          return open + aliases.join('') + close;
        });
        return `<${user}>${field('Identifier', t.Identifier)}${field('Title', t.Title)}${field('Type', t.Type)}${field('AccountType', t.AccountType)}${field('FirstCreationTime', t.FirstCreationTime)}<Documents>${docs.join('')}</Documents></${user}>`;
      });
      const bytes = Buffer.from(`<UserList xmlns:x="urn:x">${xml.join('\n')}</UserList>`);
      assert.deepEqual(parseChunks(splitAt(bytes, cuts.map((c) => c % (bytes.length + 1)))), taxpayers);
    }),
    { numRuns: 300 },
  );
});
