import { Command } from 'commander';
import { ROOM_ROLES } from '../domain/rooms.js';
import { createInvite } from '../service/rooms/createInvite.js';
import { listInvites } from '../service/rooms/listInvites.js';
import { listMembers } from '../service/rooms/listMembers.js';
import { removeMember } from '../service/rooms/removeMember.js';
import { revokeInvite } from '../service/rooms/revokeInvite.js';
import { setMemberRole } from '../service/rooms/setMemberRole.js';
import { helixErrors } from './helixErrors.js';
import { addDatabaseOption, CliError, withDatabase } from './options.js';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `12h`, `1d`: the invite lifetime; the use case bounds it (a minute to a week). */
export const parseTtl = (text: string): number => {
  const match = /^([1-9][0-9]{0,5})([mhd])$/.exec(text.trim());
  const unit = match?.[2] === undefined ? undefined : UNIT_MS[match[2]];
  if (match?.[1] === undefined || unit === undefined)
    throw new CliError(`--ttl takes a number and m, h or d (e.g. 30m, 12h, 1d), got ${text.slice(0, 40)}`, 2);
  return Number(match[1]) * unit;
};

/** The role by name, refused here with the names to choose from (the schema's own message names none). */
const roleOf = (role: string): string => {
  if (!(ROOM_ROLES as readonly string[]).includes(role))
    throw new CliError(`the role must be one of ${ROOM_ROLES.join(', ')}, got ${role.slice(0, 40)}`, 2);
  return role;
};

const addList = (members: Command): void => {
  addDatabaseOption(
    members
      .command('list')
      .description("list a room's members, removed ones included (as a current member of the room)")
      .argument('<room-id>')
      .requiredOption('--account <id>', 'a current member of the room'),
  ).action(async (roomId: string, options: { account: string; database?: string }) => {
    await withDatabase(options, (database) =>
      helixErrors(async () => {
        const listed = await listMembers(database.rooms, options.account, roomId);
        say(`room ${listed.room_id}: consent version ${listed.consent_version}`);
        for (const m of listed.members) {
          const consent = m.accepted_consent_version === null ? 'no consent' : `consent v${m.accepted_consent_version}`;
          const state = m.removed_at === null ? `joined ${m.joined_at}` : `removed ${m.removed_at}`;
          say(`${m.account_id}\t${m.role}\t${consent}\t${state}`);
        }
      }),
    );
  });
};

/**
 * `members add` issues an invite, never a membership: D-09 makes joining the invitee's own act
 * (it opens the link signed in, accepts the invite, then the consent), so no operator or owner
 * can put an account into a room it did not choose.
 */
const addAdd = (members: Command): void => {
  addDatabaseOption(
    members
      .command('add')
      .description('invite a member: prints a single-use, expiring invite link, shown once')
      .argument('<room-id>')
      .requiredOption('--account <id>', 'an owner of the room, who invites')
      .requiredOption('--role <role>', 'member or observer (or owner)')
      .option('--ttl <duration>', 'how long the link is valid: 1m to 7d', '1d')
      .option(
        '--base-url <url>',
        'public base URL of this Helix',
        process.env.HELIX_PUBLIC_BASE_URL ?? 'http://127.0.0.1:1522',
      ),
  ).action(
    async (
      roomId: string,
      options: { account: string; role: string; ttl: string; baseUrl: string; database?: string },
    ) => {
      const ttlMs = parseTtl(options.ttl);
      const role = roleOf(options.role);
      await withDatabase(options, (database) =>
        helixErrors(async () => {
          const invite = await createInvite(database.rooms, options.account, roomId, { role, ttlMs });
          process.stderr.write(
            `invite ${invite.invite_ref} to ${invite.room_id} as ${invite.role}, valid until ${invite.expires_at}: send this link to one person; ` +
              'signed in to Helix, they accept the invite and then the consent. It is shown once and only its hash is kept.\n',
          );
          // The token sits in the fragment, which browsers never send: it stays out of every request log.
          say(`${options.baseUrl.replace(/\/$/, '')}/account/rooms/invite#${invite.token}`);
        }),
      );
    },
  );
};

const addRemove = (members: Command): void => {
  addDatabaseOption(
    members
      .command('remove')
      .description(
        "remove a member (its run bindings, and an owner's unused invites and sources, are revoked); the row stays, marked removed",
      )
      .argument('<room-id>')
      .argument('<member-account-id>')
      .requiredOption('--account <id>', 'an owner of the room, or the member itself (to leave)'),
  ).action(async (roomId: string, memberId: string, options: { account: string; database?: string }) => {
    await withDatabase(options, (database) =>
      helixErrors(async () => {
        const removed = await removeMember(database.rooms, options.account, roomId, memberId);
        say(
          `removed ${removed.member.account_id} from ${roomId}; revoked ${removed.revoked_bindings} run binding(s), ` +
            `${removed.revoked_invites} invite(s), ${removed.revoked_sources} source(s)`,
        );
      }),
    );
  });
};

const addSetRole = (members: Command): void => {
  addDatabaseOption(
    members
      .command('set-role')
      .description("set a member's role; observer revokes its run bindings in the room")
      .argument('<room-id>')
      .argument('<member-account-id>')
      .argument('<role>', 'owner, member or observer')
      .requiredOption('--account <id>', 'an owner of the room'),
  ).action(async (roomId: string, memberId: string, role: string, options: { account: string; database?: string }) => {
    roleOf(role);
    await withDatabase(options, (database) =>
      helixErrors(async () => {
        const changed = await setMemberRole(database.rooms, options.account, roomId, memberId, role);
        say(
          `${changed.member.account_id} is now ${changed.member.role} in ${roomId}; revoked ${changed.revoked_bindings} run binding(s), ` +
            `${changed.revoked_invites} invite(s), ${changed.revoked_sources} source(s)`,
        );
      }),
    );
  });
};

const addInvites = (members: Command): void => {
  addDatabaseOption(
    members
      .command('invites')
      .description("list a room's invites, newest first, with their status (never a token)")
      .argument('<room-id>')
      .requiredOption('--account <id>', 'an owner of the room'),
  ).action(async (roomId: string, options: { account: string; database?: string }) => {
    await withDatabase(options, (database) =>
      helixErrors(async () => {
        const { invites } = await listInvites(database.rooms, options.account, roomId);
        if (invites.length === 0) say('no invites');
        for (const i of invites) {
          const used = i.used_at === null ? '' : `\tused ${i.used_at} by ${i.used_by ?? '(erased)'}`;
          say(`${i.invite_ref}\t${i.role}\t${i.status}\tby ${i.created_by}\texpires ${i.expires_at}${used}`);
        }
      }),
    );
  });
};

const addRevokeInvite = (members: Command): void => {
  addDatabaseOption(
    members
      .command('revoke-invite')
      .description('revoke an unused invite for good: its link then seats no one')
      .argument('<room-id>')
      .argument('<invite-ref>', 'rinv_…, as `members invites` lists it')
      .requiredOption('--account <id>', 'an owner of the room'),
  ).action(async (roomId: string, inviteRef: string, options: { account: string; database?: string }) => {
    await withDatabase(options, (database) =>
      helixErrors(async () => {
        const revoked = await revokeInvite(database.rooms, options.account, roomId, inviteRef);
        say(`${revoked.invite_ref}\t${revoked.revocation_status}`);
      }),
    );
  });
};

/** `helix rooms members …`: the owner's membership management (D-09). */
export const roomMembersCommand = (): Command => {
  const members = new Command('members').description(
    "a room's members: list, invite, remove, set roles; list and revoke invites",
  );
  for (const add of [addList, addAdd, addRemove, addSetRole, addInvites, addRevokeInvite]) add(members);
  return members;
};
