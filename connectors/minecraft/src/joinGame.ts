// Joins the Minecraft server as a player and resolves once the player has spawned.
import { once } from 'node:events';
import mineflayer, { type Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { ConnectorConfig } from './config.js';

const SPAWN_TIMEOUT_MS = 30_000;

export const joinGame = async (minecraft: ConnectorConfig['minecraft']): Promise<Bot> => {
  const bot = mineflayer.createBot({
    host: minecraft.host,
    port: minecraft.port,
    username: minecraft.username,
    auth: minecraft.auth,
    version: minecraft.version,
    hideErrors: true,
  });
  const failed = new Promise<never>((_, reject) => {
    bot.once('kicked', (reason) =>
      reject(new Error(`kicked by the Minecraft server: ${String(reason).slice(0, 200)}`)),
    );
    bot.once('error', (error) => reject(new Error(`cannot join the Minecraft server: ${error.message}`)));
    bot.once('end', (reason) => reject(new Error(`the Minecraft server closed the connection: ${reason}`)));
  });
  failed.catch(() => undefined); // a rejection after the spawn is the connector's 'end' handler's business
  try {
    await Promise.race([once(bot, 'spawn', { signal: AbortSignal.timeout(SPAWN_TIMEOUT_MS) }), failed]);
  } catch (error) {
    bot.quit();
    throw error;
  }
  return bot;
};

/**
 * Loads the path planner for the action lane. Navigation only walks: it never digs through or
 * builds up blocks on the way, so a `navigate_to` cannot change the world (D-11: world mutation
 * needs its own approved kind).
 */
export const enableActions = (bot: Bot): void => {
  bot.loadPlugin(pathfinderPackage.pathfinder);
  const movements = new pathfinderPackage.Movements(bot);
  movements.canDig = false;
  movements.allow1by1towers = false;
  movements.scafoldingBlocks = [];
  bot.pathfinder.setMovements(movements);
};
