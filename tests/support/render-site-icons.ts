/**
 * One-off generator for the public site's icons and share image (site/public):
 *   - favicon.ico            16, 32 and 48 px PNGs in one .ico, from favicon.svg
 *   - apple-touch-icon.png   180 x 180
 *   - og-image.png           1200 x 630, the share image every public page names
 *
 * Run from the project root:
 *   npx node tests/support/render-site-icons.ts   (Node 24: the system node may be older)
 * Requires a system Chromium (default /usr/bin/chromium; override with CHROMIUM_PATH).
 * Never downloads a browser.
 */
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
const root = path.resolve(import.meta.dirname, '..', '..', 'site', 'public') + path.sep;
const svg = readFileSync(`${root}favicon.svg`, 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
async function shot(html: string, w: number, h: number, omitBackground = false): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: w, height: h }, deviceScaleFactor: 1 });
  await page.setContent(html);
  const b = await page.screenshot({ omitBackground, clip: { x: 0, y: 0, width: w, height: h } });
  await page.close();
  return b;
}
const icon = (n: number, pad = 0, bg = 'transparent') =>
  `<html><body style="margin:0;background:${bg}"><div style="width:${n}px;height:${n}px;display:grid;place-items:center">${svg.replace('<svg ', `<svg width="${n - 2 * pad}" height="${n - 2 * pad}" `)}</div></body></html>`;
const png16 = await shot(icon(16), 16, 16, true);
const png32 = await shot(icon(32), 32, 32, true);
const png48 = await shot(icon(48), 48, 48, true);
// ICO holding PNG images (Vista and later, every current browser).
function ico(images: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach((im, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(im.size >= 256 ? 0 : im.size, e);
    header.writeUInt8(im.size >= 256 ? 0 : im.size, e + 1);
    header.writeUInt8(0, e + 2);
    header.writeUInt8(0, e + 3);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(im.data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += im.data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}
writeFileSync(
  `${root}favicon.ico`,
  ico([
    { size: 16, data: png16 },
    { size: 32, data: png32 },
    { size: 48, data: png48 },
  ]),
);
writeFileSync(`${root}apple-touch-icon.png`, await shot(icon(180, 18, '#ffffff'), 180, 180));
const og = `<html><body style="margin:0;font-family:'DejaVu Sans',system-ui,sans-serif;background:#f6f3ec;color:#1f3b39">
<div style="width:1200px;height:630px;box-sizing:border-box;padding:80px 90px;display:flex;gap:64px;align-items:center;background:linear-gradient(135deg,#f6f3ec 0%,#e8efe8 100%)">
  <div style="flex:none">${svg.replace('<svg ', '<svg width="260" height="260" ')}</div>
  <div>
    <div style="font-size:30px;letter-spacing:.12em;text-transform:uppercase;color:#1f5f5b;font-weight:700">Book a 60-minute session</div>
    <div style="font-size:64px;line-height:1.1;font-weight:700;margin:18px 0 22px">Therapy and counselling that meets you where you are</div>
    <div style="font-size:32px;color:#3d5250">Online across India, in person in Mumbai</div>
  </div>
</div></body></html>`;
writeFileSync(`${root}og-image.png`, await shot(og, 1200, 630));
await browser.close();
// What was written, as render-demo-images.ts reports it.
for (const name of ['favicon.ico', 'apple-touch-icon.png', 'og-image.png']) console.log(`site/public/${name}`);
