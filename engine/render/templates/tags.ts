/**
 * The one tag syntax of Word, Excel, PowerPoint and HTML templates. A tag is looked up, never run:
 * its text is parsed into one of these kinds, and the data for it is found by a key built from the
 * kind and the names it gives (own properties only, so `{{constructor}}` is just an unknown name).
 *
 *   {{vTotal}}                     a variable of the app
 *   {{=Sum(Sales)}}                an expression of the analytics engine
 *   {{field:Region}}               a field's values (a row per value in a table row or a sheet)
 *   {{image:Top customers}}        a chart drawn as a picture
 *   {{table:Top customers}}        a chart's data as a table (header and a row per data row)
 *   {{column:Top customers:Sales}} one column of a chart's data; its row repeats per data row
 *   {{#level:Region}}…{{/level:Region}}  the content between repeated per value, with it selected
 *   {{sheet:Region}} / {{slide:Region}}  the sheet or slide holding it repeated per value
 *   {{deleterow}}                  the row holding it is removed from the output
 */
export type TemplateTag =
  | { kind: 'variable'; name: string }
  | { kind: 'expression'; expression: string }
  | { kind: 'field'; field: string }
  | { kind: 'image'; chart: string }
  | { kind: 'table'; chart: string }
  | { kind: 'column'; chart: string; column: string }
  | { kind: 'levelOpen'; field: string }
  | { kind: 'levelClose'; field: string }
  | { kind: 'sheet'; field: string }
  | { kind: 'slide'; field: string }
  | { kind: 'deleterow' };

export type TagKind = TemplateTag['kind'];

/** A tag in running text: `{{` then anything but braces, then `}}`. */
export const TAG_PATTERN = /\{\{([^{}]{1,2000})\}\}/g;
/** Does this text hold a tag at all (cheap test before parsing). */
export const hasTag = (text: string) => text.includes('{{');

const PREFIXED: Record<string, (rest: string) => TemplateTag | null> = {
  'field:': (rest) => ({ kind: 'field', field: rest }),
  'image:': (rest) => ({ kind: 'image', chart: rest }),
  'table:': (rest) => ({ kind: 'table', chart: rest }),
  'column:': (rest) => {
    const cut = rest.indexOf(':');
    if (cut <= 0 || cut === rest.length - 1) return null;
    return { kind: 'column', chart: rest.slice(0, cut).trim(), column: rest.slice(cut + 1).trim() };
  },
  '#level:': (rest) => ({ kind: 'levelOpen', field: rest }),
  '/level:': (rest) => ({ kind: 'levelClose', field: rest }),
  'sheet:': (rest) => ({ kind: 'sheet', field: rest }),
  'slide:': (rest) => ({ kind: 'slide', field: rest }),
};

/** Parses the text between `{{` and `}}`; null when it is no tag of the syntax. */
export function parseTag(body: string): TemplateTag | null {
  const text = body.replace(/[\u00a0\s]+/g, ' ').trim();
  if (!text) return null;
  if (text.startsWith('=')) {
    const expression = text.slice(1).trim();
    return expression ? { kind: 'expression', expression } : null;
  }
  if (text.toLowerCase() === 'deleterow') return { kind: 'deleterow' };
  const lower = text.toLowerCase();
  for (const [prefix, make] of Object.entries(PREFIXED)) {
    if (!lower.startsWith(prefix)) continue;
    const rest = text.slice(prefix.length).trim();
    return rest ? make(rest) : null;
  }
  // A variable name: letters, digits, spaces and the usual punctuation of names; nothing else.
  if (/^[\p{L}\p{N}_ .$-]{1,200}$/u.test(text) && !text.includes(':')) return { kind: 'variable', name: text };
  return null;
}

/**
 * The key a tag's data is kept under. Names compare without case, as the app's names do; the same
 * tag written twice reads the same value.
 */
export function tagKey(tag: TemplateTag): string {
  switch (tag.kind) {
    case 'variable':
      return `v:${tag.name.toLowerCase()}`;
    case 'expression':
      return `e:${tag.expression}`;
    case 'field':
    case 'levelOpen':
    case 'levelClose':
    case 'sheet':
    case 'slide':
      return `f:${tag.field.toLowerCase()}`;
    case 'image':
    case 'table':
      return `c:${tag.chart.toLowerCase()}`;
    case 'column':
      return `c:${tag.chart.toLowerCase()}`;
    case 'deleterow':
      return 'deleterow';
  }
}

/** A tag as the designer writes it (the palette's `itemID`). */
export function tagText(tag: TemplateTag): string {
  switch (tag.kind) {
    case 'variable':
      return `{{${tag.name}}}`;
    case 'expression':
      return `{{=${tag.expression}}}`;
    case 'field':
      return `{{field:${tag.field}}}`;
    case 'image':
      return `{{image:${tag.chart}}}`;
    case 'table':
      return `{{table:${tag.chart}}}`;
    case 'column':
      return `{{column:${tag.chart}:${tag.column}}}`;
    case 'levelOpen':
      return `{{#level:${tag.field}}}`;
    case 'levelClose':
      return `{{/level:${tag.field}}}`;
    case 'sheet':
      return `{{sheet:${tag.field}}}`;
    case 'slide':
      return `{{slide:${tag.field}}}`;
    case 'deleterow':
      return '{{deleterow}}';
  }
}

/** Every tag of a text with where it starts and ends; text between `{{ }}` that is no tag comes back as null. */
export function tagsIn(text: string): { tag: TemplateTag | null; raw: string; start: number; end: number }[] {
  if (!hasTag(text)) return [];
  return [...text.matchAll(TAG_PATTERN)].map((m) => ({
    tag: parseTag(m[1]),
    raw: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** Reads an own property only: template data never answers with what objects inherit. */
export function own<T>(map: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}
