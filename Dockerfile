# Launchlist: a production image. Build and run with compose (compose.yaml) or alone:
#   docker build -t launchlist . && docker run -p 3000:3000 -v launchlist-data:/data launchlist
# No container daemon runs in CI: scripts/container-drill.ts runs this file's install and start steps
# on a clean copy of the repository (see the README, Operations).
ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Production dependencies only, with no install scripts. The image has its own Node 24: the optional
#    `node` package (Node 24 for installs on machines with another Node) fetches its binary in its install
#    script, so here it stays an empty folder. No other production dependency needs one (koffi's prebuilt
#    binary is an optional dependency of its own, kept: src/ops/malloc-trim.ts).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 2. The runtime: Node 24, the sources (TypeScript runs as is: Node strips the types), no build tools,
#    not root. SQLite and generated secrets live in the /data volume.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
# Ready: the database answers and is migrated, Redis answers when set, the job queue is not stuck.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# As `npm start` runs it, without npm in between (signals reach the server: graceful shutdown on SIGTERM).
CMD ["node", "--env-file-if-exists=.env", "--max-semi-space-size=8", "--heap-growing-percent=100", "src/main.ts"]
