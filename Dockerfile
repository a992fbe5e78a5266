# One image for both apps (payments-api and webhook-dispatcher).
#   docker build -t payhook .                                  runs payments-api by default
#   docker build -t payhook --build-arg APP=webhook-dispatcher .  changes the default
#   docker run -e APP=webhook-dispatcher payhook                  or choose at run time
# docker-compose.yml instead overrides the command of its dispatcher service.
# Node 20.19+ is required (Nest 12 is loaded through require(esm)).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, so source edits do not invalidate this layer.
COPY package.json package-lock.json ./
# swagger-ui-dist is overridden by this empty local package (package.json, "overrides").
COPY stubs ./stubs
RUN npm ci --no-audit --no-fund
COPY nest-cli.json tsconfig.json tsconfig.build.json tsconfig.dist.json ./
COPY scripts/build.mjs ./scripts/build.mjs
COPY apps ./apps
COPY libs ./libs
COPY examples ./examples
# Builds the apps into dist/apps/<app>/src/main.js in one pass, then drops dev dependencies.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ARG APP=payments-api
# NODE_OPTIONS: the apps' heap size, as scripts/app-node-flags.mjs gives it (npm start and the bench).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-old-space-size=256 \
    APP=${APP}
WORKDIR /app
# Root-owned and read-only to the app user: the process never writes to its own code.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/stubs ./stubs
COPY --from=build /app/dist ./dist
# The merchant guide the API serves at /docs/guide.
COPY docs/merchant-guide.md ./docs/merchant-guide.md
USER node
# 3000: payments-api (PORT). 3001: webhook-dispatcher health and metrics (DISPATCHER_PORT).
EXPOSE 3000 3001
# No HEALTHCHECK here: the port and the checks differ per app, so compose defines one per service.
# `exec` replaces the shell with node, so node gets SIGTERM, stops gracefully and exits. Run with an
# init all the same (`docker run --init`, `init: true` in compose): it reaps what a process leaves behind.
CMD ["sh", "-c", "exec node --enable-source-maps \"dist/apps/${APP}/src/main.js\""]
