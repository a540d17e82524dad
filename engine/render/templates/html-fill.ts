import { Parser } from 'htmlparser2';
import { chartSvg } from '../chart-svg.js';
import { own, tagKey, tagsIn, TAG_PATTERN, parseTag, type TemplateTag } from './tags.js';
import {
  inScopes,
  tagValueText,
  type RepeatedRow,
  type TableValue,
  type TagOccurrence,
  type TemplateData,
  type TemplateScope,
} from './template-data.js';

// HTML templates: parsed to refuse what could run or reach out (scripts, event attributes,
// javascript: URLs, frames, objects, remote resources), then filled as text with every value
// escaped. Levels repeat the HTML between their tags; a table row with column or field tags repeats.

const BLOCKED_ELEMENTS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'form',
  'portal',
]);
const URL_ATTRIBUTES = new Set([
  'src',
  'href',
  'action',
  'formaction',
  'poster',
  'background',
  'srcset',
  'data',
  'xlink:href',
]);

/** What an HTML template must not hold, each with its line: nothing in it may run or fetch from elsewhere. */
export function htmlHazards(source: string): { where: string; message: string }[] {
  const found: { where: string; message: string }[] = [];
  const lineAt = (index: number) => source.slice(0, index).split('\n').length;
  // A DOCTYPE with an internal subset declares entities (which may read files): none is taken.
  for (const m of source.matchAll(/<!DOCTYPE[^>[]*\[|<!ENTITY/gi))
    found.push({ where: `line ${lineAt(m.index)}`, message: 'a DOCTYPE declaring entities is not allowed' });
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        const where = `line ${lineAt(parser.startIndex)}`;
        if (BLOCKED_ELEMENTS.has(name)) found.push({ where, message: `<${name}> is not allowed in a template` });
        if (name === 'meta' && /refresh/i.test(attributes['http-equiv'] ?? ''))
          found.push({ where, message: 'a <meta> refresh is not allowed in a template' });
        if (name === 'link' && !/^\s*(data:|#)/i.test(attributes.href ?? '#'))
          found.push({ where, message: '<link> to another file is not allowed: put the styles in a <style> element' });
        for (const [attr, value] of Object.entries(attributes)) {
          if (/^on/i.test(attr))
            found.push({ where, message: `the event attribute ${attr} is not allowed (nothing in a template runs)` });
          if (URL_ATTRIBUTES.has(attr.toLowerCase()) && /^\s*(javascript|vbscript):/i.test(value))
            found.push({ where, message: `a ${value.split(':')[0]}: URL is not allowed` });
          if (
            attr.toLowerCase() !== 'href' &&
            URL_ATTRIBUTES.has(attr.toLowerCase()) &&
            /^\s*(https?:|\/\/|\\\\|file:|ftp:|smb:)/i.test(value)
          )
            found.push({
              where,
              message: `${attr}="${value.slice(0, 80)}" loads from elsewhere: embed it (data: URL) instead`,
            });
          if (attr.toLowerCase() === 'style' && /url\s*\(\s*['"]?\s*(https?:|\/\/|file:)|expression\s*\(/i.test(value))
            found.push({ where, message: 'a style that loads from elsewhere is not allowed' });
        }
      },
      ontext(text) {
        if (/@import|url\s*\(\s*['"]?\s*(https?:|\/\/|file:)|expression\s*\(/i.test(text) && /[{};]/.test(text))
          found.push({
            where: `line ${lineAt(parser.startIndex)}`,
            message: 'a style that loads from elsewhere (@import or url()) is not allowed',
          });
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(source);
  parser.end();
  return found;
}

/** The tags of an HTML template in order, each at its line, and whether it lies in a table row. */
export function htmlTags(source: string): (TagOccurrence & { inRow: boolean })[] {
  const rows = rowRanges(source);
  return tagsIn(source).map((t) => {
    const row = rows.findIndex((r) => t.start > r.start && t.end < r.end);
    return {
      tag: t.tag,
      raw: t.raw,
      where: `line ${source.slice(0, t.start).split('\n').length}`,
      inRow: row >= 0,
      ...(row >= 0 && { rowId: `row ${row}` }),
    };
  });
}

/** Where each table row is (rows do not nest in templates worth the name). */
function rowRanges(source: string) {
  return [...source.matchAll(/<tr\b[^>]*>[\s\S]*?<\/tr\s*>/gi)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    html: m[0],
  }));
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function htmlTable(t: TableValue): string {
  const head = t.columns
    .map((c) => `<th${c.numeric ? ' style="text-align:right"' : ''}>${escapeHtml(c.label)}</th>`)
    .join('');
  const body = t.display
    .map(
      (r) =>
        `<tr>${r.map((v, j) => `<td${t.columns[j]?.numeric ? ' style="text-align:right"' : ''}>${escapeHtml(v)}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function valueHtml(tag: TemplateTag | null, scopes: TemplateScope[], row?: RepeatedRow): string {
  if (tag?.kind === 'table') {
    const table = inScopes(scopes, (s) => s.tables, tagKey(tag));
    return table ? htmlTable(table) : '';
  }
  if (tag?.kind === 'image') {
    const chart = inScopes(scopes, (s) => s.charts, tagKey(tag));
    return chart ? `<figure class="chart">${chartSvg(chart)}</figure>` : '';
  }
  return escapeHtml(tagValueText(tag, scopes, row));
}

/** The level open tag's span, widened to the element it is alone in (`<p>{{#level:R}}</p>` goes whole). */
function controlSpan(source: string, start: number, end: number): { start: number; end: number } {
  const before = source.slice(0, start).match(/<([a-z][a-z0-9]*)\b[^>]*>\s*$/i);
  const after = source.slice(end).match(/^\s*<\/([a-z][a-z0-9]*)\s*>/i);
  if (before && after && before[1].toLowerCase() === after[1].toLowerCase())
    return { start: start - before[0].length, end: end + after[0].length };
  return { start, end };
}

function fillRows(source: string, scopes: TemplateScope[]): string {
  let out = '';
  let last = 0;
  for (const row of rowRanges(source)) {
    const tags = tagsIn(row.html)
      .map((t) => t.tag)
      .filter((t): t is TemplateTag => !!t);
    if (tags.some((t) => t.kind === 'deleterow')) {
      out += source.slice(last, row.start);
      last = row.end;
      continue;
    }
    const src = tags.find((t) => t.kind === 'column') ?? tags.find((t) => t.kind === 'field');
    if (!src) continue;
    const key = tagKey(src);
    const pick = <T>(f: (s: TemplateScope) => T | undefined) =>
      scopes
        .map(f)
        .filter((x) => x !== undefined)
        .at(-1);
    const count = Math.max(
      1,
      src.kind === 'column'
        ? (pick((s) => own(s.tables, key))?.rows.length ?? 0)
        : (pick((s) => own(s.fields, key))?.length ?? 0),
    );
    out += source.slice(last, row.start);
    for (let k = 0; k < count; k++)
      out += row.html.replace(TAG_PATTERN, (_m, body: string) => valueHtml(parseTag(body), scopes, { key, k }));
    last = row.end;
  }
  out += source.slice(last);
  return out.replace(TAG_PATTERN, (_m, body: string) => valueHtml(parseTag(body), scopes));
}

/** Fills the HTML under a scope chain: levels first (each value's content filled under its scope), then rows and values. */
function fillPart(source: string, scopes: TemplateScope[]): string {
  const tags = tagsIn(source);
  const open = tags.find((t) => t.tag?.kind === 'levelOpen');
  if (!open) return fillRows(source, scopes);
  const key = tagKey(open.tag!);
  let depth = 0;
  const close = tags.find((t) => {
    if (t.start < open.start) return false;
    if (t.tag?.kind === 'levelOpen' && tagKey(t.tag) === key) depth++;
    if (t.tag?.kind === 'levelClose' && tagKey(t.tag) === key) depth--;
    return depth === 0;
  });
  if (!close) return fillRows(source, scopes);
  const a = controlSpan(source, open.start, open.end);
  const b = controlSpan(source, close.start, close.end);
  const inner = source.slice(a.end, b.start);
  const values = own(scopes[scopes.length - 1].levels, key) ?? [];
  return (
    fillRows(source.slice(0, a.start), scopes) +
    values.map((v) => fillPart(inner, [...scopes, v.scope])).join('') +
    fillPart(source.slice(b.end), scopes)
  );
}

/** Fills an HTML template; a template with hazards never gets here (refused at upload and at fill). */
export function fillHtml(source: string, data: TemplateData): Buffer {
  const hazards = htmlHazards(source);
  if (hazards.length) throw new Error(`The HTML template has ${hazards[0].message} (${hazards[0].where})`);
  return Buffer.from(fillPart(source, [data.root]), 'utf8');
}
