import type { EngineServices } from '../../ops/context.js';
import { newBase } from '../../core/entity-base.js';
import { DEMO_APP_ID, DEMO_APP_NAME, ensureDemoApp } from '../../analytics/embedded-analytics.js';
import type { ReportDocument } from '../../render/document.js';
import { AnalyticsApp, OrganizationAnalyticsApp } from '../../model/analytics-apps.entity.js';
import { ROOT_FOLDER_ID } from '../analytics-apps/analytics-apps.rules.js';
import { Organization } from '../../model/organizations.entity.js';
import { Project } from '../../model/projects.entity.js';
import { Connection } from '../../model/connections.entity.js';
import { Report } from '../../model/reports.entity.js';
import { ReportTemplate, templateRowFor } from '../../model/report-template.entity.js';

/**
 * First start: the "Sales demo" app with its data, registered and linked to the Default
 * organization, and a demo project whose report iterates over regions (and two reports from Excel
 * and Word templates), so every feature can be tried on a fresh install.
 */
export async function seedDemoContent(s: EngineServices, ownerId: string): Promise<void> {
  const meta = await ensureDemoApp(s.embedded, s.analytics);
  const now = s.now();
  const org = await s.db.getRepository(Organization).findOneByOrFail({ name: 'Default' });
  if (await s.db.getRepository(AnalyticsApp).findOneBy({ appId: DEMO_APP_ID })) return;
  const app = {
    ...newBase(now),
    appId: DEMO_APP_ID,
    provider: 'embedded',
    name: DEMO_APP_NAME,
    description: meta.description,
    folderId: ROOT_FOLDER_ID,
    folderPath: '/',
    stream: 'Demo',
    mashupTemplate: null,
    allowAnalyticsSenseApp: false,
    allowMashup: false,
    defaultOpen: 'Overview',
    templateTitle: null,
    templateDescription: null,
    themeId: null,
    organizationId: org.id,
    usedFields: [],
    usedSheets: [],
    synchronization: null,
  };
  const project = {
    ...newBase(now),
    name: 'Sales reporting (demo)',
    description: 'Reports built on the Sales demo app',
    organizationId: org.id,
    isActive: true,
    permissionsMode: false,
    importing: false,
    createdBy: ownerId,
    modifiedBy: ownerId,
  };
  const connection = { ...newBase(now), projectId: project.id, name: DEMO_APP_NAME, analyticsAppId: app.id };
  const chart = (name: string) => meta.charts.find((c) => c.name === name)!.id;
  const region = meta.fields.find((f) => f.name === 'Region')!;
  const document: ReportDocument = {
    blocks: [
      { id: 'h1', type: 'heading', text: 'Sales review', level: 1 },
      {
        id: 't1',
        type: 'text',
        text: 'Sales in this selection: {{vTotalSales}} from {{vOrders}} orders, a gross margin of {{vMarginPct}} %.',
      },
      { id: 'k1', type: 'kpi', label: 'Sales', expression: 'Sum(Sales)', format: { decimals: 0 } },
      { id: 'k2', type: 'kpi', label: 'Margin %', expression: '$(vMarginPct)', format: { decimals: 2, suffix: ' %' } },
      { id: 'c1', type: 'chart', chartId: chart('Sales and margin by category') },
      { id: 'tb1', type: 'table', chartId: chart('Top customers'), limit: 15 },
    ],
  };
  const report = {
    ...newBase(now),
    projectId: project.id,
    connectionId: connection.id,
    name: 'Regional sales review',
    description: 'One file per region',
    type: 'Word' as const,
    isIteration: true,
    iterationFields: [{ fieldID: region.id, order: 0 }],
    dynamicNameSeparator: ' - ',
    dynamicNames: [
      { itemType: 'ReportName', value: '', order: 0, variableAnalyticsAppID: null },
      { itemType: 'FieldValue', value: 'Region', order: 1, variableAnalyticsAppID: null },
    ],
    document,
    filterIds: [],
    templateFile: null,
    createdBy: ownerId,
    modifiedBy: ownerId,
  };
  // Two reports from the designer's own Office files, as the app's starters write them: a workbook
  // with a level per region (and its totals), and a Word letter made once per region.
  const templated = await Promise.all(
    [
      {
        name: 'Regional workbook',
        type: 'Excel' as const,
        description: 'An Excel template: a row per region, totals and a level per region',
        iterate: false,
      },
      {
        name: 'Regional letter',
        type: 'Word' as const,
        description: 'A Word template, one letter per region',
        iterate: true,
      },
    ].map(async (t) => {
      const { starterTemplate } = await import('../../render/templates/starter-templates.js');
      const starter = await starterTemplate(t.type, meta, t.name);
      const row = {
        ...report,
        ...newBase(now),
        name: t.name,
        description: t.description,
        type: t.type,
        isIteration: t.iterate,
        iterationFields: t.iterate ? report.iterationFields : [],
        document: { blocks: [] },
        templateFile: starter.fileName,
      };
      return { row, template: templateRowFor(row.id, starter.fileName, starter.bytes, 1, ownerId, now) };
    }),
  );
  await s.db.transaction(async (m) => {
    await m.getRepository(AnalyticsApp).insert(app);
    await m.getRepository(OrganizationAnalyticsApp).insert({ organizationId: org.id, analyticsAppId: app.id });
    await m.getRepository(Project).insert(project);
    await m.getRepository(Connection).insert(connection);
    await m.getRepository(Report).insert(report);
    for (const t of templated) {
      await m.getRepository(Report).insert(t.row);
      await m.getRepository(ReportTemplate).insert(t.template);
    }
  });
  s.log.info('Demo content ready: the "Sales demo" app and the "Sales reporting (demo)" project');
}
