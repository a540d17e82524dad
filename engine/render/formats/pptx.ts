import PptxGenJS from 'pptxgenjs';
import type { ResolvedReport } from '../document.js';

type Slide = ReturnType<PptxGenJS['addSlide']>;

/**
 * A presentation: each break starts a slide (and a block that does not fit starts one too).
 * Charts are native PowerPoint charts built from the data, so they stay editable.
 */
export async function renderPptx(r: ResolvedReport): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE'; // 13.33 x 7.5 in
  pptx.title = r.title;
  pptx.company = 'Broadsheet';
  const W = 12.33;
  const BOTTOM = 7.0;
  let slide: Slide = pptx.addSlide();
  let y = 0.4;
  const room = (h: number) => {
    if (y + h > BOTTOM && y > 0.5) {
      slide = pptx.addSlide();
      y = 0.4;
    }
  };

  for (const b of r.blocks) {
    switch (b.type) {
      case 'heading': {
        const h = b.level === 1 ? 0.8 : 0.55;
        room(h);
        slide.addText(b.text, {
          x: 0.5,
          y,
          w: W,
          h,
          fontSize: b.level === 1 ? 30 : b.level === 2 ? 22 : 18,
          bold: true,
          color: '1D2733',
        });
        y += h + 0.1;
        break;
      }
      case 'text': {
        const lines = Math.max(1, Math.ceil(b.text.length / 120) + (b.text.match(/\n/g)?.length ?? 0));
        const h = Math.min(4, 0.3 * lines + 0.2);
        room(h);
        slide.addText(b.text, { x: 0.5, y, w: W, h, fontSize: 14, color: '1D2733', valign: 'top' });
        y += h + 0.1;
        break;
      }
      case 'kpi':
        room(1.1);
        slide.addText(
          [
            { text: b.label.toUpperCase(), options: { fontSize: 11, color: '5D6B7A', breakLine: true } },
            { text: b.display, options: { fontSize: 28, bold: true, color: '1D2733' } },
          ],
          { x: 0.5, y, w: 4, h: 1, line: { color: 'DFE5EC', width: 1 }, margin: 0.1 },
        );
        y += 1.2;
        break;
      case 'table': {
        const maxRows = 14;
        for (let start = 0; start === 0 || start < b.display.length; start += maxRows) {
          const part = b.display.slice(start, start + maxRows);
          const h = 0.3 * (part.length + 1) + (b.title ? 0.4 : 0);
          room(h);
          if (b.title) {
            slide.addText(b.title + (start ? ' (continued)' : ''), {
              x: 0.5,
              y,
              w: W,
              h: 0.35,
              fontSize: 14,
              bold: true,
            });
            y += 0.4;
          }
          const header = b.columns.map((c) => ({
            text: c.label,
            options: {
              bold: true,
              fill: { color: 'EEF2F7' },
              align: c.numeric ? ('right' as const) : ('left' as const),
            },
          }));
          const rows = part.map((row) =>
            row.map((v, i) => ({
              text: v,
              options: { align: b.columns[i].numeric ? ('right' as const) : ('left' as const) },
            })),
          );
          slide.addTable([header, ...rows], {
            x: 0.5,
            y,
            w: W,
            fontSize: 10,
            rowH: 0.28,
            border: { type: 'solid', color: 'DFE5EC', pt: 0.5 },
          });
          y += 0.3 * (part.length + 1) + 0.2;
          if (start + maxRows < b.display.length) {
            slide = pptx.addSlide();
            y = 0.4;
          }
        }
        break;
      }
      case 'chart': {
        room(4.2);
        const data = b.series.map((s) => ({ name: s.name, labels: b.categories, values: s.values.map((v) => v ?? 0) }));
        const common = {
          x: 0.5,
          y,
          w: 9,
          h: 4,
          showTitle: true,
          title: b.title,
          titleFontSize: 14,
          showLegend: b.series.length > 1 || b.chartType === 'pie',
          legendPos: 'r' as const,
        };
        if (b.chartType === 'combo' && data.length > 1) {
          slide.addChart(
            [
              { type: pptx.ChartType.bar, data: [data[0]], options: { barDir: 'col' } },
              {
                type: pptx.ChartType.line,
                data: data.slice(1),
                options: { secondaryValAxis: true, secondaryCatAxis: true },
              },
            ] as never,
            {
              ...common,
              valAxes: [{ showValAxisTitle: false }, { showValAxisTitle: false, valGridLine: { style: 'none' } }],
              catAxes: [{ catAxisTitle: '' }, { catAxisHidden: true }],
            } as never,
          );
        } else {
          const type =
            b.chartType === 'pie'
              ? pptx.ChartType.pie
              : b.chartType === 'line'
                ? pptx.ChartType.line
                : pptx.ChartType.bar;
          slide.addChart(type, b.chartType === 'pie' ? data.slice(0, 1) : data, {
            ...common,
            barDir: 'col',
            showPercent: b.chartType === 'pie',
          });
        }
        y += 4.2;
        break;
      }
      case 'image':
        room(3);
        slide.addImage({
          data: `data:${b.mime};base64,${b.data}`,
          x: 0.5,
          y,
          w: Math.min(W, b.width / 96),
          h: Math.min(2.8, (b.width * 0.6) / 96),
          altText: b.alt,
        });
        y += 3;
        break;
      case 'break':
        slide = pptx.addSlide();
        y = 0.4;
        break;
    }
  }
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}
