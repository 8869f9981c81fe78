import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { eraseSubject } from '../service/subjects/eraseSubject.js';
import { exportSubject } from '../service/subjects/exportSubject.js';
import type { SubjectDeps } from '../service/subjects/deps.js';
import { summarizeSubject } from '../service/subjects/summarizeSubject.js';
import { helixErrors } from './helixErrors.js';
import { addDatabaseOption, CliError, withDatabase } from './options.js';

/** The audit names the command line as the requester: whoever runs it has the database itself. */
const CLI_REQUESTER = 'cli';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

const countLines = (records: Readonly<Record<string, number>>): void => {
  for (const [kind, count] of Object.entries(records)) say(`${kind}\t${count}`);
};

/** The same use cases as REST; their refusals become one-line CLI errors (bad input exits 2). */
const withSubjects = <T>(options: { database?: string }, fn: (deps: SubjectDeps) => Promise<T>): Promise<T> =>
  withDatabase(options, (database) => helixErrors(() => fn(database.subjects)));

/** One line from stdin: a person types it, or a script pipes it; end of input is no answer. */
const readLine = async (): Promise<string | undefined> => {
  const lines = createInterface({ input: process.stdin });
  try {
    for await (const line of lines) return line.trim();
    return undefined;
  } finally {
    lines.close();
  }
};

export const subjectsCommand = (): Command => {
  const subjects = new Command('subjects').description(
    'ADR-0004 subject access: count, export or erase every record of an account',
  );

  addDatabaseOption(
    subjects
      .command('show')
      .description('count the records held for an account, per record kind')
      .argument('<account-id>'),
  ).action(async (accountId: string, options: { database?: string }) => {
    await withSubjects(options, async (deps) => {
      const summary = await summarizeSubject(deps, accountId);
      say(`subject ${summary.account_id}: ${summary.total} record(s)`);
      countLines(summary.records);
    });
  });

  addDatabaseOption(
    subjects
      .command('export')
      .description('write every record of an account as one JSON document (helix.subject_export.v1)')
      .argument('<account-id>')
      .option('--out <file>', 'write the document to this file (mode 600) instead of stdout'),
  ).action(async (accountId: string, options: { database?: string; out?: string }) => {
    await withSubjects(options, async (deps) => {
      const document = `${JSON.stringify(await exportSubject(deps, accountId), null, 2)}\n`;
      if (options.out === undefined) {
        process.stdout.write(document);
        return;
      }
      await writeFile(options.out, document, { mode: 0o600 });
      process.stderr.write(`exported ${accountId} to ${options.out}\n`);
    });
  });

  addDatabaseOption(
    subjects
      .command('erase')
      .description('erase every record of an account, in one transaction, with an audit record; asks first')
      .argument('<account-id>')
      .option('--yes', 'do not ask for confirmation'),
  ).action(async (accountId: string, options: { database?: string; yes?: boolean }) => {
    if (options.yes !== true) {
      process.stderr.write(
        `This erases every record of ${accountId} and cannot be undone. Type the account id to confirm: `,
      );
      const answer = await readLine();
      if (!process.stdin.isTTY) process.stderr.write('\n'); // a piped answer is not echoed: end the prompt's line
      if (answer !== accountId) throw new CliError('not confirmed; nothing was erased');
    }
    await withSubjects(options, async (deps) => {
      const idempotencyKey = `cli-${randomBytes(16).toString('hex')}`;
      const { body, replayed } = await eraseSubject(deps, { accountId, requestedBy: CLI_REQUESTER, idempotencyKey });
      say(
        `${replayed ? 'already erased' : 'erased'} ${body.account_id}: erasure ${body.erasure_id} at ${body.erased_at}`,
      );
      countLines(body.records);
    });
  });
  return subjects;
};
