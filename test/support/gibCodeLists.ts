// GİB's UBL-TR code lists, read at test time from GİB's own validation package (e-FaturaPaketi.zip,
// schematron/UBL-TR_Codelist.xml: `<sch:let name="ProfileIDType" value="',TICARIFATURA,…,'"/>`), so the
// product's tables are held against their source. The archive carries no licence: it is never copied
// into the repository or shipped; it is found in $NILVERA_GIB_DATA, else in the shared data folder
// beside the repository (../shared/data/gib, as the team's machines have it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import JSZip from 'jszip';

const ARCHIVE = 'e-FaturaPaketi.zip';
const CODELIST = 'schematron/UBL-TR_Codelist.xml';

/** Where the archive may be, first found wins. */
export function gibArchiveCandidates(repoRoot: string): string[] {
  const dirs = [process.env.NILVERA_GIB_DATA, path.join(repoRoot, '..', 'shared', 'data', 'gib'), path.join(repoRoot, '..', '..', 'shared', 'data', 'gib'), '/work/shared/data/gib'];
  return dirs.filter((d): d is string => !!d).map((d) => path.join(d, ARCHIVE));
}

export function findGibArchive(repoRoot: string): string | undefined {
  return gibArchiveCandidates(repoRoot).find((f) => fs.existsSync(f));
}

/** Every `let` list of UBL-TR_Codelist.xml by name: the codes between the commas. */
export async function readGibCodeLists(archive: string): Promise<Map<string, string[]>> {
  const zip = await JSZip.loadAsync(fs.readFileSync(archive));
  const entry = zip.file(new RegExp(`(^|/)${CODELIST.replace(/[.]/g, '\\.')}$`))[0];
  if (!entry) throw new Error(`${archive} holds no ${CODELIST}`);
  const xml = await entry.async('string');
  const lists = new Map<string, string[]>();
  for (const m of xml.matchAll(/<sch:let\s+name="([^"]+)"\s+value\s*=\s*"'([^']*)'"/g)) {
    lists.set(m[1], m[2].split(',').map((c) => c.trim()).filter((c) => c.length > 0));
  }
  return lists;
}
