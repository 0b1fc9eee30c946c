import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/files.js';
import { layoutPdf } from './pdf.js';

const office = { name: 'Scholarship Office', address_lines: ['Universitätsstraße 1', '80539 München'] };
const letter = (name: string) =>
  layoutPdf({ title: 'Invoice', references: [], address: [name], intro: `Dear ${name},`, totals: [], payment: '', closing: '' }, office);

describe('the text layer of a PDF', () => {
  it('keeps every letter after a document whose letters are built from others (Ñ is N and a tilde)', async () => {
    expect(await pdfText(await letter('Íñigo Ñúñez Žukauskas'))).toContain('Íñigo Ñúñez Žukauskas');
    const after = await pdfText(await letter('Øystein Nørgaard Zahn'));
    expect(after).toContain('Øystein Nørgaard Zahn');
    expect(after).toContain('Dear Øystein Nørgaard Zahn,');
  });
});
