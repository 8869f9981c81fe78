import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { linkIdentity } from '../src/service/accounts/linkIdentity.js';
import { acceptConsent } from '../src/service/rooms/acceptConsent.js';
import { acceptInvite } from '../src/service/rooms/acceptInvite.js';
import { withOperatorDatabase } from '../src/server/operatorDatabase.js';
import { runCli } from './support/processes.js';
import { ceilingFor } from './support/ceilings.js';

const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1)!;

describe('helix rooms (D-09, PRE-01): the operator manages rooms, members and consent', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-rooms-'));
  const database = join(dir, 'helix.db');
  const cli = (...args: string[]) => runCli([...args, '--database', database]);
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    await withOperatorDatabase(database, async (db) => {
      alice = (await createAccount(db.accounts, { displayName: 'Alice' })).accountId;
      bob = (await createAccount(db.accounts, { displayName: 'Bob' })).accountId;
      await linkIdentity(db.accounts, alice, {
        issuer: 'https://login.example.com',
        tenantId: 'acme',
        provider: 'idp',
        subject: 'alice',
      });
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('D-09: the policy lock holds until `accounts policy set` turns shared_live_room on', {
    timeout: ceilingFor(4),
  }, async () => {
    const locked = await cli('rooms', 'create', '--account', alice, '--title', 'Locked');
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain('feature_not_enabled');
    for (const account of [alice, bob]) {
      const set = await cli('accounts', 'policy', 'set', '--account', account, '--feature', 'shared_live_room=on');
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toMatch(/feature shared_live_room\ton\t\(set\)/);
    }
    const developer = await cli('accounts', 'policy', 'set', '--account', bob, '--feature', 'developer=on');
    expect(developer.stdout).toMatch(/feature developer\ton\t\(set\)/);
  });

  it('D-09, PRE-01: create, invite (the token printed once, stored hashed), join, set role, consent, remove', {
    timeout: ceilingFor(9),
  }, async () => {
    const created = await cli('rooms', 'create', '--account', alice, '--title', 'Build site');
    expect(created.code, created.stderr).toBe(0);
    const roomId = lastLine(created.stdout);
    expect(roomId).toMatch(/^room_[0-9a-f]{24}$/);

    const added = await cli(
      'rooms',
      'members',
      'add',
      roomId,
      '--account',
      alice,
      '--role',
      'member',
      '--ttl',
      '2h',
      '--base-url',
      'https://helix.example.com/',
    );
    expect(added.code, added.stderr).toBe(0);
    const link = added.stdout.trim();
    expect(link).toMatch(/^https:\/\/helix\.example\.com\/account\/rooms\/invite#hlxinv_[A-Za-z0-9_-]{43}$/);
    const token = link.split('#')[1]!;
    expect(added.stderr).toContain('shown once');
    // Only the SHA-256 is stored: neither the database nor its WAL holds the token.
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).includes(token)).toBe(false);
    const tokenHash = createHash('sha256').update(token).digest('hex');
    await withOperatorDatabase(database, async (db) => {
      const joined = await acceptInvite(db.rooms, bob, token);
      expect(joined.member.role).toBe('member');
      expect(joined.room_id).toBe(roomId);
      expect(await db.rooms.store.read.rooms.consumeInvite(tokenHash, bob, Date.now())).toBeUndefined(); // used once
    });

    const members = await cli('rooms', 'members', 'list', roomId, '--account', alice);
    expect(members.stdout).toMatch(new RegExp(`${alice}\\towner\\tconsent v1\\tjoined`));
    expect(members.stdout).toMatch(new RegExp(`${bob}\\tmember\\tno consent\\tjoined`));

    const role = await cli('rooms', 'members', 'set-role', roomId, bob, 'observer', '--account', alice);
    expect(role.stdout).toContain(`${bob} is now observer in ${roomId}`);
    const consentFile = join(dir, 'consent.txt');
    writeFileSync(consentFile, 'Version two: members see bound runs and their answers.');
    const published = await cli('rooms', 'consent', 'publish', roomId, '--account', alice, '--file', consentFile);
    expect(published.stdout).toBe(`published consent version 2 of ${roomId}\n`);
    await withOperatorDatabase(database, async (db) => {
      await acceptConsent(db.rooms, bob, roomId, 2);
      const row = await db.rooms.store.read.rooms.getMember(roomId, bob);
      expect(row).toMatchObject({ role: 'observer', acceptedConsentVersion: 2 });
      expect((await db.rooms.store.read.rooms.getConsentVersion(roomId, 2))?.text).toContain('Version two');
    });

    const bobsRooms = await cli('rooms', 'list', '--account', bob);
    expect(bobsRooms.stdout).toBe(`${roomId}\tobserver\tconsent v2 accepted\tBuild site\n`);
    const all = await cli('rooms', 'list');
    expect(all.stdout).toMatch(
      new RegExp(`^${roomId}\\tactive\\towner ${alice}\\t2 member\\(s\\)\\tconsent v2\\t`, 'm'),
    );

    const removed = await cli('rooms', 'members', 'remove', roomId, bob, '--account', alice);
    expect(removed.stdout).toContain(`removed ${bob} from ${roomId}`);
    expect((await cli('rooms', 'list', '--account', bob)).stdout).toBe('no rooms\n');
  });

  it('D-09, issue 27 item 2: `members invites` lists invites without their tokens; `members revoke-invite` ends one', {
    timeout: ceilingFor(7),
  }, async () => {
    const roomId = lastLine((await cli('rooms', 'create', '--account', alice, '--title', 'Invites')).stdout);
    const added = await cli('rooms', 'members', 'add', roomId, '--account', alice, '--role', 'owner');
    expect(added.code, added.stderr).toBe(0);
    const token = added.stdout.trim().split('#')[1]!;
    const inviteRef = /invite (rinv_[0-9a-f]{32}) to /.exec(added.stderr)?.[1];
    expect(inviteRef).toBeDefined();

    const listed = await cli('rooms', 'members', 'invites', roomId, '--account', alice);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${inviteRef}\towner\tpending\tby ${alice}\texpires `, 'm'));
    expect(listed.stdout).not.toContain(token);
    expect(listed.stdout).not.toContain(createHash('sha256').update(token).digest('hex'));

    const revoked = await cli('rooms', 'members', 'revoke-invite', roomId, inviteRef!, '--account', alice);
    expect(revoked.stdout).toBe(`${inviteRef}\trevoked\n`);
    expect((await cli('rooms', 'members', 'revoke-invite', roomId, inviteRef!, '--account', alice)).stdout).toBe(
      `${inviteRef}\talready_revoked\n`,
    );
    await withOperatorDatabase(database, async (db) => {
      await expect(acceptInvite(db.rooms, bob, token)).rejects.toMatchObject({ code: 'not_found' });
    });
    const unknown = await cli('rooms', 'members', 'revoke-invite', roomId, 'rinv_nope', '--account', alice);
    expect([unknown.code, unknown.stderr.includes('not_found')]).toEqual([1, true]);
    const stranger = await cli('rooms', 'members', 'invites', roomId, '--account', bob);
    expect([stranger.code, stranger.stderr.includes('not_found')]).toEqual([1, true]);
  });

  it("refuses bad input (exit 2) and another account's room reads as not found (exit 1)", {
    timeout: ceilingFor(12),
  }, async () => {
    const roomId = lastLine((await cli('rooms', 'create', '--account', alice, '--title', 'Private')).stdout);
    const cases: [string[], number, string][] = [
      [['rooms', 'create', '--account', alice, '--title', '   '], 2, 'must not be empty'],
      [['rooms', 'create', '--account', bob, '--title', 'No tenant'], 2, 'link an agent identity'],
      [['rooms', 'members', 'add', roomId, '--account', alice, '--role', 'admin'], 2, 'one of owner, member, observer'],
      [['rooms', 'members', 'set-role', roomId, bob, 'boss', '--account', alice], 2, 'one of owner, member, observer'],
      [['rooms', 'members', 'add', roomId, '--account', alice, '--role', 'member', '--ttl', 'forever'], 2, '--ttl'],
      [['rooms', 'members', 'add', roomId, '--account', alice, '--role', 'member', '--ttl', '8d'], 2, 'ttl_ms'],
      [['rooms', 'consent', 'publish', roomId, '--account', alice], 2, 'exactly one of --text or --file'],
      [['rooms', 'consent', 'publish', roomId, '--account', alice, '--file', join(dir, 'missing')], 2, 'ENOENT'],
      [['rooms', 'members', 'list', roomId, '--account', bob], 1, 'not_found'],
      [['rooms', 'members', 'set-role', roomId, alice, 'observer', '--account', alice], 1, 'room_role_forbidden'],
      [['rooms', 'members', 'list', 'room_nope', '--account', alice], 1, 'not_found'],
    ];
    for (const [args, code, message] of cases) {
      const result = await cli(...args);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr, args.join(' ')).toContain(message);
    }
  });
});
