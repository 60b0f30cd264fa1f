// Realistic taxpayer titles for the generated registry. The real GİB list's 1.5 million titles hold
// hundreds of thousands of distinct words (surnames, given names, towns, brand names) with a long tail,
// plus a few hundred very common ones (trades, legal forms). Each vocabulary pool starts with real
// common heads and goes on with words built from Turkish syllables (vowel harmony), word r a pure
// function of (pool, r); draws are Zipf-like (rank r with probability ∝ 1/(r+1)) from (seed, entry).

import { asciiSlug } from './names';
import { hash3 } from './prng';

/** A vocabulary word in both cases, with its ASCII slug (for the e-mail domains of aliases). */
interface Word {
  title: string;
  upper: string;
  slug: string;
}

/** One vocabulary: its real heads, then generated words up to `size`. */
interface Pool {
  readonly heads: readonly string[];
  readonly size: number;
  /** Builds the generated word of rank r (r >= heads.length), lower case. */
  readonly make: (h: number) => string;
  /** Words of the most drawn ranks (filled lazily). */
  readonly cache: Array<Word | undefined>;
}

/** Ranks below this keep their words (about 80 % of draws; a few MB in the sandbox process). */
const CACHED_RANKS = 40_000;

const BACK = ['a', 'ı', 'o', 'u'] as const;
const FRONT = ['e', 'i', 'ö', 'ü'] as const;
/** Vowels after the first syllable: o/ö are rare there in Turkish. */
const BACK_LATER = ['a', 'a', 'ı', 'u'] as const;
const FRONT_LATER = ['e', 'e', 'i', 'ü'] as const;
const ONSETS = ['b', 'c', 'ç', 'd', 'f', 'g', 'h', 'k', 'k', 'l', 'm', 'm', 'n', 'p', 'r', 's', 's', 'ş', 't', 't', 'v', 'y', 'y', 'z'] as const;
const INNER_ONSETS = [...ONSETS, 'ğ', 'l', 'r', 'r', 'n', 'd'] as const;
const CODAS = ['', '', '', 'r', 'r', 'l', 'n', 'n', 'k', 't', 's', 'ş', 'z', 'y', 'm', 'ç', 'p'] as const;

/** A word of `syllables` syllables following front/back vowel harmony, from the bits of h. */
function syllableWord(h: number, syllables: number): string {
  const front = (h & 1) === 1;
  let word = '';
  for (let s = 0; s < syllables; s++) {
    const h2 = hash3(h, s, 77);
    const onsetList = s === 0 ? ONSETS : INNER_ONSETS;
    // A word may start with a vowel; later syllables always have an onset (no vowel clusters).
    const onset = s === 0 && h2 % 7 === 0 ? '' : onsetList[(h2 >>> 3) % onsetList.length];
    const vowels = s === 0 ? (front ? FRONT : BACK) : front ? FRONT_LATER : BACK_LATER;
    const vowel = vowels[(h2 >>> 9) % vowels.length];
    const coda = CODAS[(h2 >>> 13) % CODAS.length];
    word += onset + vowel + coda;
  }
  return word;
}

function endingOf(h: number, endings: readonly string[]): string {
  return endings[(h >>> 20) % endings.length];
}

const SURNAME_ENDINGS = ['oğlu', 'oğlu', 'er', 'can', 'türk', 'taş', 'kaya', 'soy', 'han', 'ak', 'gül', 'demir', 'dağ', 'el', 'ay', 'men', 'baş', 'tekin', '', '', '', ''] as const;
const TOWN_ENDINGS = ['köy', 'ova', 'dere', 'pınar', 'tepe', 'hisar', 'yurt', 'kent', 'bel', 'çay', 'ören', 'yazı', 'lı', 'lar', 'ler', 'su', 'kale', 'köy'] as const;

const SURNAME_HEADS = [
  'yılmaz', 'kaya', 'demir', 'şahin', 'çelik', 'yıldız', 'yıldırım', 'öztürk', 'aydın', 'özdemir', 'arslan', 'doğan', 'kılıç', 'aslan', 'çetin', 'kara',
  'koç', 'kurt', 'özkan', 'şimşek', 'polat', 'erdoğan', 'güneş', 'aktaş', 'işık', 'bulut', 'karaca', 'gündoğdu', 'erdem', 'uçar', 'korkmaz', 'özer',
  'keskin', 'ünal', 'tekin', 'yavuz', 'acar', 'avcı', 'bozkurt', 'kaplan', 'turan', 'sarı', 'tunç', 'güler', 'çakır', 'kocabaş', 'karakaya', 'ateş',
  'akın', 'durmaz', 'aksoy', 'uysal', 'işler', 'bayram', 'önal', 'karataş', 'yüksel', 'sezer', 'çiftçi', 'eren', 'metin', 'ekinci', 'taş', 'kahraman',
];
const GIVEN_HEADS = [
  'mehmet', 'ahmet', 'mustafa', 'ali', 'hüseyin', 'hasan', 'ibrahim', 'ismail', 'osman', 'yusuf', 'murat', 'ömer', 'ramazan', 'halil', 'süleyman',
  'abdullah', 'mahmut', 'recep', 'fatma', 'ayşe', 'emine', 'hatice', 'zeynep', 'elif', 'meryem', 'şerife', 'zehra', 'sultan', 'hanife', 'merve',
  'özlem', 'gülşen', 'şule', 'çağrı', 'ümit', 'burak', 'derya', 'serkan', 'işıl', 'kağan', 'büşra', 'oğuz', 'gizem', 'tuğba', 'yiğit', 'emre',
  'volkan', 'erkan', 'sevgi', 'cengiz', 'gökhan', 'hülya', 'nurettin', 'şükrü', 'ilker', 'İlknur',
];
const TOWN_HEADS = [
  'istanbul', 'ankara', 'izmir', 'bursa', 'antalya', 'konya', 'adana', 'gaziantep', 'kayseri', 'mersin', 'eskişehir', 'diyarbakır', 'samsun', 'denizli',
  'şanlıurfa', 'trabzon', 'malatya', 'erzurum', 'sakarya', 'kocaeli', 'manisa', 'hatay', 'balıkesir', 'aydın', 'tekirdağ', 'çorum', 'ordu', 'muğla',
  'afyon', 'isparta', 'kütahya', 'çanakkale', 'edirne', 'uşak', 'niğde', 'ığdır', 'kadıköy', 'üsküdar', 'çankaya', 'bornova', 'nilüfer', 'inegöl',
  'ünye', 'bafra', 'elbistan', 'ereğli', 'alanya', 'didim', 'çeşme', 'kuşadası',
];
const BRAND_HEADS = [
  'anadolu', 'ege', 'marmara', 'karadeniz', 'akdeniz', 'toros', 'kuzey', 'güney', 'doğu', 'batı', 'başak', 'çınar', 'göktürk', 'özgür', 'umut', 'şafak',
  'ışıltı', 'gökkuşağı', 'ufuk', 'deniz', 'yeni', 'mega', 'global', 'star', 'yıldız', 'altın', 'gümüş', 'inci', 'lale', 'zirve', 'vizyon', 'ideal',
  'güven', 'birlik', 'kardeşler', 'ortaklar', 'atlas', 'efe', 'ata', 'nur', 'ay', 'öz', 'pak', 'net', 'tek', 'has', 'uğur', 'bereket',
];
/** Trades and activities: few, very common, drawn Zipf-like too. */
const TRADES = [
  'ticaret', 'inşaat', 'gıda', 'tekstil', 'nakliyat', 'turizm', 'otomotiv', 'tarım', 'hayvancılık', 'mobilya', 'elektrik', 'elektronik', 'makine', 'enerji',
  'lojistik', 'yazılım', 'bilişim', 'danışmanlık', 'temizlik', 'güvenlik', 'sağlık', 'eğitim', 'kimya', 'plastik', 'ambalaj', 'matbaa', 'reklam', 'organizasyon',
  'petrol', 'akaryakıt', 'madencilik', 'metal', 'demir çelik', 'kuyumculuk', 'mücevherat', 'tekstil konfeksiyon', 'hazır giyim', 'ayakkabı', 'deri', 'orman ürünleri',
  'kereste', 'yapı malzemeleri', 'hırdavat', 'nalburiye', 'boya', 'cam', 'seramik', 'medikal', 'ilaç', 'kozmetik', 'unlu mamuller', 'et ürünleri', 'süt ürünleri',
  'su ürünleri', 'tohumculuk', 'peyzaj', 'emlak', 'gayrimenkul', 'yatırım', 'mühendislik', 'mimarlık', 'proje', 'müşavirlik', 'mali müşavirlik', 'sigorta aracılık',
  'dış ticaret', 'ithalat ihracat', 'pazarlama', 'dağıtım', 'toptan', 'market', 'restoran', 'kafe', 'otelcilik', 'seyahat', 'taşımacılık', 'kargo', 'oto kiralama',
  'oto yedek parça', 'lastik', 'akü', 'iklimlendirme', 'tesisat', 'asansör', 'jeneratör', 'solar', 'tarım makineleri', 'gübre', 'yem', 'un', 'bakliyat', 'kuru yemiş',
];
/** Legal forms and the stock phrases before them, as the list writes them (abbreviated or in full). */
const LEGAL_FORMS = [
  'sanayi ve ticaret limited şirketi', 'ticaret limited şirketi', 'ltd. şti.', 'san. ve tic. ltd. şti.', 'sanayi ve ticaret anonim şirketi', 'a.ş.',
  'san. tic. a.ş.', 'ticaret anonim şirketi', 'limited şirketi', 'anonim şirketi', 'tic. ltd. şti.', 've ortakları koll. şti.', 'kollektif şirketi',
  've ortakları komandit şirketi', 'sanayi ticaret limited şirketi', 'ithalat ihracat sanayi ve ticaret limited şirketi',
];
const PUBLIC_FORMS = ['belediyesi', 'belediye başkanlığı', 'tarım kredi kooperatifi', 'esnaf ve sanatkarlar odası', 'sulama kooperatifi', 'kaymakamlığı', 'il özel idaresi', 'muhtarlığı'];

function pool(heads: readonly string[], size: number, make: (h: number) => string): Pool {
  return { heads, size, make, cache: [] };
}

const SURNAMES = pool(SURNAME_HEADS, 320_000, (h) => syllableWord(h, 1 + (h % 3 === 0 ? 1 : 0) + ((h >>> 5) % 2)) + endingOf(h, SURNAME_ENDINGS));
const GIVEN = pool(GIVEN_HEADS, 40_000, (h) => syllableWord(h, 2 + ((h >>> 4) % 4 === 0 ? 1 : 0)));
const TOWNS = pool(TOWN_HEADS, 60_000, (h) => syllableWord(h, 1 + ((h >>> 6) % 2)) + endingOf(h, TOWN_ENDINGS));
const BRANDS = pool(BRAND_HEADS, 200_000, (h) => syllableWord(h, 2 + ((h >>> 7) % 2)));
const TRADE_POOL = pool(TRADES, TRADES.length, () => '');
const LEGAL_POOL = pool(LEGAL_FORMS, LEGAL_FORMS.length, () => '');
const PUBLIC_POOL = pool(PUBLIC_FORMS, PUBLIC_FORMS.length, () => '');
const POOLS = [SURNAMES, GIVEN, TOWNS, BRANDS, TRADE_POOL, LEGAL_POOL, PUBLIC_POOL];

/** A rank in [0, size) with probability ∝ 1/(rank+1) (log-uniform), from 32 random bits. */
function zipfRank(size: number, h: number): number {
  const u = h / 4294967296;
  return Math.min(size - 1, Math.floor(Math.exp(u * Math.log(size + 1))) - 1);
}

/** Turkish upper case without ICU (the locale-aware call costs about 1 µs a word): i → İ, ı → I. */
function upperTr(lower: string): string {
  return lower.replace(/i/g, 'İ').toUpperCase();
}

/** Title case of a lower-case phrase ("ltd. şti." -> "Ltd. Şti."). */
function titleCase(lower: string): string {
  return lower
    .split(' ')
    .map((w) => upperTr(w.charAt(0)) + w.slice(1))
    .join(' ');
}

/** Word r of a pool (multi-word trades and forms included). */
function wordOf(p: Pool, r: number): Word {
  const cached = p.cache[r];
  if (cached) return cached;
  const lower = r < p.heads.length ? p.heads[r].toLocaleLowerCase('tr') : p.make(hash3(0x5eed_0000 + POOLS.indexOf(p), r, 13));
  const space = lower.indexOf(' ');
  const word: Word = { title: titleCase(lower), upper: upperTr(lower), slug: asciiSlug(space < 0 ? lower : lower.slice(0, space)) || 'firma' };
  if (r < CACHED_RANKS) p.cache[r] = word;
  return word;
}

export interface GeneratedTitle {
  title: string;
  /** ASCII slug of the first word. */
  slug: string;
}

/**
 * The title of generated entry `index` for `seed`. Persons: "AHMET KARAPINAROĞLU"; companies:
 * "<surname or brand> [town or second surname] <trade> [trade] <legal form>"; a few public bodies.
 * Three titles in four are upper case, as in the GİB list; the rest title case.
 */
export function realisticTitle(seed: number, index: number, person: boolean): GeneratedTitle {
  const h = hash3(seed, index, 41);
  const upper = h % 4 !== 0;
  const parts: string[] = [];
  let slug = '';
  const draw = (p: Pool, salt: number): void => {
    const word = wordOf(p, zipfRank(p.size, hash3(seed, index, salt)));
    if (!slug) slug = word.slug;
    parts.push(upper ? word.upper : word.title);
  };
  if (person) {
    draw(GIVEN, 1);
    if ((h >>> 3) % 4 === 0) draw(GIVEN, 2);
    draw(SURNAMES, 3);
    return { title: parts.join(' '), slug };
  }
  if ((h >>> 5) % 40 === 0) {
    draw(TOWNS, 4);
    draw(PUBLIC_POOL, 5);
    return { title: parts.join(' '), slug };
  }
  draw((h >>> 7) % 3 === 0 ? BRANDS : SURNAMES, 6);
  const second = (h >>> 9) % 5;
  if (second === 0) draw(TOWNS, 7);
  else if (second === 1) draw(SURNAMES, 8);
  else if (second === 2) draw(BRANDS, 9);
  draw(TRADE_POOL, 10);
  if ((h >>> 12) % 3 === 0) draw(TRADE_POOL, 11);
  draw(LEGAL_POOL, 12);
  return { title: parts.join(' '), slug };
}
