import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { createAccountRoom } from '../service/rooms/createAccountRoom.js';
import { createRoomFor } from '../service/rooms/createRoomFor.js';
import { listAccountRooms } from '../service/rooms/listAccountRooms.js';
import { listAllRooms } from '../service/rooms/listAllRooms.js';
import { publishConsentVersion } from '../service/rooms/publishConsentVersion.js';
import { helixErrors } from './helixErrors.js';
import { addDatabaseOption, CliError, withDatabase } from './options.js';
import { roomMembersCommand } from './roomMembers.js';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

const addList = (rooms: Command): void => {
  addDatabaseOption(
    rooms
      .command('list')
      .description('list every room, or with --account the rooms it is a current member of, with its role and consent')
      .option('--account <id>', 'only the rooms of this account'),
  ).action(async (options: { account?: string; database?: string }) => {
    await withDatabase(options, (database) =>
      helixErrors(async () => {
        if (options.account === undefined) {
          const rows = await listAllRooms(database.rooms);
          if (rows.length === 0) say('no rooms');
          for (const r of rows)
            say(
              `${r.room_id}\t${r.status}\towner ${r.owner_account_id}\t${r.members} member(s)\tconsent v${r.consent_version}\tcreated ${r.created_at}\t${r.title}`,
            );
          return;
        }
        const views = await listAccountRooms(database.rooms, options.account);
        if (views.length === 0) say('no rooms');
        for (const v of views) {
          const consent = v.membership.consent_current ? 'accepted' : 'not accepted';
          say(`${v.room_id}\t${v.membership.role}\tconsent v${v.consent_version} ${consent}\t${v.title}`);
        }
      }),
    );
  });
};

const addCreate = (rooms: Command): void => {
  addDatabaseOption(
    rooms
      .command('create')
      .description('create a room owned by an account; the room id is printed alone on the last line')
      .requiredOption('--account <id>', 'the owner account')
      .requiredOption('--title <title>', 'one line, 1-200 characters')
      .option(
        '--tenant <tenant>',
        "the tenant the room belongs to (default: the one tenant of the account's agent bindings)",
      ),
  ).action(async (options: { account: string; title: string; tenant?: string; database?: string }) => {
    await withDatabase(options, (database) =>
      helixErrors(async () => {
        const room =
          options.tenant === undefined
            ? await createAccountRoom(database.rooms, options.account, options.title)
            : await createRoomFor(database.rooms, options.account, options.tenant, options.title);
        process.stderr.write(`created "${room.title}" owned by ${options.account} (consent version 1)\n`);
        say(room.room_id);
      }),
    );
  });
};

/** The consent text, from exactly one of --text or --file. */
const consentTextOf = async (options: { text?: string; file?: string }): Promise<string> => {
  if ((options.text === undefined) === (options.file === undefined))
    throw new CliError('give exactly one of --text or --file', 2);
  if (options.text !== undefined) return options.text;
  try {
    return await readFile(options.file ?? '', 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${options.file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, 2);
  }
};

const consentCommand = (): Command => {
  const consent = new Command('consent').description("a room's consent versions");
  addDatabaseOption(
    consent
      .command('publish')
      .description('publish the next consent version; every other member must accept it before binding runs again')
      .argument('<room-id>')
      .requiredOption('--account <id>', 'an owner of the room')
      .option('--text <text>', 'the consent text')
      .option('--file <path>', 'read the consent text from a file'),
  ).action(async (roomId: string, options: { account: string; text?: string; file?: string; database?: string }) => {
    const text = await consentTextOf(options);
    await withDatabase(options, (database) =>
      helixErrors(async () => {
        const published = await publishConsentVersion(database.rooms, options.account, roomId, text);
        say(`published consent version ${published.consent_version} of ${published.room_id}`);
      }),
    );
  });
  return consent;
};

/** `helix rooms …`: Shared Live Rooms, their members and consent, from the operator's CLI (D-09). */
export const roomsCommand = (): Command => {
  const rooms = new Command('rooms').description(
    'Shared Live Rooms: list, create, members and consent (docs/rooms.md)',
  );
  for (const add of [addList, addCreate]) add(rooms);
  rooms.addCommand(roomMembersCommand());
  rooms.addCommand(consentCommand());
  return rooms;
};
