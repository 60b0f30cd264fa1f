// The Check Connection report as Markdown a user can paste into a bug report: what was called, what
// came back (status, time, shape: names and types, never a value or the key) and, row by row of
// the behaviour table, which answer the service showed. Pure: the localizer is passed in
// (`vscode.l10n` in the extension, a plain formatter in the unit tests).
// A server's words (a content type, what was seen, an answer's shape) go in as code, shown literally.
import { inlineCode as code, sourceCell } from '../../domain/markdown';
import { OPERATIONS } from '../../api/operations';
import type { Translator } from '../../domain/taxIdWording';
import type { ProbeResult } from './probes';
import { describeShape } from './shape';
import { mediaTypeShown, profileAnswers, type ListFinding, type NoAnswerReason, type RowVerdict } from './verdicts';

export interface ReportContext {
  /** "Test", "Custom URL"… in the display language. */
  environmentLabel: string;
  /** Origin of the server (no path, query or credentials). */
  origin: string;
  /** ISO time the check finished. */
  finishedAt: string;
  extensionVersion: string;
  vscodeVersion: string;
}

export interface ReportSummary {
  calls: number;
  matchDefault: number;
  matchAlternate: number;
  differs: number;
  notChecked: number;
  /** Rows that differ from both profiles, e.g. `1 registryLookupMissing`. */
  differingRows: string[];
}

/** The shape of one answer: JSON names and types, or the kind and size of a body that is not JSON. */
export function answerShape(result: ProbeResult, l10n: Translator): string {
  const a = result.answer;
  if (!a) return '';
  if (a.status === undefined) return l10n.t('no answer ({0})', a.failure ?? '?');
  if (a.body.kind === 'empty') return l10n.t('empty body');
  if (a.body.kind === 'json') return describeShape(a.body.value);
  if (a.body.kind === 'text') return l10n.t('text, {0} bytes{1}', a.bytes, a.truncated ? '+' : '');
  const zip = a.body.head[0] === 0x50 && a.body.head[1] === 0x4b;
  return zip ? l10n.t('ZIP bytes, {0} bytes read', a.bytes) : l10n.t('binary, {0} bytes read', a.bytes);
}

function reasonText(reason: NoAnswerReason, l10n: Translator): string {
  const texts: Record<NoAnswerReason, string> = {
    wouldWrite: l10n.t('not checked: would write'),
    callFailed: l10n.t('not observed: the call did not give a usable answer'),
    noUnregisteredNumber: l10n.t('not observed: no unregistered tax number was found to ask about'),
    noCustomer: l10n.t('not observed: the account has no customer to look up'),
    cannotTell: l10n.t('not observed: the answer does not tell the answers apart'),
    noEmptyList: l10n.t('not observed: every list the check reads has records'),
  };
  return texts[reason];
}

function matchText(v: RowVerdict, l10n: Translator): string {
  const texts: Record<RowVerdict['match'], string> = {
    default: l10n.t('as the default profile'),
    alternate: l10n.t('as the alternate profile'),
    both: l10n.t('as both profiles'),
    neither: `⚠ ${l10n.t('differs from both profiles')}`,
    unknown: '',
  };
  return texts[v.match];
}

function shown(v: RowVerdict, l10n: Translator): string {
  const x = v.verdict;
  if (x.kind === 'answer') return code(x.answer);
  if (x.kind === 'differs') return `**${l10n.t('differs')}**: ${code(x.seen)}`;
  return sourceCell(reasonText(x.reason, l10n)) + (x.seen ? ` (${code(x.seen)})` : '');
}

export function summarize(results: readonly ProbeResult[], verdicts: readonly RowVerdict[]): ReportSummary {
  return {
    calls: results.filter((r) => r.answer).length,
    matchDefault: verdicts.filter((v) => v.match === 'default' || v.match === 'both').length,
    matchAlternate: verdicts.filter((v) => v.match === 'alternate').length,
    differs: verdicts.filter((v) => v.match === 'neither').length,
    notChecked: verdicts.filter((v) => v.match === 'unknown').length,
    differingRows: verdicts.filter((v) => v.match === 'neither').map((v) => v.point),
  };
}

/** What a list's row in the report says: has records, empty (and how it said so), not offered, or cannot tell. */
export function listFindingText(f: ListFinding, l10n: Translator): string {
  if (f.availability === 'missing') return l10n.t('this server does not offer it (HTTP 404)');
  if (!f.emptyAnswer) return f.availability === 'offered' ? l10n.t('offered, with records') : l10n.t('not observed: the call did not give a usable answer');
  const texts: Record<NonNullable<ListFinding['emptyAnswer']>, string> = {
    emptyArray: l10n.t('offered, nothing in it (an empty answer)'),
    notFound: l10n.t("offered, nothing in it (HTTP 404 with the service's error)"),
    bareNotFound: l10n.t('offered, nothing in it (HTTP 404 with an empty body; a made-up key got 401/403 there)'),
    other: l10n.t('offered, nothing in it (HTTP 404 of another shape)'),
    cannotTell: l10n.t('HTTP 404 with no message: nothing in it, or not offered; this server does not tell them apart'),
  };
  return texts[f.emptyAnswer];
}

export function buildReport(context: ReportContext, results: readonly ProbeResult[], verdicts: readonly RowVerdict[], l10n: Translator, lists: readonly ListFinding[] = []): string {
  const s = summarize(results, verdicts);
  const lines: string[] = [];
  lines.push(`# ${l10n.t('Nilvera: Check Connection')}`, '');
  lines.push(`- ${l10n.t('Environment')}: ${sourceCell(context.environmentLabel)} (${code(context.origin)})`);
  lines.push(`- ${l10n.t('Checked')}: ${context.finishedAt}`);
  lines.push(`- ${l10n.t('Extension')}: ${context.extensionVersion} · VS Code ${context.vscodeVersion}`);
  lines.push(`- ${l10n.t('Calls')}: ${s.calls} (${l10n.t('read-only: GET, and one POST look-up that changes nothing')})`);
  lines.push(
    `- ${l10n.t('Result')}: ${l10n.t('{0} rows as the default profile, {1} as the alternate, {2} differ from both, {3} not checked', s.matchDefault, s.matchAlternate, s.differs, s.notChecked)}`,
    '',
  );
  const differing = verdicts.filter((v) => v.match === 'neither');
  if (differing.length > 0) {
    lines.push(`> ⚠ ${l10n.t('The service differs from both sandbox profiles in these rows:')}`);
    for (const v of differing) lines.push(`> - \`${v.point}\`: ${shown(v, l10n)}`);
    lines.push('');
  }
  lines.push(`## ${l10n.t('Behaviour rows')}`, '');
  lines.push(`| ${l10n.t('Point')} | ${l10n.t('Service showed')} | ${l10n.t('Default')} | ${l10n.t('Alternate')} | ${l10n.t('Verdict')} |`, '|---|---|---|---|---|');
  for (const v of verdicts) {
    const row = profileAnswers(v.point);
    lines.push(`| \`${v.point}\` | ${shown(v, l10n)} | ${code(row.default)} | ${code(row.alternate)} | ${matchText(v, l10n)} |`);
  }
  if (lists.length > 0) {
    lines.push('', `## ${l10n.t('Lists that may answer 404 when empty')}`, '');
    lines.push(`| ${l10n.t('List')} | ${l10n.t('Found')} |`, '|---|---|');
    for (const f of lists) lines.push(`| ${code(`GET ${OPERATIONS[f.operation].path}`)} | ${sourceCell(listFindingText(f, l10n))} |`);
    lines.push('', `_${l10n.t('The views show an empty list, or say that this server does not offer it, from what this check found.')}_`);
  }
  lines.push('', `## ${l10n.t('Calls')}`, '');
  lines.push(`| ${l10n.t('Call')} | ${l10n.t('Status')} | ${l10n.t('Time')} | ${l10n.t('Answer shape')} |`, '|---|---|---|---|');
  for (const r of results) {
    const call = code(`${r.method} ${r.template}${r.query ? `?${r.query}` : ''}`);
    if (r.skipped) {
      lines.push(`| ${call} | — | — | ${sourceCell(l10n.t('not called: {0}', skippedText(r.skipped, l10n)))} |`);
      continue;
    }
    const a = r.answer;
    const status = a?.status !== undefined ? String(a.status) : '—';
    const type = a?.contentType ? ` ${code(mediaTypeShown(a.contentType))}` : '';
    lines.push(`| ${call} | ${status}${type} | ${a ? `${a.ms} ms` : '—'} | ${code(answerShape(r, l10n))} |`);
  }
  lines.push('', `_${l10n.t('The wrong-key call used a randomly generated key. The report holds no key, tax number or record value: only paths, statuses, times and the names and types of the fields.')}_`, '');
  return lines.join('\n');
}

function skippedText(reason: NonNullable<ProbeResult['skipped']>, l10n: Translator): string {
  const texts: Record<typeof reason, string> = {
    noCompanyTaxNumber: l10n.t("the company's tax number was not found"),
    noUnregisteredNumber: l10n.t('no unregistered tax number was found'),
    noCustomer: l10n.t('the account has no customer'),
  };
  return texts[reason];
}
