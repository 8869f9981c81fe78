import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { runtimeApprovalKeys } from '../config/runtimeApprovalConfig.js';
import { ROOM_ID_PATTERN } from '../domain/rooms.js';
import { RUN_ID_PATTERN } from '../domain/run.js';
import {
  RUNTIME_APPROVAL_RECEIPT as RECEIPT,
  RUNTIME_APPROVAL_REGISTRY_LIMITS as LIMITS,
  SUBJECT_REF_PATTERN,
} from '../domain/runtimeApproval.js';
import { approvalBootstrapStatus } from '../service/approvals/bootstrapStatus.js';
import { generateApprovalKey, readApprovalKey, signApproval, type SignRequest } from './approvalHost.js';
import { CliError } from './options.js';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

const bad = (message: string): CliError => new CliError(message, 2);

const bounded = (name: string, value: string, max: number): string => {
  if (value.length < 1 || value.length > max) throw bad(`${name} must be 1-${max} characters`);
  return value;
};

const matching = (name: string, value: string, pattern: RegExp): string => {
  if (!pattern.test(value)) throw bad(`${name} is not valid (expected ${pattern.source})`);
  return value;
};

const wholeNumber = (name: string, value: string, min: number, max: number): number => {
  if (!/^\d{1,7}$/.test(value) || Number(value) < min || Number(value) > max)
    throw bad(`${name} must be a whole number ${min}-${max}`);
  return Number(value);
};

/** `--action '{"kind":"place",...}'` or `--action @action.json`: the exact action, as JSON. */
const actionOf = (value: string): unknown => {
  let text = value;
  if (value.startsWith('@')) {
    try {
      text = readFileSync(value.slice(1), 'utf8');
    } catch {
      throw bad(`cannot read the action file ${value.slice(1)}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw bad('--action is not valid JSON');
  }
};

interface SignOptions {
  key: string;
  issuer: string;
  keyId: string;
  room: string;
  subject: string;
  run?: string;
  turn?: string;
  action: string;
  ttlSeconds: string;
}

const signRequestOf = (o: SignOptions, issuedAt: number): SignRequest => {
  if ((o.run === undefined) !== (o.turn === undefined)) throw bad('give --run and --turn together, or neither');
  return {
    issuer: bounded('--issuer', o.issuer, LIMITS.maxIssuerChars),
    keyId: bounded('--key-id', o.keyId, LIMITS.maxKeyIdChars),
    roomId: matching('--room', o.room, ROOM_ID_PATTERN),
    subjectRef: matching('--subject', o.subject, SUBJECT_REF_PATTERN),
    runId: o.run === undefined ? null : matching('--run', o.run, RUN_ID_PATTERN),
    turn: o.turn === undefined ? null : wholeNumber('--turn', o.turn, 0, 1_000_000),
    action: actionOf(o.action),
    ttlSeconds: wholeNumber('--ttl-seconds', o.ttlSeconds, 1, RECEIPT.maxLifetimeSeconds),
    issuedAt,
  };
};

const addKeygen = (approvals: Command): void => {
  approvals
    .command('keygen')
    .description('create an Ed25519 approval key: the private key goes to a 0600 file, the registry entry to stdout')
    .requiredOption('--out <dir>', 'directory for <key-id>.private.pem (created 0700 if absent)')
    .requiredOption('--issuer <issuer>', 'the issuer this approval host signs as')
    .option('--key-id <id>', 'the key id (default: ed25519- and a fingerprint of the public key)')
    .action((options: { out: string; issuer: string; keyId?: string }) => {
      const issuer = bounded('--issuer', options.issuer, LIMITS.maxIssuerChars);
      const { entry, file } = generateApprovalKey(options.out, issuer, options.keyId);
      process.stderr.write(
        `wrote the private key to ${file} (keep it outside the server); add this entry to HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON:\n`,
      );
      say(JSON.stringify(entry));
    });
};

const addSign = (approvals: Command): void => {
  approvals
    .command('sign')
    .description('sign a runtime approval receipt for one exact action; the receipt is printed alone on stdout')
    .requiredOption('--key <file>', 'the private key file from keygen')
    .requiredOption('--issuer <issuer>', "the key's issuer, as in the registry")
    .requiredOption('--key-id <id>', "the key's id, as in the registry")
    .requiredOption('--room <room_id>', 'the room the action happens in')
    .requiredOption('--subject <subject_ref>', 'the subject that acts')
    .option('--run <run_id>', 'the run whose current turn asks (with --turn; omit both outside a run)')
    .option('--turn <n>', 'the current turn of --run')
    .requiredOption('--action <json|@file>', 'the exact action, as JSON or @file')
    .option('--ttl-seconds <n>', `lifetime, 1-${RECEIPT.maxLifetimeSeconds}`, '120')
    .action(async (options: SignOptions) => {
      const request = signRequestOf(options, Math.floor(Date.now() / 1000));
      say(await signApproval(readApprovalKey(options.key), request));
    });
};

export const approvalsCommand = (): Command => {
  const approvals = new Command('approvals').description(
    'runtime approval receipts: the reference approval host (keygen, sign) and the server status (docs/embodiment.md)',
  );
  addKeygen(approvals);
  addSign(approvals);
  approvals
    .command('status')
    .description(
      'what a server started with this environment installs (HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON), as JSON',
    )
    .action(() => say(JSON.stringify(approvalBootstrapStatus(runtimeApprovalKeys(process.env)), null, 2)));
  return approvals;
};
