import type { FastifyInstance } from 'fastify';

/** One route as the server registered it: its method and its path pattern (`:param` segments). */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route this server registered, in registration order. */
    readonly routeTable: readonly RegisteredRoute[];
  }
}

/**
 * Records the route table as the routes are added, so what the server really serves can be checked
 * against what the docs tell an operator to forward (docs/production.md). Must run before any route
 * is registered: an `onRoute` hook sees only the routes added after it, in its scope and below.
 */
export const recordRouteTable = (app: FastifyInstance): void => {
  const routes: RegisteredRoute[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
};
