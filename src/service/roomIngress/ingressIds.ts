import { randomBytes } from 'node:crypto';

/** Server-made ids of the ingress lane's rows: `adm_` admissions, `obs_` observations (≤ 40 characters). */
export const newIngressId = (prefix: 'adm' | 'obs'): string => `${prefix}_${randomBytes(16).toString('hex')}`;
