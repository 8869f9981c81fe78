import { z } from 'zod';
import { HelixError } from '../../domain/errors.js';
import { makeArtifact } from '../artifact.js';
import type { Capability } from '../capability.js';
import { resolveConfinedFile, UNREADABLE } from './confinedPath.js';
import { GitignoreRules } from './gitignoreRules.js';
import { REPOSITORY_FAMILY, pathRefusal, type RepositoryLimits } from './repositoryPolicy.js';
import { realRoot } from './repositoryRoots.js';
import { parseRequestedPath } from './requestedPath.js';
import { readTextFile } from './textFile.js';

export const REPOSITORY_READ_FILE_ID = 'repository.read_file';
export const MAX_READ_LINES = 400;

export const readRepositoryFileInput = z
  .object({
    path: z.string().min(1).max(1024),
    start_line: z.number().int().min(1).optional(),
    end_line: z.number().int().min(1).optional(),
  })
  .refine((input) => input.end_line === undefined || input.end_line >= (input.start_line ?? 1), {
    path: ['end_line'],
    message: 'end_line must not be before start_line',
  })
  .refine((input) => input.end_line === undefined || input.end_line - (input.start_line ?? 1) < MAX_READ_LINES, {
    path: ['end_line'],
    message: `at most ${MAX_READ_LINES} lines can be read at once`,
  });
export type ReadRepositoryFileInput = z.infer<typeof readRepositoryFileInput>;

export interface ReadRepositoryFileOptions {
  readonly roots: readonly string[];
  readonly limits: RepositoryLimits;
}

export const readRepositoryFileCapability = (
  options: ReadRepositoryFileOptions,
): Capability<ReadRepositoryFileInput> => ({
  id: REPOSITORY_READ_FILE_ID,
  scope: 'repository_evidence',
  family: REPOSITORY_FAMILY,
  kind: 'read',
  description: `Read up to ${MAX_READ_LINES} lines of a repository file, by the path repository.search returned ("<root index>:<path>" when several roots are configured).`,
  input: readRepositoryFileInput,
  async execute(input, context) {
    context.signal.throwIfAborted();
    const requested = parseRequestedPath(input.path, options.roots.length);
    const configuredRoot = options.roots[requested.rootIndex];
    if (configuredRoot === undefined) throw pathRefusal('path names an unknown repository root');
    const root = await realRoot(configuredRoot, REPOSITORY_READ_FILE_ID);
    const file = await resolveConfinedFile(root, requested, new GitignoreRules(root));
    context.signal.throwIfAborted();
    const read = await readTextFile(file.absolute, options.limits.maxFileBytes);
    if (read.kind === 'binary') throw pathRefusal('file is binary');
    if (read.kind === 'too_large') throw pathRefusal('file exceeds the size limit');
    if (read.kind === 'not_a_file') throw pathRefusal(UNREADABLE);

    const start = input.start_line ?? 1;
    if (start > read.lines.length) {
      throw new HelixError('invalid_request', {
        issues: [
          { path: 'start_line', message: `start_line is past the end of the file (${read.lines.length} lines)` },
        ],
      });
    }
    const end = Math.min(input.end_line ?? start + MAX_READ_LINES - 1, read.lines.length);
    const artifact = makeArtifact({
      kind: 'observation',
      family: REPOSITORY_FAMILY,
      capabilityId: REPOSITORY_READ_FILE_ID,
      content: read.lines.slice(start - 1, end).join('\n'),
      title: file.relativePath,
      provenance: {
        source_id: `repository:${requested.rootIndex}`,
        // Where the content came from: the resolved path, if the caller named it through a link.
        locator: file.relativePath,
        span: { start, end },
        retrieved_at: new Date(context.now()).toISOString(),
        turn: context.turn,
      },
    });
    return { artifacts: [artifact], hits: [] };
  },
});
