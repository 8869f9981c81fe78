import { checkHttpUrl, HTTP_URL_PROBLEMS } from '../../net/httpUrl.js';

/**
 * Validates a configured endpoint once, at construction. Credentials in the URL are refused
 * because they would be sent on every request and echoed by any error that printed the URL;
 * the message names the setting, never the value.
 */
export const parseEndpointUrl = (raw: string, setting: string): URL => {
  const checked = checkHttpUrl(raw);
  if (!checked.ok) throw new TypeError(`${setting} ${HTTP_URL_PROBLEMS[checked.problem]}.`);
  checked.url.hash = '';
  return checked.url;
};

/** Appends a path to an endpoint base, keeping the base's own path ("/api" + "/works"). */
export const endpointPath = (base: URL, path: string): URL => {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url;
};

/** A positive integer setting, or its default when absent. */
export const positiveIntegerSetting = (value: number | undefined, fallback: number, setting: string): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${setting} must be a positive integer.`);
  return value;
};
