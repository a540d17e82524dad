import type JSZip from 'jszip';
import { relsPathOf, resolveTarget } from './office-parts.js';
import { descendants, parseXml, serializeXml } from './xml.js';

// What a filled Office file keeps: the parts its package root reaches. A fill that writes a native
// chart as a new part (PowerPoint through pptx-automizer, Word in docx-charts) leaves the copy it
// replaced, named by a relationship but no longer by the part's XML: such chart relationships go,
// and with them the parts nothing reaches.

/**
 * Keeps only what the package reaches: parts no relationship leads to from the package root
 * go (a template slide left out, its notes; a chart no drawing shows), and relationships to parts that are gone are dropped
 * (the library's cleanup removed a picture the copies still pointed to).
 */
export async function keepReachableParts(zip: JSZip) {
  const has = (path: string) => !!zip.file(path);
  const relsOf = async (part: string) => {
    const file = zip.file(relsPathOf(part));
    return file ? { path: relsPathOf(part), doc: parseXml(await file.async('string'), relsPathOf(part)) } : null;
  };
  const reached = new Set<string>();
  const queue = [''];
  while (queue.length) {
    const part = queue.pop()!;
    const rels = await relsOf(part);
    if (!rels) continue;
    let changed = false;
    // A native chart fed with data is a new chart part; the copy it replaced is no longer named by the slide.
    const text = part ? ((await zip.file(part)?.async('string')) ?? '') : '';
    for (const rel of descendants(rels.doc, 'Relationship')) {
      if (rel.getAttribute('TargetMode') === 'External') continue;
      const target = resolveTarget(part, decodeURIComponent(rel.getAttribute('Target') ?? ''));
      const unnamedChart =
        (rel.getAttribute('Type') ?? '').endsWith('/chart') && !text.includes(`"${rel.getAttribute('Id')}"`);
      if (!has(target) || unnamedChart) {
        rel.parentNode!.removeChild(rel);
        changed = true;
      } else if (!reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
    if (changed) zip.file(rels.path, serializeXml(rels.doc));
  }
  const kept = (path: string) =>
    path === '[Content_Types].xml' ||
    reached.has(path) ||
    (path.endsWith('.rels') && (path === '_rels/.rels' || reached.has(path.replace(/_rels\/([^/]+)\.rels$/, '$1'))));
  const removed = Object.keys(zip.files).filter((p) => !zip.files[p].dir && !kept(p));
  for (const p of removed) zip.remove(p);
  const types = zip.file('[Content_Types].xml');
  if (types && removed.length) {
    const doc = parseXml(await types.async('string'), '[Content_Types].xml');
    for (const o of descendants(doc, 'Override'))
      if (removed.includes((o.getAttribute('PartName') ?? '').replace(/^\//, ''))) o.parentNode!.removeChild(o);
    zip.file('[Content_Types].xml', serializeXml(doc));
  }
}
