// Templates are hostile input and designers make mistakes: every tag is checked against the app
// with where it is, before anything is saved; macros, links, OLE objects, entities, bombs and
// scripts are refused with a message; uploads version the file; downloads give it back as it was.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { demoProject } from '../support/demo-figures.js';
import {
  excelTemplate,
  htmlTemplate,
  powerPointTemplate,
  withPart,
  manyTagsWordTemplate,
  wordTemplate,
} from '../support/office-templates.js';
import { fillHtml } from '../../engine/render/templates/html-fill.js';
import { emptyScope } from '../../engine/render/templates/template-data.js';
import { officeConvert, LIBREOFFICE_MISSING } from '../../engine/render/templates/office-pdf.js';
import JSZip from 'jszip';

let s: TestServer;
let projectId: string;
let connectionId: string;

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  ({ projectId, connectionId } = await demoProject(s));
}, 120_000);
afterAll(() => s.stop());

const create = (name: string, fileName: string, bytes: Buffer, extra: Record<string, unknown> = {}) =>
  s.call('POST', '/api/app/reports/from-template', {
    body: { name, projectId, connectionId, fileName, content: bytes.toString('base64'), ...extra },
  });
const reportCount = async () => (await s.call('GET', '/api/v1/reports', { query: { pageSize: 1 } })).body.totalItems;

describe(covers('template checks on upload', 'app.reports.createFromTemplate', 'app.reports.checkTemplate'), () => {
  it('reports every unknown or misplaced tag with its place, and saves nothing', async () => {
    const before = await reportCount();
    const bad = await wordTemplate([
      'Unknown {{vNope}} here',
      '{{column:Sales by region:Region}} outside any table',
      ['{{constr', 'uctor}} and {{__proto__}}'],
      '{{column:Sales by region:Profit}}',
      '{{=Sum(}}',
      '{{sheet:Region}}',
      '{{#level:Nowhere}}',
    ]);
    const res = await create('Bad', 'Bad.docx', bad);
    expect(res.status).toBe(400);
    const details = res.body.errorDetails!.map((d) => `${d.field} → ${d.message}`);
    const at = (tag: string) => details.filter((d) => d.includes(tag));
    expect(at('{{vNope}}')[0]).toMatch(
      /^templateFile:document, paragraph \d+ → \{\{vNope\}\} names no variable of the app/,
    );
    expect(at('outside')).toEqual([]);
    expect(at('{{column:Sales by region:Region}}').join('\n')).toMatch(/paragraph \d+ → .*belongs in a table row/);
    expect(at('{{constructor}}')[0]).toMatch(/names no variable/);
    expect(at('{{__proto__}}')[0]).toMatch(/names no variable/);
    expect(at('{{column:Sales by region:Profit}}').join('\n')).toMatch(
      /names no column of "Sales by region" \(it has Region, Sales\)/,
    );
    expect(at('{{=Sum(}}')[0]).toMatch(/is not a valid expression/);
    expect(at('{{sheet:Region}}')[0]).toMatch(/only an Excel template has sheets/);
    expect(at('{{#level:Nowhere}}').join('\n')).toMatch(/never closed/);
    expect(at('{{#level:Nowhere}}').join('\n')).toMatch(/names no field/);
    expect(res.body.error).toMatch(/problems in the template need fixing/);
    expect(await reportCount()).toBe(before);
  });

  it('lists problems in reading order, without those that only follow from an earlier one', async () => {
    const bad = await wordTemplate([
      '{{#level:Nope}}',
      'Dear {{vNope}}',
      '{{/level:Nope}}',
      '{{#level Region}}',
      'text',
      '{{/level:Region}}',
    ]);
    const res = await create('Order', 'Order.docx', bad);
    expect(res.status).toBe(400);
    const details = res.body.errorDetails!.map((d) => d.message);
    const mine = details.filter((d) => /Nope|level Region|level:Region/.test(d));
    expect(mine).toEqual([
      expect.stringMatching(/^\{\{#level:Nope\}\} names no field/),
      expect.stringMatching(/^\{\{vNope\}\} names no variable/),
      expect.stringMatching(/^\{\{#level Region\}\} is no tag Broadsheet knows/),
    ]);
    // The close of the unknown level and the close whose open was no tag are not faulted again.
    expect(details.join('\n')).not.toMatch(/\{\{\/level:Nope\}\}|closes a level that was not opened/);
  });

  it('checks a file without saving it: the tags with where they are', async () => {
    const r = (await create('Checked', 'Checked.xlsx', await excelTemplate())).body.data;
    const check = await s.ok('POST', `/api/app/reports/${r.id}/template/check`, {
      fileName: 'Next.xlsx',
      content: (await excelTemplate()).toString('base64'),
    });
    expect(check.format).toBe('xlsx');
    expect(check.tags).toContainEqual({ tag: '{{column:Sales by region:Sales}}', where: 'Sales!B5' });
    expect(check.tags).toContainEqual({ tag: '{{#level:Region}}', where: 'Sales!A8' });
    const wrongType = await s.call('POST', `/api/app/reports/${r.id}/template/check`, {
      body: { fileName: 'Next.docx', content: (await wordTemplate()).toString('base64') },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatch(/An Excel report takes a \.xlsx template/);
  });

  it('places image tags where each format can show a picture', async () => {
    const sheetImage = await withPart(await excelTemplate(), 'xl/sharedStrings.xml', (x) =>
      x.replace('{{deleterow}}', '{{image:Sales by region}}'),
    );
    // A cell that is one image tag takes the chart as a picture anchored there (see xlsx-extensions).
    const res = await create('Sheet image', 'Img.xlsx', sheetImage);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const inText = await withPart(await excelTemplate(), 'xl/sharedStrings.xml', (x) =>
      x.replace('{{deleterow}}', 'See {{image:Sales by region}}'),
    );
    expect((await create('Sheet image in text', 'Img2.xlsx', inText)).status).toBe(200);
  });
});

describe(covers('hostile templates', 'app.reports.createFromTemplate'), () => {
  const refused = async (fileName: string, bytes: Buffer, message: RegExp) => {
    const res = await create('Hostile', fileName, bytes);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
    expect(res.body.error).toMatch(message);
  };

  it('refuses macro-enabled files and files carrying a VBA project', async () => {
    await refused('Review.docm', await wordTemplate(), /macro-enabled file; macros are not accepted/);
    await refused(
      'Review.docx',
      await withPart(await wordTemplate(), 'word/vbaProject.bin', Buffer.from('VBA')),
      /carries macros/,
    );
  });

  it('refuses links to outside files, external workbooks and embedded OLE objects', async () => {
    const linked = await withPart(await wordTemplate(), 'word/_rels/document.xml.rels', (x) =>
      x.replace(
        '</Relationships>',
        '<Relationship Id="rIdT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="file:///C:/evil.dotm" TargetMode="External"/></Relationships>',
      ),
    );
    await refused('Linked.docx', linked, /a link to an outside file \(attachedTemplate/);
    await refused(
      'Book.xlsx',
      await withPart(await excelTemplate(), 'xl/externalLinks/externalLink1.xml', '<externalLink/>'),
      /links to other workbooks/,
    );
    await refused(
      'Ole.pptx',
      await withPart(await powerPointTemplate(), 'ppt/embeddings/oleObject1.bin', Buffer.from('ole')),
      /embedded OLE objects/,
    );
  });

  it('refuses XML that declares entities, zip bombs and too many parts', async () => {
    const entities = await withPart(await wordTemplate(), 'word/document.xml', (x) =>
      x.replace(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]>',
      ),
    );
    await refused('Entities.docx', entities, /declaration of entities/);
    // 60 MiB of zeros packs to a few tens of KiB: declared sizes and the ratio stop it before it unpacks.
    const bomb = await withPart(await wordTemplate(), 'word/bomb.xml', Buffer.alloc(60 * 1024 * 1024));
    await refused('Bomb.docx', bomb, /unpacks to 60 MiB|packed \d+ to 1/);
    const zip = await JSZip.loadAsync(await wordTemplate());
    for (let i = 0; i < 2001; i++) zip.file(`word/extra/part${i}.xml`, '<x/>');
    await refused('Many.docx', await zip.generateAsync({ type: 'nodebuffer' }), /has \d+ parts; at most 2000/);
    expect(deflateRawSync(Buffer.alloc(1024)).length).toBeLessThan(64);
  });

  it('checks a 100,000-tag template in a render thread: other calls are answered meanwhile; refused by its count', async () => {
    const big = await manyTagsWordTemplate(100_000);
    // The engine runs in this very thread: each turn of its event loop during the check is counted,
    // and a call is made and answered while the check is still going.
    let turns = 0;
    let checking = true;
    // The longest stretch the loop did not turn, against the whole check: parsed in this thread, one
    // synchronous parse is most of the check; in a render thread, no stretch is more than a sliver.
    let longest = 0;
    const started = performance.now();
    const spin = (async () => {
      let last = performance.now();
      while (checking) {
        turns++;
        await new Promise((r) => setImmediate(r));
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }
    })();
    const check = create('Huge', 'Huge.docx', big).finally(() => (checking = false));
    let answeredMeanwhile = 0;
    while (checking) {
      const me = await s.call('GET', '/api/app/auth/me');
      if (checking && me.status === 200) answeredMeanwhile++;
    }
    const res = await check;
    await spin;
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/has 100,0\d\d tags; at most 20,000 are taken/);
    const whole = performance.now() - started;
    expect(answeredMeanwhile).toBeGreaterThan(0);
    expect(turns).toBeGreaterThan(answeredMeanwhile);
    expect(longest, `the loop stood still ${Math.round(longest)} ms of ${Math.round(whole)} ms`).toBeLessThan(
      whole / 4,
    );
  });

  it('refuses a part cut in half or of binary garbage, naming the part (before, a 500)', async () => {
    const cut = await withPart(await wordTemplate(), 'word/document.xml', (x) => x.slice(0, Math.floor(x.length / 2)));
    await refused('Cut.docx', cut, /word\/document\.xml/);
    const garbage = await withPart(await wordTemplate(), 'word/document.xml', Buffer.from(randomBytes(4096)));
    await refused('Garbage.docx', garbage, /word\/document\.xml/);
  });

  it('refuses a damaged part no tag is in (a chart cut short, a slide with an attribute twice), naming its line', async () => {
    const chart = await withPart(await excelTemplate(), 'xl/charts/chart1.xml', (x) =>
      x.slice(0, Math.floor(x.length / 2)),
    );
    await refused('Chart.xlsx', chart, /xl\/charts\/chart1\.xml is not readable XML, line \d+, column \d+/);
    const slide = await withPart(await powerPointTemplate(), 'ppt/slides/slide1.xml', (x) =>
      x.replace('<p:cNvPr ', '<p:cNvPr id="99" '),
    );
    await refused(
      'Twice.pptx',
      slide,
      /ppt\/slides\/slide1\.xml is not readable XML, line \d+, column \d+ \(Attribute id redefined\)/,
    );
  });

  it('refuses fields and markup that load from elsewhere: INCLUDEPICTURE, a DOCTYPE with entities, a UNC path', async () => {
    const field = await withPart(await wordTemplate(), 'word/document.xml', (x) =>
      x.replace(
        '</w:body>',
        '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> INCLUDEPICTURE "http://tracker.example/p.png" \\d </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:body>',
      ),
    );
    await refused('Field.docx', field, /INCLUDEPICTURE/);
    const doctype = await create(
      'Doctype',
      'Doctype.html',
      Buffer.from('<!DOCTYPE html [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<html><body><p>&x;</p></body></html>'),
    );
    expect(doctype.status).toBe(400);
    expect(JSON.stringify(doctype.body.errorDetails)).toMatch(/entit/i);
    const unc = await create('Unc', 'Unc.html', htmlTemplate('\n<img src="\\\\host\\share\\x.png">'));
    expect(unc.status).toBe(400);
    expect(JSON.stringify(unc.body.errorDetails)).toMatch(/loads from elsewhere/);
  });

  it('refuses HTML that could run or load from elsewhere, each at its line', async () => {
    const res = await create(
      'Scripted',
      'Scripted.html',
      htmlTemplate(
        '\n<script>alert(1)</script>\n<img src="https://tracker.example/p.png" onload="x()">\n<a href="javascript:alert(1)">x</a>',
      ),
    );
    expect(res.status).toBe(400);
    const messages = res.body.errorDetails!.map((d) => `${d.field}: ${d.message}`);
    expect(messages).toContainEqual(expect.stringMatching(/^templateFile:line 6: <script> is not allowed/));
    expect(messages).toContainEqual(
      expect.stringMatching(/^templateFile:line 7: the event attribute onload is not allowed/),
    );
    expect(messages).toContainEqual(expect.stringMatching(/^templateFile:line 7: src=".*" loads from elsewhere/));
    expect(messages).toContainEqual(expect.stringMatching(/^templateFile:line 8: a javascript: URL is not allowed/));
  });

  it('looks tags up as data, never as code: inherited names fill nothing', () => {
    const out = fillHtml('<p>[{{constructor}}|{{__proto__}}|{{toString}}|{{field:constructor}}]</p>', {
      title: 't',
      decimalSeparator: '.',
      groupSeparator: ',',
      root: emptyScope(),
    }).toString();
    expect(out).toBe('<p>[|||]</p>');
  });

  it('says what to install when LibreOffice is missing, instead of a broken PDF', async () => {
    const saved = process.env.BROADSHEET_SOFFICE;
    process.env.BROADSHEET_SOFFICE = '/nonexistent/soffice';
    try {
      await expect(officeConvert(Buffer.from('<p>x</p>'), 'html', 'pdf')).rejects.toThrow(LIBREOFFICE_MISSING);
      expect(LIBREOFFICE_MISSING).toMatch(/apt-get install libreoffice-writer-nogui/);
    } finally {
      if (saved === undefined) delete process.env.BROADSHEET_SOFFICE;
      else process.env.BROADSHEET_SOFFICE = saved;
    }
  });
});

describe(
  covers(
    'template versions, downloads, copies and project files',
    'app.reports.uploadTemplate',
    'app.reports.downloadTemplate',
    'v2.reports.duplicate',
    'app.projects.export',
    'app.projects.import',
  ),
  () => {
    it('uploads a new version, gives the file back as it was with its own type, copies it with the report and the project', async () => {
      const first = await wordTemplate();
      const r = (await create('Versions', 'Versions.docx', first)).body.data;
      expect(r.template.version).toBe(1);
      const second = await wordTemplate(['A new line with {{vOrders}}']);
      const up = await s.ok('PUT', `/api/app/reports/${r.id}/template`, {
        fileName: 'Versions v2.docx',
        content: second.toString('base64'),
      });
      expect(up.template.version).toBe(2);
      expect(up.templateFile).toBe('Versions v2.docx');
      expect(up.tags).toContainEqual({ tag: '{{vOrders}}', where: expect.stringMatching(/^document, paragraph \d+$/) });
      const down = await s.file('GET', `/api/app/reports/${r.id}/template`);
      expect(down.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(down.disposition).toContain('Versions v2.docx');
      expect(down.data.equals(second)).toBe(true);
      // A refused upload leaves the saved version as it was.
      const refused = await s.call('PUT', `/api/app/reports/${r.id}/template`, {
        body: { fileName: 'Broken.docx', content: (await wordTemplate(['{{vNope}}'])).toString('base64') },
      });
      expect(refused.status).toBe(400);
      expect((await s.file('GET', `/api/app/reports/${r.id}/template`)).data.equals(second)).toBe(true);

      const organizationID = (await s.ok('GET', `/api/app/projects/${projectId}`)).organizationId;
      const copy = await s.ok('POST', `/api/v2/reports/${r.id}/duplicate`, { projectID: projectId, organizationID });
      expect(copy.templateFile).toBe('Versions v2.docx');
      expect((await s.file('GET', `/api/app/reports/${copy.id}/template`)).data.equals(second)).toBe(true);

      const exported = await s.file('GET', `/api/app/projects/${projectId}/export`);
      const file = JSON.parse(exported.data.toString());
      expect(file.reports.find((x: { name: string }) => x.name === 'Versions').template.fileName).toBe(
        'Versions v2.docx',
      );
      const imported = await s.ok('POST', '/api/app/projects/import', { file, organizationId: organizationID });
      const [again] = await s.ok('GET', '/api/v1/reports', undefined, {
        projectId: imported.id,
        'name[equals]': 'Versions',
      });
      expect((await s.file('GET', `/api/app/reports/${again.id}/template`)).data.equals(second)).toBe(true);
      // Every imported template report has its own file back (a file is paired with its report, not another's).
      for (const r of file.reports.filter((x: { template: unknown }) => x.template)) {
        const [mine] = await s.ok('GET', '/api/v1/reports', undefined, {
          projectId: imported.id,
          'name[equals]': r.name,
        });
        expect((await s.file('GET', `/api/app/reports/${mine.id}/template`)).data.toString('base64'), r.name).toBe(
          r.template.content,
        );
      }
      // A project file is checked as an upload is.
      file.reports.find((x: { name: string }) => x.name === 'Versions').template.content = (
        await withPart(second, 'word/vbaProject.bin', Buffer.from('x'))
      ).toString('base64');
      const hostile = await s.call('POST', '/api/app/projects/import', {
        body: { file, organizationId: organizationID },
      });
      expect(hostile.status).toBe(400);
      expect(hostile.body.error).toMatch(/The template of report "Versions" is refused: .*macros/);
    });
  },
);
