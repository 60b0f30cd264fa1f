// Word lists for Turkish-looking seed data (invented combinations of common words and names).
import { foldTurkish } from '../../registry/fold';

export const FIRST_NAMES = [
  'Ahmet', 'Mehmet', 'Mustafa', 'Ayşe', 'Fatma', 'Emine', 'Hüseyin', 'Hatice', 'İbrahim', 'Zeynep',
  'Ali', 'Elif', 'Hasan', 'Şule', 'Murat', 'Gülşen', 'Ömer', 'Özlem', 'Çağrı', 'Ümit',
  'Burak', 'Derya', 'Serkan', 'Işıl', 'Kağan', 'Büşra', 'Oğuz', 'Gizem', 'Tuğba', 'Yiğit',
] as const;

export const SURNAMES = [
  'Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Yıldırım', 'Öztürk', 'Aydın', 'Özdemir',
  'Arslan', 'Doğan', 'Kılıç', 'Aslan', 'Çetin', 'Kara', 'Koç', 'Kurt', 'Özkan', 'Şimşek',
  'Polat', 'Erdoğan', 'Güneş', 'Aktaş', 'Işık', 'Bulut', 'Karaca', 'Gündoğdu', 'Erdem', 'Uçar',
] as const;

export const COMPANY_WORDS = [
  'Anadolu', 'Ege', 'Marmara', 'Karadeniz', 'Akdeniz', 'Toros', 'Kuzey', 'Güney', 'Yıldız', 'Doğu',
  'Başak', 'Çınar', 'Göktürk', 'Özgür', 'Umut', 'Şafak', 'Işıltı', 'Gökkuşağı', 'Ufuk', 'Deniz',
] as const;

export const SECTORS = [
  'Gıda', 'Tekstil', 'İnşaat', 'Lojistik', 'Yazılım', 'Otomotiv', 'Enerji', 'Tarım', 'Mobilya', 'Kimya',
  'Turizm', 'Elektrik', 'Makine', 'Ambalaj', 'Medikal', 'Danışmanlık', 'Matbaa', 'Kuyumculuk', 'Plastik', 'Çelik',
] as const;

export const SUFFIXES = [
  'Sanayi ve Ticaret A.Ş.', 'Ticaret Ltd. Şti.', 'San. Tic. A.Ş.', 'Pazarlama A.Ş.', 'Hizmetleri Ltd. Şti.',
  'İthalat İhracat A.Ş.', 'Dış Ticaret Ltd. Şti.', 'Holding A.Ş.',
] as const;

/** Titles with XML special characters, mixed into the registry so the XML writer must escape them. */
export const TRICKY_TITLES = [
  'Yılmaz & Oğulları Ticaret Ltd. Şti.',
  '<Deneme> Yazılım A.Ş.',
  '"Kalite" Gıda San. Tic. A.Ş.',
  "O'Neil & Şürekası 'Dış Ticaret' Ltd. Şti.",
] as const;

export const CITIES: ReadonlyArray<{ city: string; districts: readonly string[]; taxOffices: readonly string[] }> = [
  { city: 'İstanbul', districts: ['Kadıköy', 'Beşiktaş', 'Şişli', 'Üsküdar', 'Ümraniye', 'Bakırköy'], taxOffices: ['Kadıköy', 'Zincirlikuyu', 'Mecidiyeköy', 'Üsküdar', 'Boğaziçi Kurumlar'] },
  { city: 'Ankara', districts: ['Çankaya', 'Keçiören', 'Yenimahalle', 'Etimesgut', 'Mamak'], taxOffices: ['Çankaya', 'Maltepe', 'Kavaklıdere', 'Ostim'] },
  { city: 'İzmir', districts: ['Konak', 'Karşıyaka', 'Bornova', 'Buca', 'Çiğli'], taxOffices: ['Konak', 'Karşıyaka', 'Bornova', 'Hasan Tahsin'] },
  { city: 'Bursa', districts: ['Osmangazi', 'Nilüfer', 'Yıldırım', 'İnegöl'], taxOffices: ['Osmangazi', 'Nilüfer', 'Ertuğrulgazi'] },
  { city: 'Antalya', districts: ['Muratpaşa', 'Kepez', 'Konyaaltı', 'Alanya'], taxOffices: ['Muratpaşa', 'Kurumlar', 'Antalya'] },
  { city: 'Gaziantep', districts: ['Şahinbey', 'Şehitkamil'], taxOffices: ['Şahinbey', 'Suburcu'] },
  { city: 'Eskişehir', districts: ['Odunpazarı', 'Tepebaşı'], taxOffices: ['Yunus Emre', 'Eskişehir'] },
  { city: 'Trabzon', districts: ['Ortahisar', 'Akçaabat'], taxOffices: ['Karadeniz', 'Hızırbey'] },
];

export const STREETS = [
  'Atatürk Cad.', 'Cumhuriyet Cad.', 'İstiklal Cad.', 'Gazi Bulvarı', 'Çiçek Sok.', 'Gül Sok.',
  'Menekşe Sok.', 'Fevzi Çakmak Cad.', 'İnönü Bulvarı', 'Şehit Mehmet Sok.',
] as const;

export const DOMAINS = ['com.tr', 'com', 'net.tr', 'gen.tr'] as const;

/** Lower-cases for e-mail local parts and domains: Turkish letters become ASCII. */
export function asciiSlug(s: string): string {
  const map: Record<string, string> = { ç: 'c', ğ: 'g', ı: 'i', ö: 'o', ş: 's', ü: 'u', â: 'a', î: 'i', û: 'u' };
  return foldTurkish(s)
    .replace(/[çğıöşüâîû]/g, (c) => map[c] ?? c)
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, 24);
}

const slugCache = new Map<string, string>();

/** asciiSlug of a title's first word, memoised (tricky and run-time titles; generated ones carry their slug). */
export function slugOfFirstWord(title: string): string {
  const space = title.indexOf(' ');
  const word = space < 0 ? title : title.slice(0, space);
  let slug = slugCache.get(word);
  if (slug === undefined) {
    slug = asciiSlug(word) || 'firma';
    if (slugCache.size < 10_000) slugCache.set(word, slug);
  }
  return slug;
}
