// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import { precompressIntegration } from '../shared/core/precompress.ts';

// Static build of the public site. Run from the repository root with
//   ASTRO_TELEMETRY_DISABLED=1 npx astro build --root site
// Output goes to site/dist (outDir is resolved relative to the site root), or to SITE_OUT_DIR: `npm start`
// builds into a fresh folder and then points site/dist at it (api/src/site-build.ts).
export default defineConfig({
  output: 'static',
  outDir: process.env.SITE_OUT_DIR || './dist',
  trailingSlash: 'ignore',
  // Astro 7 changed the default to 'jsx', which drops the whitespace between inline elements
  // ("Call us on …" ran into "Email us at …"); keep the HTML-aware compression the pages were written for.
  compressHTML: true,
  build: {
    format: 'directory',
  },
  // Every text file also as .br and .gz, which the API serves to browsers that accept them.
  integrations: [react(), precompressIntegration()],
  devToolbar: {
    enabled: false,
  },
});
