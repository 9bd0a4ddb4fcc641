/**
 * One-off generator for the demo images served by the API (api/images/**).
 *
 * Renders self-contained HTML/CSS illustrations (flat colours, CSS shapes, system fonts;
 * no network, no external fonts) with headless Chromium via playwright-core and saves
 * them as PNG files:
 *   - api/images/locations/{1,2}.png       800x500 centre illustrations
 *   - api/images/therapists/{slug}.png     400x400 abstract avatar portraits
 *
 * Run from the project root:
 *   node tests/support/render-demo-images.ts
 * Requires a system Chromium (default /usr/bin/chromium; override with CHROMIUM_PATH).
 * Never downloads a browser.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const OUT_LOCATIONS = path.join(ROOT, 'api', 'images', 'locations');
const OUT_THERAPISTS = path.join(ROOT, 'api', 'images', 'therapists');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FONT = `'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif`;

function page(width: number, height: number, css: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    * { box-sizing: border-box; margin: 0; padding: 0; }
    html, body { width: ${width}px; height: ${height}px; overflow: hidden; }
    body { position: relative; font-family: ${FONT}; }
    .a { position: absolute; }
    ${css}
  </style></head><body>${body}</body></html>`;
}

/* ------------------------------------------------------------------ locations */

function label(text: string): string {
  return `<div class="a label"><span class="dot"></span>${text}</div>`;
}

const LABEL_CSS = `
  .label { left: 28px; bottom: 24px; padding: 8px 16px 8px 12px; border-radius: 999px;
    background: rgba(255,255,255,.78); color: #3c5f5a; font-size: 15px; letter-spacing: .06em;
    display: flex; align-items: center; gap: 10px; }
  .label .dot { width: 12px; height: 12px; border-radius: 50% 0 50% 0; background: #6fa59d;
    transform: rotate(-45deg); }
`;

/** Location 1 — West Branch: calm counselling room interior. */
function locationInterior(labelText: string): string {
  const css = `
    ${LABEL_CSS}
    .wall { inset: 0 0 150px 0; background: #dfe8df; }
    .wainscot { left: 0; right: 0; top: 300px; height: 50px; background: #d2ded3; border-top: 4px solid #eef3ee; }
    .floor { left: 0; right: 0; bottom: 0; height: 150px; background: #eadfca; }
    .rug { left: 250px; top: 392px; width: 420px; height: 80px; border-radius: 50%; background: #b9d3cc; }
    .rug2 { left: 290px; top: 404px; width: 340px; height: 56px; border-radius: 50%; border: 3px solid #d6e6e1; }

    .window { left: 70px; top: 60px; width: 210px; height: 230px; background: #f7f4ec; border-radius: 105px 105px 6px 6px; }
    .glass { left: 84px; top: 74px; width: 182px; height: 202px; border-radius: 91px 91px 2px 2px; overflow: hidden;
      background: linear-gradient(#cfe6ea, #f2ecdc); }
    .hill1 { left: -60px; top: 140px; width: 220px; height: 120px; border-radius: 50%; background: #b7d3b8; }
    .hill2 { left: 60px; top: 150px; width: 220px; height: 120px; border-radius: 50%; background: #a3c6a6; }
    .sun { left: 110px; top: 52px; width: 36px; height: 36px; border-radius: 50%; background: #fbefd0; }
    .mullion-v { left: 173px; top: 74px; width: 4px; height: 202px; background: #f7f4ec; }
    .mullion-h { left: 84px; top: 170px; width: 182px; height: 4px; background: #f7f4ec; }
    .sill { left: 60px; top: 286px; width: 230px; height: 12px; border-radius: 3px; background: #f4efe4; }
    .curtain-l { left: 40px; top: 46px; width: 44px; height: 252px; border-radius: 0 0 18px 6px; background: rgba(245,236,218,.85); }
    .curtain-r { left: 266px; top: 46px; width: 44px; height: 252px; border-radius: 0 0 6px 18px; background: rgba(245,236,218,.85); }
    .rod { left: 30px; top: 40px; width: 290px; height: 6px; border-radius: 3px; background: #b99a7a; }

    .art { left: 480px; top: 80px; width: 200px; height: 130px; background: #f7f3ea; border: 8px solid #c9ab8c; }
    .art .c1 { left: 22px; top: 30px; width: 70px; height: 70px; border-radius: 50%; background: #9cc5bd; }
    .art .c2 { left: 70px; top: 46px; width: 90px; height: 50px; border-radius: 50% 50% 0 0; background: #e7c9a3; }
    .art .c3 { left: 120px; top: 20px; width: 30px; height: 30px; border-radius: 50%; background: #d9a892; }

    .sofa-back { left: 440px; top: 250px; width: 290px; height: 110px; border-radius: 30px 30px 10px 10px; background: #6fa59d; }
    .cushion1 { left: 462px; top: 268px; width: 120px; height: 70px; border-radius: 20px; background: #80b3ab; }
    .cushion2 { left: 590px; top: 268px; width: 120px; height: 70px; border-radius: 20px; background: #80b3ab; }
    .pillow { left: 470px; top: 282px; width: 56px; height: 48px; border-radius: 14px; background: #f0dcb8; transform: rotate(-8deg); }
    .sofa-seat { left: 440px; top: 330px; width: 290px; height: 46px; border-radius: 12px; background: #5c948c; }
    .sofa-arm-l { left: 422px; top: 300px; width: 40px; height: 80px; border-radius: 20px 20px 8px 8px; background: #5c948c; }
    .sofa-arm-r { left: 708px; top: 300px; width: 40px; height: 80px; border-radius: 20px 20px 8px 8px; background: #5c948c; }
    .leg { width: 8px; height: 18px; background: #9a7a5c; border-radius: 2px; }

    .chair-back { left: 150px; top: 290px; width: 120px; height: 100px; border-radius: 40px 40px 12px 12px; background: #e4c7a0; }
    .chair-seat { left: 140px; top: 360px; width: 140px; height: 40px; border-radius: 14px; background: #d6b68d; }
    .chair-arm-l { left: 128px; top: 335px; width: 30px; height: 65px; border-radius: 15px 15px 6px 6px; background: #d6b68d; }
    .chair-arm-r { left: 262px; top: 335px; width: 30px; height: 65px; border-radius: 15px 15px 6px 6px; background: #d6b68d; }

    .table-top { left: 420px; top: 398px; width: 90px; height: 16px; border-radius: 50%; background: #c49c76; }
    .table-leg { left: 461px; top: 408px; width: 8px; height: 42px; background: #a98462; }
    .table-base { left: 440px; top: 446px; width: 50px; height: 8px; border-radius: 50%; background: #a98462; }
    .cup { left: 442px; top: 382px; width: 18px; height: 18px; border-radius: 0 0 7px 7px; background: #f7f4ec; }
    .tissue { left: 470px; top: 384px; width: 26px; height: 16px; border-radius: 3px; background: #b9d3cc; }

    .lamp-glow { left: 680px; top: 60px; width: 150px; height: 150px; border-radius: 50%; background: rgba(255,244,214,.55); }
    .lamp-shade { left: 725px; top: 100px; width: 60px; height: 50px; background: #f4e6c8; clip-path: polygon(18% 0, 82% 0, 100% 100%, 0 100%); }
    .lamp-pole { left: 753px; top: 150px; width: 4px; height: 240px; background: #8f7a66; }
    .lamp-base { left: 735px; top: 386px; width: 40px; height: 8px; border-radius: 50%; background: #8f7a66; }

    .pot { left: 336px; top: 318px; width: 56px; height: 60px; background: #d49a7a; clip-path: polygon(0 0, 100% 0, 86% 100%, 14% 100%); }
    .leaf { width: 26px; height: 70px; border-radius: 50%; background: #7fae86; transform-origin: 50% 100%; }
    .leaf.d { background: #6a9c74; }
  `;
  const leaves = [-50, -28, -8, 12, 32, 52]
    .map((deg, i) => `<div class="a leaf${i % 2 ? ' d' : ''}" style="left:351px;top:250px;transform:rotate(${deg}deg)"></div>`)
    .join('');
  const legs = [452, 710].map((x) => `<div class="a leg" style="left:${x}px;top:372px"></div>`).join('');
  const body = `
    <div class="a wall"></div><div class="a wainscot"></div><div class="a floor"></div>
    <div class="a rug"></div><div class="a rug2"></div>
    <div class="a window"></div>
    <div class="a glass"><div class="a sun"></div><div class="a hill1"></div><div class="a hill2"></div></div>
    <div class="a mullion-v"></div><div class="a mullion-h"></div><div class="a sill"></div>
    <div class="a curtain-l"></div><div class="a curtain-r"></div><div class="a rod"></div>
    <div class="a art"><div class="a c1"></div><div class="a c2"></div><div class="a c3"></div></div>
    <div class="a lamp-glow"></div><div class="a lamp-shade"></div><div class="a lamp-pole"></div><div class="a lamp-base"></div>
    ${legs}
    <div class="a sofa-back"></div><div class="a cushion1"></div><div class="a cushion2"></div>
    <div class="a sofa-arm-l"></div><div class="a sofa-arm-r"></div><div class="a sofa-seat"></div><div class="a pillow"></div>
    ${leaves}<div class="a pot"></div>
    <div class="a chair-back"></div><div class="a chair-arm-l"></div><div class="a chair-arm-r"></div><div class="a chair-seat"></div>
    <div class="a table-top"></div><div class="a table-leg"></div><div class="a table-base"></div>
    <div class="a cup"></div><div class="a tissue"></div>
    ${label(labelText)}
  `;
  return page(800, 500, css, body);
}

/** Location 2 — East Branch: exterior of a small, green-fronted centre. */
function locationExterior(labelText: string): string {
  const css = `
    ${LABEL_CSS}
    .sky { inset: 0; background: linear-gradient(#d7ebe9, #f4eedf 75%); }
    .sun { left: 610px; top: 50px; width: 70px; height: 70px; border-radius: 50%; background: #fbf0d2; }
    .cloud { height: 22px; border-radius: 999px; background: rgba(255,255,255,.8); }
    .far { bottom: 150px; background: #cfdcd6; }
    .ground { left: 0; right: 0; bottom: 0; height: 110px; background: #cfe0c6; }
    .road { left: 0; right: 0; bottom: 0; height: 40px; background: #d9d3c6; }
    .path { left: 330px; bottom: 40px; width: 140px; height: 72px; background: #ebe1cd; clip-path: polygon(30% 0, 70% 0, 100% 100%, 0 100%); }

    .bldg { left: 190px; top: 130px; width: 420px; height: 262px; background: #f1e6d2; border-radius: 4px 4px 0 0; }
    .roof { left: 176px; top: 116px; width: 448px; height: 20px; border-radius: 4px; background: #6fa59d; }
    .band { left: 190px; top: 246px; width: 420px; height: 10px; background: #e3d4bb; }
    .win { width: 62px; height: 72px; border-radius: 4px; background: #bcd9d6; border: 5px solid #fbf7ef; }
    .win .sh { left: 8px; top: 6px; width: 14px; height: 50px; background: rgba(255,255,255,.45); transform: skewX(-12deg); }
    .sign { left: 310px; top: 262px; width: 180px; height: 34px; border-radius: 6px; background: #5c948c; display: flex;
      align-items: center; justify-content: center; gap: 10px; }
    .sign i { display: block; width: 14px; height: 14px; border-radius: 50% 0 50% 0; background: #f1e6d2; transform: rotate(-45deg); }
    .sign b { display: block; width: 90px; height: 5px; border-radius: 3px; background: rgba(241,230,210,.9); }
    .door { left: 358px; top: 304px; width: 84px; height: 88px; background: #a9cbc6; border: 6px solid #fbf7ef; border-bottom: 0; }
    .door-mid { left: 398px; top: 310px; width: 4px; height: 82px; background: #fbf7ef; }
    .canopy { left: 340px; top: 296px; width: 120px; height: 12px; border-radius: 4px; background: #c9ab8c; }
    .step { left: 348px; top: 388px; width: 104px; height: 8px; background: #ddd2bd; }

    .trunk { width: 10px; background: #9a7a5c; border-radius: 3px; }
    .crown { border-radius: 50%; background: #88b58e; }
    .crown.d { background: #74a47c; }
    .hedge { height: 30px; border-radius: 16px 16px 4px 4px; background: #7fae86; }
    .pot { width: 34px; height: 30px; background: #d49a7a; clip-path: polygon(0 0, 100% 0, 85% 100%, 15% 100%); }
    .bush { width: 46px; height: 40px; border-radius: 50%; background: #6a9c74; }
    .bench { left: 628px; top: 366px; width: 80px; height: 10px; border-radius: 3px; background: #c49c76; }
    .bench-back { left: 628px; top: 346px; width: 80px; height: 8px; border-radius: 3px; background: #c49c76; }
  `;
  const windows: string[] = [];
  for (const x of [222, 312, 426, 516]) {
    windows.push(`<div class="a win" style="left:${x}px;top:156px"><div class="a sh"></div></div>`);
  }
  for (const x of [222, 516]) {
    windows.push(`<div class="a win" style="left:${x}px;top:280px"><div class="a sh"></div></div>`);
  }
  const far = [
    [0, 120, 170],
    [110, 90, 120],
    [640, 110, 150],
    [740, 70, 110],
  ]
    .map(([l, w, h]) => `<div class="a far" style="left:${l}px;width:${w}px;height:${h}px;border-radius:6px 6px 0 0"></div>`)
    .join('');
  const body = `
    <div class="a sky"></div><div class="a sun"></div>
    <div class="a cloud" style="left:90px;top:60px;width:120px"></div>
    <div class="a cloud" style="left:130px;top:46px;width:60px;height:30px"></div>
    <div class="a cloud" style="left:470px;top:78px;width:100px"></div>
    ${far}
    <div class="a ground"></div><div class="a road"></div><div class="a path"></div>
    <div class="a roof"></div><div class="a bldg"></div><div class="a band"></div>
    ${windows.join('')}
    <div class="a sign"><i></i><b></b></div>
    <div class="a canopy"></div><div class="a door"></div><div class="a door-mid"></div><div class="a step"></div>
    <div class="a trunk" style="left:110px;top:270px;height:120px"></div>
    <div class="a crown" style="left:60px;top:190px;width:110px;height:110px"></div>
    <div class="a crown d" style="left:92px;top:170px;width:80px;height:80px"></div>
    <div class="a trunk" style="left:700px;top:250px;height:140px"></div>
    <div class="a crown d" style="left:648px;top:160px;width:120px;height:120px"></div>
    <div class="a crown" style="left:690px;top:140px;width:90px;height:90px"></div>
    <div class="a hedge" style="left:196px;top:364px;width:150px"></div>
    <div class="a hedge" style="left:454px;top:364px;width:150px"></div>
    <div class="a bush" style="left:318px;top:352px"></div><div class="a pot" style="left:324px;top:372px"></div>
    <div class="a bush" style="left:436px;top:352px"></div><div class="a pot" style="left:442px;top:372px"></div>
    <div class="a bench-back"></div><div class="a bench"></div>
    <div class="a trunk" style="left:634px;top:372px;width:6px;height:20px"></div>
    <div class="a trunk" style="left:696px;top:372px;width:6px;height:20px"></div>
    ${label(labelText)}
  `;
  return page(800, 500, css, body);
}

/* ----------------------------------------------------------------- therapists */

type Hair = 'short' | 'long' | 'bun' | 'curly' | 'wavy';

interface Avatar {
  slug: string;
  initials: string;
  skin: string;
  hair: string;
  style: Hair;
  bg: string;
  clothes: string;
  glasses?: boolean;
  beard?: boolean;
}

const THERAPISTS: readonly Avatar[] = [
  { slug: 'dr-asha-mehta', initials: 'AM', skin: '#c68e6a', hair: '#2e211b', style: 'long', bg: '#cfe3d6', clothes: '#3f7f7a' },
  { slug: 'dr-rohan-kapoor', initials: 'RK', skin: '#d9a47f', hair: '#2b211c', style: 'short', bg: '#f0e2c8', clothes: '#3d5a80', glasses: true },
  { slug: 'ms-priya-nair', initials: 'PN', skin: '#8d5a3b', hair: '#1f1712', style: 'bun', bg: '#dcd6ec', clothes: '#c97b63' },
  { slug: 'dr-vikram-desai', initials: 'VD', skin: '#b07650', hair: '#3a2c25', style: 'short', bg: '#d3e6ef', clothes: '#5b7b5a', beard: true },
  { slug: 'ms-neha-joshi', initials: 'NJ', skin: '#e2b48f', hair: '#4a3026', style: 'wavy', bg: '#f5d9cc', clothes: '#6c8ead' },
  { slug: 'dr-sameer-kulkarni', initials: 'SK', skin: '#9e6b47', hair: '#6d6a68', style: 'short', bg: '#d5ebe3', clothes: '#7a6a9e', glasses: true },
  { slug: 'mr-arjun-iyer', initials: 'AI', skin: '#6f4530', hair: '#181210', style: 'curly', bg: '#f3e8c0', clothes: '#2f6f6b' },
  { slug: 'dr-farah-shaikh', initials: 'FS', skin: '#c9936d', hair: '#2a1d18', style: 'long', bg: '#eed6da', clothes: '#4e6e8e', glasses: true },
];

function avatar(a: Avatar): string {
  const shade = `color-mix(in srgb, ${a.skin} 82%, #000)`;
  const css = `
    .bg { inset: 0; background: ${a.bg}; }
    .halo { left: 50px; top: 40px; width: 300px; height: 300px; border-radius: 50%; background: rgba(255,255,255,.38); }
    .body { left: 72px; top: 292px; width: 256px; height: 170px; border-radius: 128px 128px 0 0; background: ${a.clothes}; }
    .collar { left: 168px; top: 290px; width: 64px; height: 40px; background: ${shade}; clip-path: polygon(0 0, 100% 0, 50% 100%); }
    .neck { left: 174px; top: 236px; width: 52px; height: 72px; border-radius: 0 0 26px 26px; background: ${shade}; }
    .head { left: 140px; top: 104px; width: 120px; height: 148px; border-radius: 50% 50% 48% 48% / 44% 44% 56% 56%; background: ${a.skin}; }
    .ear { top: 170px; width: 22px; height: 34px; border-radius: 50%; background: ${a.skin}; }
    .hair { background: ${a.hair}; }
    .eye { top: 176px; width: 18px; height: 10px; border: 3.5px solid #2a2320; border-bottom: 0; border-radius: 12px 12px 0 0; }
    .cheek { top: 196px; width: 20px; height: 12px; border-radius: 50%; background: rgba(230,120,110,.22); }
    .smile { left: 182px; top: 206px; width: 36px; height: 16px; border: 3.5px solid #5a302a; border-top: 0; border-radius: 0 0 20px 20px; }
    .glass { top: 164px; width: 36px; height: 32px; border: 3px solid #3b3531; border-radius: 12px; }
    .bridge { left: 194px; top: 176px; width: 12px; height: 3px; background: #3b3531; }
    .beard { left: 150px; top: 202px; width: 100px; height: 52px; border-radius: 14px 14px 50px 50px; background: ${a.hair}; }
    .beard-mouth { left: 178px; top: 204px; width: 44px; height: 24px; border-radius: 0 0 22px 22px; background: ${a.skin}; }
    .badge { right: 26px; bottom: 26px; width: 86px; height: 86px; border-radius: 50%; background: #fbf8f2;
      border: 4px solid ${a.bg}; display: flex; align-items: center; justify-content: center;
      color: ${a.clothes}; font-weight: 700; font-size: 32px; letter-spacing: .02em; }
  `;
  const back: string[] = [];
  const front: string[] = [];
  switch (a.style) {
    case 'long':
      back.push(`<div class="a hair" style="left:124px;top:92px;width:152px;height:214px;border-radius:76px 76px 30px 30px"></div>`);
      front.push(`<div class="a hair" style="left:136px;top:94px;width:128px;height:62px;border-radius:64px 64px 8px 48px"></div>`);
      break;
    case 'wavy':
      back.push(`<div class="a hair" style="left:118px;top:92px;width:164px;height:196px;border-radius:82px 82px 60px 60px"></div>`);
      for (const [x, y] of [
        [108, 220],
        [252, 220],
        [112, 250],
        [248, 250],
      ]) {
        back.push(`<div class="a hair" style="left:${x}px;top:${y}px;width:40px;height:44px;border-radius:50%"></div>`);
      }
      front.push(`<div class="a hair" style="left:136px;top:94px;width:128px;height:60px;border-radius:64px 64px 48px 8px"></div>`);
      break;
    case 'bun':
      back.push(`<div class="a hair" style="left:170px;top:66px;width:60px;height:54px;border-radius:50%"></div>`);
      front.push(`<div class="a hair" style="left:136px;top:96px;width:128px;height:56px;border-radius:64px 64px 24px 24px"></div>`);
      break;
    case 'curly':
      for (const [x, y, s] of [
        [132, 108, 46],
        [152, 90, 50],
        [180, 84, 50],
        [206, 90, 50],
        [226, 108, 46],
        [134, 132, 34],
        [236, 132, 34],
      ]) {
        front.push(`<div class="a hair" style="left:${x}px;top:${y}px;width:${s}px;height:${s}px;border-radius:50%"></div>`);
      }
      break;
    case 'short':
      front.push(`<div class="a hair" style="left:134px;top:94px;width:132px;height:58px;border-radius:66px 66px 12px 12px"></div>`);
      front.push(`<div class="a hair" style="left:134px;top:130px;width:14px;height:44px;border-radius:0 0 8px 8px"></div>`);
      front.push(`<div class="a hair" style="left:252px;top:130px;width:14px;height:44px;border-radius:0 0 8px 8px"></div>`);
      break;
  }
  const showEars = a.style !== 'long' && a.style !== 'wavy';
  const face = [
    a.beard ? `<div class="a beard"></div><div class="a beard-mouth"></div>` : '',
    `<div class="a eye" style="left:163px"></div><div class="a eye" style="left:219px"></div>`,
    a.beard ? '' : `<div class="a cheek" style="left:152px"></div><div class="a cheek" style="left:228px"></div>`,
    `<div class="a smile"></div>`,
    a.glasses ? `<div class="a glass" style="left:156px"></div><div class="a glass" style="left:208px"></div><div class="a bridge"></div>` : '',
  ].join('');
  const body = `
    <div class="a bg"></div><div class="a halo"></div>
    ${back.join('')}
    <div class="a body"></div><div class="a neck"></div><div class="a collar"></div>
    ${showEars ? `<div class="a ear" style="left:130px"></div><div class="a ear" style="left:248px"></div>` : ''}
    <div class="a head"></div>
    ${front.join('')}
    ${face}
    <div class="a badge">${a.initials}</div>
  `;
  return page(400, 400, css, body);
}

/* --------------------------------------------------------------------- render */

async function render(browser: Browser, html: string, width: number, height: number, file: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, offline: true });
  const tab = await context.newPage();
  await tab.route('**/*', (route) => route.abort()); // nothing may be fetched
  await tab.setContent(html, { waitUntil: 'load' });
  await tab.screenshot({ path: file, type: 'png', omitBackground: false, clip: { x: 0, y: 0, width, height } });
  await context.close();
  const { size } = await stat(file);
  console.log(`${path.relative(ROOT, file)}  ${(size / 1024).toFixed(1)} KB`);
}

async function main(): Promise<void> {
  await mkdir(OUT_LOCATIONS, { recursive: true });
  await mkdir(OUT_THERAPISTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    await render(browser, locationInterior('West Branch'), 800, 500, path.join(OUT_LOCATIONS, '1.png'));
    await render(browser, locationExterior('East Branch · Kandivali East'), 800, 500, path.join(OUT_LOCATIONS, '2.png'));
    for (const t of THERAPISTS) {
      await render(browser, avatar(t), 400, 400, path.join(OUT_THERAPISTS, `${t.slug}.png`));
    }
  } finally {
    await browser.close();
  }
}

await main();
