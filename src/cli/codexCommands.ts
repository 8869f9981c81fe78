import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { startBrowserLogin } from '../model/codex/browserLogin.js';
import { CodexAuthError } from '../model/codex/codexAuthError.js';
import { codexAuthStatus, saveCodexLogin, type CodexAuthStatus } from '../model/codex/codexCredentials.js';
import { checkOwnerKey, FileCredentialDocumentStore, helixHomeFromEnv } from '../model/codex/credentialStore.js';
import { loginWithDevice } from '../model/codex/deviceLogin.js';
import { codexCallbackPortsFromEnv, codexEndpointsFromEnv } from '../model/codex/endpoints.js';
import type { CodexTokens } from '../model/codex/tokenClient.js';
import { CliError } from './options.js';

/**
 * `helix login codex`, `helix logout codex`, `helix auth status`. The local CLI keeps one Codex
 * subscription login per owner key in $HELIX_HOME/codex/<owner>.json; the owner is `local` unless
 * --owner names another. Nothing here prints a token, an account id or an expiry.
 */
const DEFAULT_OWNER = 'local';
const ownerHelp = `local owner key the login is kept under (default: ${DEFAULT_OWNER}; file: $HELIX_HOME/codex/<owner>.json, HELIX_HOME defaults to ~/.helix)`;

const say = (line: string): void => void process.stdout.write(`${line}\n`);

const localStore = () => new FileCredentialDocumentStore({ home: helixHomeFromEnv(process.env) });

const ownerOf = (options: { owner?: string }): string => {
  try {
    return checkOwnerKey(options.owner ?? DEFAULT_OWNER);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
};

const endpoints = () => {
  try {
    return codexEndpointsFromEnv(process.env);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
};

const callbackPorts = () => {
  try {
    return codexCallbackPortsFromEnv(process.env);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
};

/** Best effort: if no browser opens, the printed URL is the way on. */
const openBrowser = (url: string): void => {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener on this machine
  }
};

/** The SIGINT handler replaces Node's default exit, so Ctrl-C must end this read through `signal`. */
const readPastedUrl = async (signal: AbortSignal): Promise<string> => {
  if (signal.aborted) throw new CodexAuthError('aborted', 'the login was aborted');
  const lines = createInterface({ input: process.stdin });
  const stop = () => lines.close();
  signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const line of lines) if (line.trim() !== '') return line.trim();
  } finally {
    signal.removeEventListener('abort', stop);
    lines.close();
  }
  if (signal.aborted) throw new CodexAuthError('aborted', 'the login was aborted');
  throw new CliError('no redirect URL was pasted');
};

const loginWithBrowser = async (
  options: { browser: boolean; paste?: boolean },
  signal: AbortSignal,
): Promise<CodexTokens> => {
  const ports = callbackPorts();
  const login = await startBrowserLogin({ endpoints: endpoints(), ports, paste: options.paste === true });
  try {
    say('Sign in to Codex with your ChatGPT account. Open this URL in a browser:');
    say('');
    say(`  ${login.authorizeUrl}`);
    say('');
    if (login.port === undefined) {
      if (options.paste !== true) say(`No local callback port (${ports.join(', ')}) could be opened.`);
      say('After signing in, the browser is sent to a localhost address that may not load.');
      say('Copy that whole address from the address bar and paste it here, then press Enter:');
      return await login.completeWithPastedUrl(await readPastedUrl(signal), signal);
    }
    if (options.browser) openBrowser(login.authorizeUrl);
    say(`Waiting for the browser to return to http://localhost:${login.port}/auth/callback (Ctrl-C to stop)...`);
    return await login.waitForCallback(signal);
  } finally {
    await login.close();
  }
};

const loginCodex = async (options: {
  device?: boolean;
  browser: boolean;
  paste?: boolean;
  owner?: string;
}): Promise<void> => {
  const owner = ownerOf(options);
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const tokens =
      options.device === true
        ? await loginWithDevice({
            endpoints: endpoints(),
            signal: controller.signal,
            onPrompt: ({ verificationUrl, userCode }) => {
              say(`Open ${verificationUrl} in a browser and enter this one-time code:`);
              say('');
              say(`  ${userCode}`);
              say('');
              say('Waiting for approval (up to 15 minutes, Ctrl-C to stop)...');
            },
          })
        : await loginWithBrowser(options, controller.signal);
    const store = localStore();
    await saveCodexLogin(store, owner, tokens);
    say(`Logged in to Codex (ChatGPT subscription) for owner ${owner}; the login is kept in ${store.pathOf(owner)}.`);
  } catch (err) {
    if (err instanceof CodexAuthError)
      throw new CliError(`login failed: ${err.message}`, err.code === 'aborted' ? 130 : 1);
    throw err;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
};

const describeStatus = (status: CodexAuthStatus, owner: string): string => {
  switch (status.state) {
    case 'logged-in':
      return `codex-subscription: logged in (owner ${owner})`;
    case 'logged-out':
      return `codex-subscription: logged out (owner ${owner}); run \`helix login codex\``;
    case 'reconnect-required':
      return `codex-subscription: reconnect required (${status.reason ?? 'unknown'}, owner ${owner}); run \`helix login codex\``;
  }
};

export const loginCommand = (): Command =>
  new Command('login')
    .description('log in to a model provider')
    .addCommand(
      new Command('codex')
        .description('log in with a ChatGPT subscription that includes Codex (browser by default)')
        .option('--device', 'use a one-time code typed at the issuer instead of a browser redirect')
        .option('--no-browser', 'print the sign-in URL without opening a browser')
        .option('--paste', 'do not listen on localhost; paste the redirect URL from the browser instead')
        .option('--owner <key>', ownerHelp)
        .action(loginCodex),
    );

export const logoutCommand = (): Command =>
  new Command('logout').description('remove a local model-provider login').addCommand(
    new Command('codex')
      .description('delete the local Codex subscription login')
      .option('--owner <key>', ownerHelp)
      .action(async (options: { owner?: string }) => {
        const owner = ownerOf(options);
        const removed = await localStore().delete(owner);
        say(removed ? `Removed the Codex login for owner ${owner}.` : `There was no Codex login for owner ${owner}.`);
      }),
  );

export const authCommand = (): Command =>
  new Command('auth').description('model-provider logins').addCommand(
    new Command('status')
      .description(
        'show whether a Codex subscription login is present and usable (never tokens, account ids or expiry)',
      )
      .option('--json', 'print the structured status')
      .option('--owner <key>', ownerHelp)
      .action(async (options: { json?: boolean; owner?: string }) => {
        const owner = ownerOf(options);
        const status = await codexAuthStatus(localStore(), owner);
        say(options.json === true ? JSON.stringify(status) : describeStatus(status, owner));
      }),
  );
