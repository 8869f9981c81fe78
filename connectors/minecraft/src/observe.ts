// What the player sees, as the bounded snapshot of src/wire.ts. Everything is read from the
// mineflayer client's own state (the server's view arrives through the protocol), never guessed.
import type { Bot } from 'mineflayer';
import { type Inventory, LIMITS, type Snapshot } from './wire.js';

const clip = (text: string): string => text.slice(0, LIMITS.maxNameLength);
const round = (n: number): number => Math.round(n * 100) / 100;

/** The player's inventory, in slot order, bounded. */
export const readInventory = (bot: Bot): Inventory => ({
  items: bot.inventory
    .items()
    .slice(0, LIMITS.maxInventoryItems)
    .map((item) => ({ slot: item.slot, name: clip(item.name), count: item.count })),
});

/** Block kinds in the cube of `nearbyBlockRadius` around the feet, most frequent first, air left out. */
const readNearbyBlocks = (bot: Bot): Snapshot['nearby_blocks'] => {
  const r = LIMITS.nearbyBlockRadius;
  const feet = bot.entity.position.floored();
  const counts = new Map<string, number>();
  for (let dx = -r; dx <= r; dx++) {
    for (let dy = -r; dy <= r; dy++) {
      for (let dz = -r; dz <= r; dz++) {
        const block = bot.blockAt(feet.offset(dx, dy, dz));
        if (block !== null && block.name !== 'air') counts.set(block.name, (counts.get(block.name) ?? 0) + 1);
      }
    }
  }
  const below = bot.blockAt(feet.offset(0, -1, 0));
  return {
    radius: r,
    standing_on: below === null ? null : clip(below.name),
    counts: [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, LIMITS.maxNearbyBlockKinds)
      .map(([name, count]) => ({ name: clip(name), count })),
  };
};

/** Other entities within `nearbyEntityRadius`, nearest first. */
const readNearbyEntities = (bot: Bot): Snapshot['nearby_entities'] => {
  const self = bot.entity;
  return Object.values(bot.entities)
    .filter((entity) => entity !== self)
    .map((entity) => ({ entity, distance: entity.position.distanceTo(self.position) }))
    .filter(({ distance }) => distance <= LIMITS.nearbyEntityRadius)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, LIMITS.maxNearbyEntities)
    .map(({ entity, distance }) => ({
      type: clip(entity.type),
      name: clip(entity.username ?? entity.name ?? 'unknown'),
      distance: round(distance),
      position: { x: round(entity.position.x), y: round(entity.position.y), z: round(entity.position.z) },
    }));
};

export const readSnapshot = (bot: Bot): Snapshot => {
  const { position, yaw, pitch } = bot.entity;
  return {
    player: {
      username: clip(bot.username),
      position: { x: round(position.x), y: round(position.y), z: round(position.z) },
      yaw: round(yaw),
      pitch: round(pitch),
      dimension: clip(String(bot.game.dimension)),
      game_mode: clip(String(bot.game.gameMode)),
    },
    vitals: {
      health: round(bot.health),
      food: bot.food,
      saturation: Number.isFinite(bot.foodSaturation) ? round(bot.foodSaturation) : null,
    },
    inventory: readInventory(bot),
    nearby_blocks: readNearbyBlocks(bot),
    nearby_entities: readNearbyEntities(bot),
    time: { time_of_day: bot.time.timeOfDay % 24_000, day: bot.time.day, is_day: bot.time.isDay },
  };
};
