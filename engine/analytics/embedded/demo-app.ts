import { randomUUID } from 'node:crypto';
import type { AnalyticsPort, EmbeddedAnalyticsAdmin, TableData } from '../port.js';
import type { AppMeta } from '../model.js';
import { nextTurn } from '../../core/next-turn.js';

export const DEMO_APP_ID = 'sales-demo';
export const DEMO_APP_NAME = 'Sales demo';

/** A small seeded generator, so the demo data is the same on every machine. */
function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GEO: Record<string, string[]> = {
  EMEA: ['Germany', 'France', 'United Kingdom', 'Italy', 'Spain', 'Netherlands', 'Sweden'],
  Americas: ['United States', 'Canada', 'Brazil', 'Mexico'],
  APAC: ['Japan', 'Australia', 'India', 'Singapore'],
};
const CATALOGUE: Record<string, [string, number][]> = {
  Laptops: [
    ['Aero 13', 1099],
    ['Aero 15', 1499],
    ['Titan Pro 16', 2399],
    ['Nimbus Air', 899],
  ],
  Monitors: [
    ['View 24', 189],
    ['View 27 QHD', 329],
    ['View 34 Ultrawide', 599],
  ],
  Phones: [
    ['Pulse S', 499],
    ['Pulse Max', 999],
    ['Pulse Mini', 399],
  ],
  Tablets: [
    ['Slate 10', 349],
    ['Slate 12 Pro', 799],
  ],
  Audio: [
    ['Echo Buds', 129],
    ['Echo Studio', 249],
    ['Echo Bar', 399],
  ],
  Accessories: [
    ['Dock USB-C', 159],
    ['Keyboard K2', 89],
    ['Mouse M5', 49],
    ['Backpack 15', 79],
  ],
  Printers: [
    ['Jet 200', 149],
    ['Jet Pro 500', 449],
  ],
  Storage: [
    ['Vault SSD 1TB', 119],
    ['Vault SSD 2TB', 199],
    ['Vault NAS 4', 649],
  ],
};
const FIRST = [
  'Anna',
  'Ben',
  'Chloé',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kavya',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Pedro',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wei',
  'Yara',
];
const LAST = [
  'Schmidt',
  'Martin',
  'Smith',
  'Rossi',
  'García',
  'de Vries',
  'Lindqvist',
  'Johnson',
  'Tremblay',
  'Silva',
  'Hernández',
  'Tanaka',
  'Wilson',
  'Sharma',
  'Tan',
  'Müller',
  'Dubois',
  'Brown',
  'Bianchi',
  'López',
  'Jansen',
  'Berg',
  'Lee',
  'Kumar',
];
const PREFIX = [
  'North',
  'Blue',
  'Apex',
  'Silver',
  'Nova',
  'Prime',
  'Green',
  'Bright',
  'Summit',
  'Harbor',
  'Atlas',
  'Vertex',
  'Cedar',
  'Orbit',
  'Pioneer',
  'Crystal',
  'Falcon',
  'Maple',
  'Zenith',
  'Coral',
  'Granite',
  'Lumen',
  'Meridian',
  'Quantum',
  'Sierra',
];
const SUFFIX = [
  'Logistics',
  'Retail',
  'Systems',
  'Foods',
  'Health',
  'Energy',
  'Media',
  'Capital',
  'Motors',
  'Labs',
  'Textiles',
  'Pharma',
  'Studios',
  'Foundry',
  'Partners',
  'Outdoor',
  'Analytics',
  'Travel',
  'Hotels',
  'Farms',
  'Robotics',
  'Insurance',
  'Builders',
  'Telecom',
];

/**
 * Rows made between two turns of the event loop: under a millisecond each. The demo is made while
 * the first screen asks its first questions, each of which waits a turn per database reply: with
 * 5,000 rows a turn, the first answer after a first start waited 47 ms for it; with 500, 14 ms.
 */
const ROWS_PER_TURN = 500;

/**
 * About 110,000 order lines over 2023–2025: region, country, customer, salesperson, product,
 * category, date, quantity, sales, cost. Made a few thousand rows at a time, letting the event loop
 * turn in between: a first start makes them right after it starts to listen, and a caller waiting
 * for its first answer should not wait behind 150 ms of generated rows.
 */
export async function generateSalesData(lines = 110_000): Promise<TableData> {
  const rnd = mulberry32(20260101);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const regions = Object.keys(GEO);
  const customers: { name: string; region: string; country: string; size: number }[] = [];
  const used = new Set<string>();
  while (customers.length < 600) {
    const name = `${pick(PREFIX)} ${pick(SUFFIX)}${rnd() < 0.3 ? ' Group' : rnd() < 0.5 ? ' Ltd' : ''}`;
    if (used.has(name)) continue;
    used.add(name);
    const region = regions[customers.length % 3];
    customers.push({ name, region, country: pick(GEO[region]), size: 0.3 + rnd() * 2.2 });
  }
  const salespeople = Array.from({ length: 24 }, (_, i) => ({
    name: `${FIRST[i]} ${LAST[(i * 7) % LAST.length]}`,
    region: regions[i % 3],
  }));
  const products = Object.entries(CATALOGUE).flatMap(([category, items]) =>
    items.map(([name, price]) => ({ category, name, price })),
  );
  const start = Date.UTC(2023, 0, 1);
  const days = 365 * 3;
  const rows: (string | number)[][] = [];
  let order = 100000;
  let turn = ROWS_PER_TURN;
  while (rows.length < lines) {
    if (rows.length >= turn) {
      turn += ROWS_PER_TURN;
      await nextTurn();
    }
    const c = pick(customers);
    const rep = salespeople.filter((s) => s.region === c.region)[Math.floor(rnd() * 8)];
    // Later years sell more: a gentle growth trend and a year-end peak.
    const dayIndex = Math.floor(Math.sqrt(rnd()) * days);
    const date = new Date(start + dayIndex * 86400_000);
    const month = date.getUTCMonth();
    const seasonal = month === 10 || month === 11 ? 1.35 : month === 6 || month === 7 ? 0.85 : 1;
    order++;
    const lineCount = 1 + Math.floor(rnd() * 4);
    for (let l = 0; l < lineCount && rows.length < lines; l++) {
      const p = pick(products);
      const quantity = 1 + Math.floor(rnd() * 12 * c.size * seasonal);
      const discount = 1 - Math.floor(rnd() * 4) * 0.05;
      const sales = Math.round(p.price * quantity * discount * 100) / 100;
      const cost = Math.round(p.price * quantity * (0.55 + rnd() * 0.2) * 100) / 100;
      rows.push([
        order,
        date.toISOString().slice(0, 10),
        c.region,
        c.country,
        c.name,
        rep.name,
        p.category,
        p.name,
        quantity,
        sales,
        cost,
      ]);
    }
  }
  return {
    headers: [
      'OrderID',
      'OrderDate',
      'Region',
      'Country',
      'Customer',
      'Salesperson',
      'Category',
      'Product',
      'Quantity',
      'Sales',
      'Cost',
    ],
    types: ['integer', 'date', 'text', 'text', 'text', 'text', 'text', 'text', 'integer', 'decimal', 'decimal'],
    rows,
  };
}

/** Creates the demo app with its data, variables, charts, bookmarks and a sheet, unless it exists. */
export async function ensureDemoApp(
  provider: EmbeddedAnalyticsAdmin,
  port: Pick<AnalyticsPort, 'meta'>,
): Promise<AppMeta> {
  if (await provider.exists(DEMO_APP_ID)) {
    const meta = await port.meta(DEMO_APP_ID);
    if (meta.rowCount > 0) return meta;
  }
  await provider.createApp(
    DEMO_APP_ID,
    DEMO_APP_NAME,
    'Three years of generated order lines of an electronics retailer',
  );
  await provider.load(DEMO_APP_ID, await generateSalesData(), 'generated');
  const id = () => randomUUID();
  const charts = [
    {
      id: id(),
      name: 'Sales by region',
      type: 'bar' as const,
      dimensions: ['Region'],
      measures: [{ label: 'Sales', expression: 'Sum(Sales)' }],
      sort: { by: 'measure' as const, index: 0, direction: 'desc' as const },
    },
    {
      id: id(),
      name: 'Sales by category',
      type: 'pie' as const,
      dimensions: ['Category'],
      measures: [{ label: 'Sales', expression: 'Sum(Sales)' }],
      sort: { by: 'measure' as const, index: 0, direction: 'desc' as const },
    },
    {
      id: id(),
      name: 'Top products',
      type: 'table' as const,
      dimensions: ['Product'],
      measures: [
        { label: 'Quantity', expression: 'Sum(Quantity)' },
        { label: 'Sales', expression: 'Sum(Sales)' },
        { label: 'Margin %', expression: '(Sum(Sales) - Sum(Cost)) / Sum(Sales) * 100' },
      ],
      sort: { by: 'measure' as const, index: 1, direction: 'desc' as const },
      limit: 50,
    },
    {
      id: id(),
      name: 'Sales and margin by category',
      type: 'combo' as const,
      dimensions: ['Category'],
      measures: [
        { label: 'Sales', expression: 'Sum(Sales)' },
        { label: 'Margin', expression: 'Sum(Sales) - Sum(Cost)' },
      ],
    },
    {
      id: id(),
      name: 'Top customers',
      type: 'table' as const,
      dimensions: ['Customer', 'Country'],
      measures: [
        { label: 'Orders', expression: 'Count(Distinct OrderID)' },
        { label: 'Sales', expression: 'Sum(Sales)' },
      ],
      sort: { by: 'measure' as const, index: 1, direction: 'desc' as const },
      limit: 50,
    },
  ];
  return provider.updateMeta(DEMO_APP_ID, (m) => {
    m.variables = [
      { id: id(), name: 'vTotalSales', definition: 'Sum(Sales)', description: 'Sales in the current selection' },
      {
        id: id(),
        name: 'vMarginPct',
        definition: '(Sum(Sales) - Sum(Cost)) / Sum(Sales) * 100',
        description: 'Gross margin, percent',
      },
      { id: id(), name: 'vOrders', definition: 'Count(Distinct OrderID)', description: 'Number of orders' },
    ];
    m.charts = charts;
    m.bookmarks = [
      { id: id(), name: 'EMEA', selections: { Region: ['EMEA'] } },
      { id: id(), name: 'Laptops and tablets', selections: { Category: ['Laptops', 'Tablets'] } },
    ];
    m.sheets = [{ id: id(), name: 'Overview', chartIds: charts.map((c) => c.id) }];
  });
}
