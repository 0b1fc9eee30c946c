# Production image: the built API serving the built SPA. PostgreSQL comes from DATABASE_URL.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@10
COPY . .
RUN pnpm install --frozen-lockfile && pnpm build && pnpm prune --prod --config.ignore-scripts=true

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["node", "--enable-source-maps", "apps/api/dist/server.js"]
