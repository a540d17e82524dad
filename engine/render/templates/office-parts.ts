import { partText, type OfficePackage } from './template-package.js';
import { descendants, parseXml, type Document } from './xml.js';

// Navigating an Office package: relationships from one part to others, resolved to part paths.

export interface Relationship {
  id: string;
  type: string;
  /** The part's path in the package (for internal targets). */
  path: string;
  external: boolean;
}

/** `xl/worksheets/sheet1.xml` → `xl/worksheets/_rels/sheet1.xml.rels`. */
/** A relationships part with no relationship yet, for a part that had none. */
export const EMPTY_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';

/**
 * A relationships part with relationships added (XML strings), whether it closes with
 * `</Relationships>` or is written empty as `<Relationships …/>`, as Word and the docx library write
 * a header's that has none.
 */
export function withRelationships(xml: string, added: string[]): string {
  const selfClosed = /<Relationships\b([^>]*?)\s*\/>/;
  if (selfClosed.test(xml)) return xml.replace(selfClosed, `<Relationships$1>${added.join('')}</Relationships>`);
  return xml.replace('</Relationships>', `${added.join('')}</Relationships>`);
}

export function relsPathOf(part: string): string {
  const cut = part.lastIndexOf('/');
  return `${part.slice(0, cut + 1)}_rels/${part.slice(cut + 1)}.rels`;
}

/** A relationship's target as a package path, relative to the part that holds it. */
export function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = fromPart.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

/** The relationships of a part (none when it has no .rels part). */
export function relationshipsOf(pkg: OfficePackage, part: string): Relationship[] {
  const text = partText(pkg, relsPathOf(part));
  if (!text) return [];
  return descendants(parseXml(text, relsPathOf(part)), 'Relationship').map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return {
      id: r.getAttribute('Id') ?? '',
      type: r.getAttribute('Type') ?? '',
      path: external ? target : resolveTarget(part, target),
      external,
    };
  });
}

/** The relationships of a part of one type, by the type's last segment ("worksheet", "chart"). */
export const relsOfType = (pkg: OfficePackage, part: string, kind: string) =>
  relationshipsOf(pkg, part).filter((r) => !r.external && r.type.endsWith(`/${kind}`));

/** A part parsed, or null when the package has no such part. */
export function partXml(pkg: OfficePackage, path: string): Document | null {
  const text = partText(pkg, path);
  return text === undefined ? null : parseXml(text, path);
}
