// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

// Static build of the public site. Run from the repository root with
//   ASTRO_TELEMETRY_DISABLED=1 npx astro build --root site
// Output goes to site/dist (outDir is resolved relative to the site root).
export default defineConfig({
  output: 'static',
  outDir: './dist',
  trailingSlash: 'ignore',
  build: {
    format: 'directory',
  },
  integrations: [react()],
  devToolbar: {
    enabled: false,
  },
});
