# syntax=docker/dockerfile:1
# Stage 1: production dependencies only (native modules build here, not in the final image).
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# Stage 2: the runtime. Node 24 runs the TypeScript sources directly (type stripping).
FROM node:24-slim
ENV NODE_ENV=production
# Fixed glibc thresholds hand big freed buffers back to the system, and two arenas hold what threads
# free (shared/core/node-process.ts).
ENV MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072 MALLOC_ARENA_MAX=2
# Node's compile cache: a restart finds the modules compiled and their types stripped (node-process.ts).
ENV NODE_COMPILE_CACHE=/app/var/compile-cache
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY api ./api
COPY worker ./worker
COPY shared ./shared
COPY site ./site
# The site is built at start (its team page reads the live API), so the app user owns site/.
RUN mkdir -p /app/var && chown -R node:node /app/site /app/var
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "api/src/start.ts"]
