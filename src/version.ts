/** The one place Helix's version is written (CLI `--version`, the Codex User-Agent, discovery). */
export const HELIX_VERSION = '0.1.0';
