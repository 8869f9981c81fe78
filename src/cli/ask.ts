import { Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { askHelix, type AskOutcome } from '../client/askLoop.js';
import { HelixApiError, HelixContractError } from '../client/clientErrors.js';
import type { RunSnapshot } from '../client/contract.js';
import { HelixRestClient } from '../client/restClient.js';
import { CliError } from './options.js';

const turnLine = (run: RunSnapshot): string => {
  const turn = run.budget.steps_used === 0 ? 'started' : `turn ${run.budget.steps_used}`;
  const parts = [
    `${turn}: ${run.completion_status}`,
    `${run.evidence.count} evidence`,
    `authority ${run.terminal_authority_status}`,
  ];
  if (run.unresolved_requirements.length > 0) parts.push(`unresolved ${run.unresolved_requirements.join(', ')}`);
  if (run.contradictions.length > 0) parts.push(`${run.contradictions.length} contradiction(s)`);
  return parts.join(' · ');
};

/** The answer with its numbered sources, each with where it came from. */
const STOP_REASONS: Readonly<Record<AskOutcome['stoppedBecause'], string>> = {
  terminal: '',
  needs_input: '',
  no_progress: ', no further progress possible',
  needs_broader_scope: ', the admitted sources do not hold the answer',
};

export const renderOutcome = ({ run, evidence, stoppedBecause }: AskOutcome): string => {
  const lines: string[] = [];
  const text = run.latest_result?.text;
  if (text !== null && text !== undefined && run.terminal_authority_status === 'authorized') {
    lines.push(text.split('\n\nSources:')[0] ?? text, '', 'Sources:');
    const sources = (run.latest_result?.output_fields.sources ?? []) as {
      n: number;
      ref: string;
      title: string;
      locator: string | null;
      span: { start: number; end: number } | null;
    }[];
    for (const s of sources) {
      const where =
        s.locator === null ? '' : ` — ${s.locator}${s.span === null ? '' : ` (chars ${s.span.start}-${s.span.end})`}`;
      lines.push(`  [${s.n}] ${s.title}${where}`);
    }
  } else {
    lines.push(`No authorized answer (${run.completion_status}${STOP_REASONS[stoppedBecause]}).`);
    if (run.unresolved_requirements.length > 0) lines.push(`Unresolved: ${run.unresolved_requirements.join(', ')}`);
    for (const c of run.contradictions) lines.push(`Contradiction: ${c.description}`);
  }
  lines.push(
    '',
    `run ${run.run_id} · ${run.completion_status} · ${evidence.evidence_refs.length} evidence refs · terminal authority ${run.terminal_authority_status}`,
  );
  return `${lines.join('\n')}\n`;
};

/**
 * The bearer `helix ask` sends: the variable `--token-env` names, else HELIX_TOKEN, else
 * HELIX_MCP_TOKEN (the name the `helix mcp config` snippets use), so one exported key serves both.
 */
export const bearerFromEnv = (
  env: NodeJS.ProcessEnv,
  named: string | undefined,
): { readonly name: string; readonly token: string | undefined } => {
  const candidates = named === undefined ? ['HELIX_TOKEN', 'HELIX_MCP_TOKEN'] : [named];
  for (const name of candidates) {
    const token = env[name];
    if (token !== undefined && token !== '') return { name, token };
  }
  return { name: named ?? 'HELIX_TOKEN', token: undefined };
};

export const askCommand = (): Command =>
  new Command('ask')
    .description('start a run on a Helix server and drive it to an answer with cited sources')
    .argument('<objective>', 'the question or research objective')
    .option('--scope <scope...>', 'logical data scopes to admit', ['research_library'])
    .option('--url <url>', 'Helix base URL', process.env.HELIX_URL ?? 'http://127.0.0.1:1522')
    .option(
      '--token-env <name>',
      'environment variable holding the bearer (an hlx_ key, or a token Helix accepts); default HELIX_TOKEN, else HELIX_MCP_TOKEN',
    )
    .option('--max-steps <n>', 'step budget (1-64)')
    .action(
      async (objective: string, options: { scope: string[]; url: string; tokenEnv?: string; maxSteps?: string }) => {
        const { name, token } = bearerFromEnv(process.env, options.tokenEnv);
        if (token === undefined) {
          throw new CliError(`set ${name} to an hlx_ key or access token (create one with: helix keys create …)`, 2);
        }
        const maxSteps = options.maxSteps === undefined ? undefined : Number(options.maxSteps);
        if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps >= 1 && maxSteps <= 64))
          throw new CliError('--max-steps must be 1-64', 2);
        const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
        const prompt = interactive ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;
        try {
          const outcome = await askHelix(
            new HelixRestClient(options.url.replace(/\/$/, ''), token),
            { objective, scopes: options.scope, ...(maxSteps === undefined ? {} : { maxSteps }) },
            {
              onRun: (run) => process.stderr.write(`${turnLine(run)}\n`),
              ...(prompt === undefined
                ? {}
                : {
                    askUser: async (q) => {
                      const answer = (
                        await prompt.question(
                          `? ${q.prompt}${q.answer_hint === undefined ? '' : ` (${q.answer_hint})`} `,
                        )
                      ).trim();
                      return answer === '' ? undefined : answer;
                    },
                  }),
            },
          );
          process.stdout.write(renderOutcome(outcome));
          if (outcome.stoppedBecause === 'needs_input') {
            for (const q of outcome.run.pending_questions)
              process.stderr.write(`question ${q.question_id}: ${q.prompt}\n`);
            process.exitCode = 3;
          } else if (outcome.run.completion_status !== 'completed') process.exitCode = 4;
        } catch (err) {
          if (err instanceof HelixApiError)
            throw new CliError(
              `server answered ${err.status} ${err.code}${err.adrCode === undefined ? '' : ` (ADR-0004 ${err.adrCode})`}: ${err.message}`,
            );
          if (err instanceof HelixContractError)
            throw new CliError(`${options.url} is not a compatible Helix server: ${err.message}`);
          if (err instanceof TypeError)
            throw new CliError(
              `cannot reach Helix at ${options.url}: ${(err.cause as Error | undefined)?.message ?? err.message}`,
            );
          throw err;
        } finally {
          prompt?.close();
        }
      },
    );
