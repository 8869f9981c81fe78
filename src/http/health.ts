import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export const HEALTH_PATH = '/healthz';

/** Liveness only: the process answers HTTP. No auth, nothing about the store or the models. */
export const HealthSchema = z.strictObject({ status: z.literal('ok') });

export const registerHealth = (app: FastifyInstance): void => {
  app.get(HEALTH_PATH, async (): Promise<z.output<typeof HealthSchema>> => ({ status: 'ok' }));
};
