import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUDGET_BOUNDS, BUDGET_DEFAULTS } from '../../../domain/contract.js';
import { ADR_ERROR_NUMBERS, ERROR_CODES, ERROR_TABLE } from '../../../domain/errors.js';
import { documentedRoutes } from '../routeCatalog.js';
import { API_REFERENCE_FILE, renderApiReference } from './apiReference.js';
import { REFERENCE_TABLES } from './referenceTables.js';

const committed = readFileSync(fileURLToPath(new URL(`../../../../${API_REFERENCE_FILE}`, import.meta.url)), 'utf8');
const blocks = (names: readonly string[]) =>
  names
    .map((name) => `<!-- generated:${name} -->\nOUTDATED-PLACEHOLDER\n<!-- /generated:${name} -->`)
    .join('\n\nprose\n\n');

describe('the generated tables of docs/api.md', () => {
  it('are what `npm run openapi` writes (the committed docs have not drifted from the contract)', () => {
    expect(
      renderApiReference(committed) === committed,
      `${API_REFERENCE_FILE} is stale: run \`npm run openapi\` and commit the result`,
    ).toBe(true);
  });

  it('replace only the text between the markers, keeping the prose around them', () => {
    const rendered = renderApiReference(`intro\n\n${blocks(Object.keys(REFERENCE_TABLES))}\n\noutro\n`);
    expect(rendered.startsWith('intro\n\n<!-- generated:routes -->\n| Method |')).toBe(true);
    expect(rendered.endsWith('<!-- /generated:errors -->\n\noutro\n')).toBe(true);
    expect(rendered).not.toContain('OUTDATED-PLACEHOLDER');
    expect(rendered.split('\n\nprose\n\n')).toHaveLength(Object.keys(REFERENCE_TABLES).length);
  });

  it('refuse a docs file that drops a table, repeats one or names an unknown one', () => {
    const names = Object.keys(REFERENCE_TABLES);
    expect(() => renderApiReference(blocks(names.slice(1)))).toThrow(/must appear once: routes/);
    expect(() => renderApiReference(blocks([...names, 'errors']))).toThrow(/must appear once: errors/);
    expect(() => renderApiReference(blocks([...names, 'output:nothing']))).toThrow(/no generated table named/);
  });

  it('state the limits and defaults the request schemas enforce', () => {
    const start = REFERENCE_TABLES['request:start-run']?.() ?? '';
    const { min, max } = BUDGET_BOUNDS.max_steps;
    expect(start).toContain(
      `| \`budget.max_steps\` | integer | no | ${min}-${max} | \`${BUDGET_DEFAULTS.max_steps}\` |`,
    );
    expect(start).toContain('| `objective` | string | yes | 1-4,000 characters |  |');
    expect(REFERENCE_TABLES['request:continue-run']?.()).toContain('| `answers[].value` | any JSON value | yes |');
    expect(REFERENCE_TABLES['output:run']?.()).toContain('| `latest_result.text` | string \\| null | yes |');
  });

  it('list every error code with its HTTP status and ADR-0004 number, and every documented route', () => {
    const errors = REFERENCE_TABLES.errors?.() ?? '';
    for (const code of ERROR_CODES) {
      const { status, adr } = ERROR_TABLE[code];
      const number = adr === undefined ? '' : `${ADR_ERROR_NUMBERS[adr]} \`${adr}\``;
      expect(errors).toContain(`| \`${code}\` | ${status} | ${number} |`);
    }
    const routes = REFERENCE_TABLES.routes?.() ?? '';
    expect(routes.split('\n')).toHaveLength(documentedRoutes().length + 2);
    expect(routes).toContain(
      '| `POST` | `/api/v1/subjects/{account_id}/erase` | `subject.erase` (an `hlx_` key only) |',
    );
  });
});
