import { HelixError } from '../domain/errors.js';
import { SCOPE_CATALOG } from '../domain/scopeCatalog.js';
import { NO_RARITY, type TermRarity } from '../domain/answerContract/focusTerms.js';
import type { Capability, CapabilityContext, CapabilityResult, PrecheckContext } from './capability.js';

/**
 * The capabilities this deployment has configured, and the one gate every call passes: a
 * capability is callable only if it is registered AND in the turn's admitted set. The same set
 * builds the model-visible menu, so menu and runtime check cannot disagree.
 */
export class CapabilityRegistry {
  private readonly byId: ReadonlyMap<string, Capability>;

  constructor(capabilities: readonly Capability[]) {
    for (const capability of capabilities) {
      const entry = SCOPE_CATALOG.get(capability.scope);
      if (entry === undefined || !entry.capabilities.includes(capability.id)) {
        throw new Error(`capability ${capability.id} is not in the code-owned catalog for ${capability.scope}`);
      }
    }
    this.byId = new Map(capabilities.map((c) => [c.id, c]));
  }

  /** Logical scopes with at least one configured capability: only these can be admitted. */
  availableScopes(): ReadonlySet<string> {
    return new Set([...this.byId.values()].map((c) => c.scope));
  }

  /** Every configured capability id. */
  capabilityIds(): ReadonlySet<string> {
    return new Set(this.byId.keys());
  }

  /** The capabilities an executor may offer this turn, in a stable order. */
  menu(admitted: ReadonlySet<string>): Capability[] {
    return [...this.byId.values()].filter((c) => admitted.has(c.id)).sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * The admitted corpus's word rarities: the statistics of every admitted capability that keeps
   * them, summed. A source that fails to answer counts as keeping none (the weights stay uniform
   * for what it holds); a run is never refused for want of statistics.
   */
  async corpusRarity(admitted: ReadonlySet<string>, words: readonly string[]): Promise<TermRarity> {
    let units = 0;
    const counts = new Map<string, number>();
    for (const capability of this.menu(admitted)) {
      const statistics = await capability.termStatistics?.(words).catch(() => undefined);
      if (statistics === undefined) continue;
      units += statistics.units;
      for (const [word, n] of statistics.frequencies) counts.set(word, (counts.get(word) ?? 0) + n);
    }
    return units === 0 ? NO_RARITY : { units, frequency: (word) => counts.get(word) };
  }

  /** Each admitted capability's precheck, in menu order; the first refusal is thrown. */
  async precheck(admitted: ReadonlySet<string>, context: PrecheckContext): Promise<void> {
    for (const capability of this.menu(admitted)) await capability.precheck?.(context);
  }

  async invoke(
    id: string,
    input: unknown,
    admitted: ReadonlySet<string>,
    context: CapabilityContext,
  ): Promise<CapabilityResult> {
    const capability = this.byId.get(id);
    // ADR-0004 tool_not_found: anything outside the effective toolset, registered or not.
    if (capability === undefined || !admitted.has(id)) throw new HelixError('tool_not_found');
    if (context.signal.aborted) throw context.signal.reason ?? new Error('aborted');
    const parsed = capability.input.safeParse(input);
    if (!parsed.success) {
      throw new HelixError('invalid_request', {
        issues: parsed.error.issues
          .slice(0, 10)
          .map((i) => ({ path: i.path.map(String).join('.') || '(input)', message: 'invalid capability input' })),
      });
    }
    return capability.execute(parsed.data, context);
  }
}
