import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** A .gitignore larger than this is not a list of patterns; treat it as absent. */
const MAX_RULES_BYTES = 256 * 1024;

const readRulesFile = async (file: string): Promise<string> => {
  try {
    const stats = await lstat(file);
    // A symlinked .gitignore could point anywhere; git itself refuses to follow them (2.32+).
    if (!stats.isFile() || stats.size > MAX_RULES_BYTES) return '';
    return await readFile(file, 'utf8');
  } catch {
    return '';
  }
};

/**
 * The .gitignore files of one repository root, nested ones included, loaded lazily and cached for
 * one capability call. Paths are root-relative with forward slashes.
 *
 * Matching is case-insensitive (the `ignore` default) even where git would be case-sensitive:
 * hiding `.ENV` because `.env` is ignored errs on the side of not disclosing.
 */
export class GitignoreRules {
  private readonly byDirectory = new Map<string, Promise<Ignore | undefined>>();

  constructor(private readonly root: string) {}

  private rulesOf(directory: string): Promise<Ignore | undefined> {
    let rules = this.byDirectory.get(directory);
    if (rules === undefined) {
      rules = this.load(directory);
      this.byDirectory.set(directory, rules);
    }
    return rules;
  }

  private async load(directory: string): Promise<Ignore | undefined> {
    const absolute = path.join(this.root, ...directory.split('/'));
    // At the root, .git/info/exclude comes first so that .gitignore rules override it, as in git.
    const exclude = directory === '' ? await readRulesFile(path.join(absolute, '.git', 'info', 'exclude')) : '';
    const gitignore = await readRulesFile(path.join(absolute, '.gitignore'));
    if (exclude === '' && gitignore === '') return undefined;
    return ignore().add(exclude).add(gitignore);
  }

  /**
   * Whether the rules along the way ignore this entry, assuming no directory above it is ignored
   * (the walk never enters ignored directories). Deeper .gitignore files override shallower ones,
   * and within one file the last matching rule wins, as in git.
   */
  async ignoresEntry(relativePath: string, isDirectory: boolean): Promise<boolean> {
    const segments = relativePath.split('/');
    let ignored = false;
    for (let depth = 0; depth < segments.length; depth += 1) {
      const rules = await this.rulesOf(segments.slice(0, depth).join('/'));
      if (rules === undefined) continue;
      const result = rules.test(`${segments.slice(depth).join('/')}${isDirectory ? '/' : ''}`);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  /** Whether git would ignore this path: the path itself, or any directory above it. */
  async ignoresPath(relativePath: string, isDirectory: boolean): Promise<boolean> {
    const segments = relativePath.split('/');
    for (let depth = 1; depth < segments.length; depth += 1) {
      if (await this.ignoresEntry(segments.slice(0, depth).join('/'), true)) return true;
    }
    return this.ignoresEntry(relativePath, isDirectory);
  }
}
